// Automatic mode (auto_switch on): new images found by the catalogue sync and the products/collections
// webhooks are queued here, from the half-hourly sweep and from onCatalogueChanged (called by the
// catalogue consumer after a webhook-driven update). Our own replacements also fire products/update:
// they are recognised in the pipeline (Shopify serves bytes equal to result_sha256) and cost nothing.
import { areaApplies, type ImageSettings } from '../../shared/image-settings';
import { getStoredImageSettings, isAutoOptimiseOn } from '../db/image-settings';
import { listAutoShops } from '../db/image-settings';
import { listPendingImages } from '../db/images';
import type { ItemRow } from '../db/items';
import { findShopById } from '../db/shops';
import { kindOfDataType } from './decide';
import { planJob, type PlanDeps } from './plan';

/** Images queued per shop per run; the next sweep continues (a shop's first sync can bring 40,000). */
export const AUTO_BATCH = 2000;

function anyAreaApplies(settings: ImageSettings, item: ItemRow): boolean {
  const kind = kindOfDataType(item.dataType);
  if (kind === 'upload') return false;
  const published = item.published;
  return (
    areaApplies(settings.image_opt, kind, published) ||
    areaApplies(settings.alt_text, kind, published) ||
    areaApplies(settings.file_name, kind, published)
  );
}

/** Queues the shop's pending images that its settings cover, one job per tab. Returns images queued. */
export async function enqueueAutomatic(deps: PlanDeps, shopId: number): Promise<number> {
  if (!(await isAutoOptimiseOn(deps.db, shopId))) return 0;
  const shop = await findShopById(deps.db, shopId);
  if (!shop || shop.uninstalledAt) return 0;
  const { settings } = await getStoredImageSettings(deps.db, shopId);
  const pending = (await listPendingImages(deps.db, shopId, AUTO_BATCH)).filter((r) => anyAreaApplies(settings, r.item));
  let queued = 0;
  for (const dataType of [1, 2, 3]) {
    const ids = pending.filter((r) => r.item.dataType === dataType).map((r) => r.image.id);
    if (ids.length === 0) continue;
    const { total } = await planJob(deps, {
      shop,
      dataType,
      processType: 'auto',
      pageType: 0,
      pattern: 'automatic',
      selection: { imageIds: ids },
      quiet: true,
    });
    queued += total;
  }
  return queued;
}

/** For the catalogue consumer (settings-api) after it stored new or changed images of a shop. */
export async function onCatalogueChanged(deps: PlanDeps, shopId: number): Promise<number> {
  return enqueueAutomatic(deps, shopId);
}

/** The half-hourly sweep over every shop in automatic mode; one shop's failure does not stop the rest. */
export async function sweepAutomatic(deps: PlanDeps): Promise<{ shops: number; queued: number }> {
  const shops = await listAutoShops(deps.db);
  let queued = 0;
  for (const { id } of shops) {
    try {
      queued += await enqueueAutomatic(deps, id);
    } catch (err) {
      deps.log.error('auto_sweep_shop_failed', { shopId: id, error: err });
    }
  }
  return { shops: shops.length, queued };
}
