import { images, items } from '../../../worker/db/schema';
import { db } from '../helpers';

type ItemSeed = Partial<typeof items.$inferInsert> & { resourceId: string; dataType: number };
type ImageSeed = Partial<typeof images.$inferInsert>;

/** Inserts one item and its images; returns the item id and image ids. */
export async function seedItem(
  shopId: number,
  item: ItemSeed,
  imgs: ImageSeed[] = [],
): Promise<{ id: number; imageIds: number[] }> {
  const row = await db()
    .insert(items)
    .values({ shopId, title: `Item ${item.resourceId}`, ...item })
    .returning({ id: items.id })
    .get();
  const imageIds: number[] = [];
  for (const [i, img] of imgs.entries()) {
    const r = await db()
      .insert(images)
      .values({ shopId, itemId: row.id, imgId: `gid://shopify/MediaImage/${item.resourceId}${i}`, position: i, ...img })
      .returning({ id: images.id })
      .get();
    imageIds.push(r.id);
  }
  return { id: row.id, imageIds };
}

export const compressed = (originalSize: number, optimisedSize: number, extra: ImageSeed = {}): ImageSeed => ({
  originalSize,
  optimisedSize,
  compressed: true,
  status: 'compressed',
  optimisedAt: Date.now(),
  ...extra,
});
