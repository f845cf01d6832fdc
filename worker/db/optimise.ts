// The optimisation fields of images and items (worker/optimise). The catalogue sync (settings-api) owns
// the catalogue fields; this module writes only what the pipeline decides.
import { and, asc, eq, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from './client';
import { imageSettings, images, items, jobImages, jobs, shops } from './schema';
import { imageChargedSql } from './usage-ledger';

export type ImageRow = typeof images.$inferSelect;
export type ItemRow = typeof items.$inferSelect;
export type ImagePatch = Partial<Omit<typeof images.$inferInsert, 'id' | 'shopId' | 'itemId' | 'imgId'>>;
/**
 * An image with its item, and whether the image was charged already (its ledger row exists): a
 * re-optimise of a charged image needs no new quota. `image.compressed` says something else: whether
 * our result replaced the image on Shopify.
 */
export type ImageWithItem = { image: ImageRow; item: ItemRow; charged: boolean };

const withItem = { image: images, item: items, charged: imageChargedSql(images.shopId, images.id) };

const ID_CHUNK = 90;

export async function getImageWithItem(db: Db, shopId: number, imageId: number): Promise<ImageWithItem | undefined> {
  const row = await db
    .select(withItem)
    .from(images)
    .innerJoin(items, eq(items.id, images.itemId))
    .where(and(eq(images.shopId, shopId), eq(images.id, imageId)))
    .get();
  return row ?? undefined;
}

export async function listItemImages(db: Db, shopId: number, itemId: number): Promise<ImageRow[]> {
  return db
    .select()
    .from(images)
    .where(and(eq(images.shopId, shopId), eq(images.itemId, itemId)))
    .orderBy(asc(images.position), asc(images.id))
    .all();
}

/**
 * Takes the processing lease with one conditional UPDATE: free, already ours (a retry of the same job),
 * or expired (its worker died). D1 runs statements one at a time, so two jobs racing for one image
 * cannot both see it free.
 */
export async function claimImage(db: Db, shopId: number, imageId: number, jobId: string, now: number, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(images)
    .set({ lockJobId: jobId, lockExpiresAt: now + leaseMs, updatedAt: now })
    .where(
      and(
        eq(images.shopId, shopId),
        eq(images.id, imageId),
        or(isNull(images.lockJobId), eq(images.lockJobId, jobId), lt(images.lockExpiresAt, now)),
      ),
    )
    .returning({ id: images.id })
    .all();
  return rows.length > 0;
}

export async function releaseImage(db: Db, shopId: number, imageId: number, jobId: string): Promise<void> {
  await db
    .update(images)
    .set({ lockJobId: null, lockExpiresAt: null })
    .where(and(eq(images.shopId, shopId), eq(images.id, imageId), eq(images.lockJobId, jobId)));
}

/** Writes pipeline fields while the lease is ours; false when another job took it (lease expired). */
export async function updateImageLocked(db: Db, shopId: number, imageId: number, jobId: string, patch: ImagePatch): Promise<boolean> {
  const rows = await db
    .update(images)
    .set({ ...patch, updatedAt: Date.now() })
    .where(and(eq(images.shopId, shopId), eq(images.id, imageId), eq(images.lockJobId, jobId)))
    .returning({ id: images.id })
    .all();
  return rows.length > 0;
}

/** Writes fields without the lease (dead-letter handling, expiry, planning). */
export async function updateImage(db: Db, shopId: number, imageId: number, patch: ImagePatch): Promise<void> {
  await db
    .update(images)
    .set({ ...patch, updatedAt: Date.now() })
    .where(and(eq(images.shopId, shopId), eq(images.id, imageId)));
}

export async function setImagesStatus(db: Db, shopId: number, imageIds: readonly number[], status: string): Promise<void> {
  for (let i = 0; i < imageIds.length; i += ID_CHUNK) {
    await db
      .update(images)
      .set({ status, updatedAt: Date.now() })
      .where(and(eq(images.shopId, shopId), inArray(images.id, imageIds.slice(i, i + ID_CHUNK))));
  }
}

/**
 * Image rows with their items, always scoped to the shop and a tab: the whole tab, or the union of the
 * images of `itemIds` and the images `imageIds` (restricted to `onlyItemIds` when given).
 */
export async function selectImages(
  db: Db,
  shopId: number,
  dataType: number,
  by: { imageIds?: readonly number[]; itemIds?: readonly number[]; onlyItemIds?: readonly number[]; wholeTab?: boolean },
): Promise<ImageWithItem[]> {
  const base = and(eq(images.shopId, shopId), eq(items.dataType, dataType));
  const run = (extra: ReturnType<typeof and>) =>
    db
      .select(withItem)
      .from(images)
      .innerJoin(items, eq(items.id, images.itemId))
      .where(and(base, extra))
      .orderBy(asc(images.itemId), asc(images.position))
      .all();
  if (by.wholeTab) return run(undefined);
  // One statement whatever the number of ids: they travel as one JSON parameter (D1 binds at most 100).
  const inJson = (column: typeof images.id | typeof images.itemId, ids: readonly number[]) => sql`${column} in (select value from json_each(${JSON.stringify(ids)}))`;
  const itemIds = by.itemIds ?? [];
  const imageIds = by.imageIds ?? [];
  if (itemIds.length === 0 && imageIds.length === 0) return [];
  const byImage = imageIds.length ? and(inJson(images.id, imageIds), by.onlyItemIds ? inJson(images.itemId, by.onlyItemIds) : undefined) : undefined;
  return run(or(itemIds.length ? inJson(images.itemId, itemIds) : undefined, byImage));
}

/**
 * The history row's summary from its images: opt_status 1 while any image is queued or processing,
 * 3 when every optimised image is restored, 2 when one is optimised; comp_ratio over the compressed images.
 */
export async function refreshItemSummary(db: Db, shopId: number, itemId: number, pattern?: string): Promise<void> {
  const agg = await db
    .select({
      // Queued in an active job counts as running too, so the row shows "implement" from planning on.
      busy: sql<number>`sum(case when ${images.status} = 'processing' or exists (select 1 from ${jobImages} ji join ${jobs} j on j.id = ji.job_id where ji.image_id = ${images.id} and ji.status = 'queued' and j.status in ('queued','running')) then 1 else 0 end)`,
      compressed: sql<number>`sum(case when ${images.status} = 'compressed' then 1 else 0 end)`,
      optimal: sql<number>`sum(case when ${images.status} = 'optimal' then 1 else 0 end)`,
      restored: sql<number>`sum(case when ${images.status} = 'restored' then 1 else 0 end)`,
      before: sql<number>`coalesce(sum(case when ${images.status} = 'compressed' then ${images.originalSize} else 0 end), 0)`,
      after: sql<number>`coalesce(sum(case when ${images.status} = 'compressed' then ${images.optimisedSize} else 0 end), 0)`,
      lastAt: sql<number | null>`max(${images.optimisedAt})`,
    })
    .from(images)
    .where(and(eq(images.shopId, shopId), eq(images.itemId, itemId)))
    .get();
  if (!agg) return;
  const done = (agg.compressed ?? 0) + (agg.optimal ?? 0);
  let optStatus = 0;
  let status = '';
  if ((agg.busy ?? 0) > 0) [optStatus, status] = [1, 'implement'];
  else if ((agg.restored ?? 0) > 0 && done === 0) [optStatus, status] = [3, 'restored'];
  else if (done > 0) [optStatus, status] = [2, 'finished'];
  const compRatio = agg.before > 0 ? Math.round(((agg.before - agg.after) / agg.before) * 10000) / 100 : 0;
  await db
    .update(items)
    .set({ optStatus, status, savedPercent: compRatio, optimisedAt: agg.lastAt ?? null, updatedAt: Date.now(), ...(pattern ? { pattern } : {}) })
    .where(and(eq(items.shopId, shopId), eq(items.id, itemId)));
}

/** Optimised images whose 30 days are over and that are not marked yet (all shops; the daily sweep). */
export async function listExpiredImages(db: Db, now: number, limit: number): Promise<ImageRow[]> {
  return db
    .select()
    .from(images)
    .where(and(isNotNull(images.expiresAt), lt(images.expiresAt, now), eq(images.expired, false)))
    .limit(limit)
    .all();
}

/** Shops with automatic optimisation on, configured, and installed. */
export async function listAutoShops(db: Db): Promise<{ id: number }[]> {
  return db
    .select({ id: shops.id })
    .from(shops)
    .innerJoin(imageSettings, eq(imageSettings.shopId, shops.id))
    .where(and(eq(imageSettings.autoOptimise, true), eq(imageSettings.usingDefaults, false), isNull(shops.uninstalledAt)))
    .all();
}

/** Never-processed images of live items on the catalogue tabs: what automatic mode picks up. */
export async function listPendingImages(db: Db, shopId: number, limit: number): Promise<{ image: ImageRow; item: ItemRow }[]> {
  return db
    .select({ image: images, item: items })
    .from(images)
    .innerJoin(items, eq(items.id, images.itemId))
    .where(
      and(
        eq(images.shopId, shopId),
        eq(images.status, 'pending'),
        eq(images.deleted, false),
        eq(items.deleted, false),
        ne(items.dataType, 4),
      ),
    )
    .orderBy(asc(images.id))
    .limit(limit)
    .all();
}

/** A new upload: its history row (data_type 4) and its one image row, created together. */
export async function insertUpload(
  db: Db,
  shopId: number,
  upload: { uploadId: string; name: string; fileType: string; size: number; key: string; sha256: string; expiresAt: number },
): Promise<{ item: ItemRow; image: ImageRow }> {
  const item = await db
    .insert(items)
    .values({ shopId, dataType: 4, resourceId: upload.uploadId, title: upload.name, pattern: 'upload', imageCount: 1, optStatus: 1, status: 'implement' })
    .returning()
    .get();
  const image = await db
    .insert(images)
    .values({
      shopId,
      itemId: item.id,
      imgId: `upload:${upload.uploadId}`,
      fileName: upload.name,
      fileType: upload.fileType,
      originalSize: upload.size,
      originalKey: upload.key,
      originalSha256: upload.sha256,
      originalFileName: upload.name,
      originalAlt: '',
      status: 'pending',
      // Expires from the start: a failed or skipped upload leaves R2 with the rest, 30 days on.
      expiresAt: upload.expiresAt,
    })
    .returning()
    .get();
  return { item, image };
}
