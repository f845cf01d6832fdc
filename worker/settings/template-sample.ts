// The sample of the settings' live preview: the first synced product, collection and blog post of the
// shop, read the way the pipeline reads them (worker/optimise/decide.ts templateContextOf), so the preview
// shows what an optimisation would write. Read-only.
import { DATA_TYPES } from '../../shared/api/vocabulary';
import { templateItemOf } from '../optimise/decide';
import type { TemplateSample, TemplateSampleItem } from '../../shared/api/settings';
import { extensionOf } from '../../shared/templates';
import type { Db } from '../db/client';
import { firstLiveItem } from '../db/items';

async function sampleOf(db: Db, shopId: number, dataType: number): Promise<TemplateSampleItem | null> {
  const found = await firstLiveItem(db, shopId, dataType);
  if (!found) return null;
  return {
    item: templateItemOf(found.item),
    ext: extensionOf(found.fileName),
  };
}

export async function readTemplateSample(db: Db, shop: { id: number; name: string }): Promise<TemplateSample> {
  const [product, collection, blogs] = await Promise.all([
    sampleOf(db, shop.id, DATA_TYPES.product),
    sampleOf(db, shop.id, DATA_TYPES.collection),
    sampleOf(db, shop.id, DATA_TYPES.blogs),
  ]);
  return { shop_name: shop.name, product, collection, blogs };
}
