// The images table: one row per product, collection or article image and per upload. The pipeline
// (worker/optimise) takes a row's lease and writes what it decides; the detail page, the statistics and
// the file links read it. The catalogue sync writes the catalogue fields (items-sync.ts).
import { and, asc, eq, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from './client';
import { images, imageVersions, items } from './schema';
import { imageChargedSql } from './usage-ledger';

export type ImageRow = typeof images.$inferSelect;

export type ImagePatch = Partial<Omit<typeof images.$inferInsert, 'id' | 'shopId' | 'itemId' | 'imgId'>>;

/** The item row type, as images.ts needs it (worker/db/items.ts exports ItemRow). */
type ItemRow = typeof items.$inferSelect;

/**
 * An image with its item, and whether the image was charged already (its ledger row exists): a
 * re-optimise of a charged image needs no new quota. `image.compressed` says something else: whether
 * our result replaced the image on Shopify.
 */
export type ImageWithItem = { image: ImageRow; item: ItemRow; charged: boolean };

const withItem = { image: images, item: items, charged: imageChargedSql(images.shopId, images.id) };

const ID_CHUNK = 90;

/** Image statuses that still wait for a first optimisation (the manual list's candidates). */
export const CANDIDATE_STATUSES = ['pending', 'failed'] as const;

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

/** One page of an item's images, in their position order, and the total. */
export async function pageItemImages(
  db: Db,
  shopId: number,
  itemId: number,
  page: number,
  pageSize: number,
): Promise<{ rows: ImageRow[]; total: number }> {
  const where = and(eq(images.shopId, shopId), eq(images.itemId, itemId));
  const [rows, count] = await db.batch([
    db
      .select()
      .from(images)
      .where(where)
      .orderBy(asc(images.position), asc(images.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db
      .select({ n: sql<number>`count(*)` })
      .from(images)
      .where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

/**
 * Who holds an image's processing lease: the job, and the one delivery of its message that took it. Queues
 * deliver at least once, so two deliveries of one message (same job) can run at once: the token, not the
 * job, is what a write is checked against.
 */
export type ImageLease = { jobId: string; token: string };

/** The lease columns cleared: the image is free for the next claim. */
export const LEASE_RELEASED = { lockJobId: null, lockToken: null, lockExpiresAt: null } as const;

/**
 * Takes the processing lease with one conditional UPDATE: only when it is free or expired (its holder
 * died, or stalled longer than the lease without renewing it). Never "already ours": a second delivery of
 * the same message must wait like any other. D1 runs statements one at a time, so two deliveries racing
 * for one image cannot both see it free.
 */
export async function claimImage(
  db: Db,
  shopId: number,
  imageId: number,
  lease: ImageLease,
  now: number,
  leaseMs: number,
): Promise<boolean> {
  const rows = await db
    .update(images)
    .set({ lockJobId: lease.jobId, lockToken: lease.token, lockExpiresAt: now + leaseMs, updatedAt: now })
    .where(
      and(
        eq(images.shopId, shopId),
        eq(images.id, imageId),
        or(isNull(images.lockJobId), isNull(images.lockExpiresAt), lt(images.lockExpiresAt, now)),
      ),
    )
    .returning({ id: images.id })
    .all();
  return rows.length > 0;
}

/** Gives the lease back if this delivery still holds it. */
export async function releaseImage(db: Db, shopId: number, imageId: number, token: string): Promise<void> {
  await db
    .update(images)
    .set(LEASE_RELEASED)
    .where(and(eq(images.shopId, shopId), eq(images.id, imageId), eq(images.lockToken, token)));
}

/**
 * Writes pipeline fields while this delivery holds the lease and renews it until `renewUntil` (unless the
 * patch releases it); false when another delivery took it over (ours had expired). A lease that expired
 * but that nobody took is still ours: nobody else can have written the row meanwhile.
 */
export async function updateImageLocked(
  db: Db,
  shopId: number,
  imageId: number,
  token: string,
  patch: ImagePatch,
  renewUntil: number,
  unchanged: ImageWordsExpected = {},
): Promise<boolean> {
  const releases = 'lockJobId' in patch && patch.lockJobId === null;
  const rows = await db
    .update(images)
    .set({ ...patch, ...(releases ? LEASE_RELEASED : { lockExpiresAt: renewUntil }), updatedAt: Date.now() })
    .where(
      and(
        eq(images.shopId, shopId),
        eq(images.id, imageId),
        eq(images.lockToken, token),
        isNotNull(images.lockJobId),
        ...(unchanged.alt !== undefined ? [inArray(images.alt, [unchanged.alt].flat())] : []),
        ...(unchanged.fileName !== undefined ? [inArray(images.fileName, [unchanged.fileName].flat())] : []),
      ),
    )
    .returning({ id: images.id })
    .all();
  return rows.length > 0;
}

/**
 * The merchant's words: alt text and file name with our "we wrote it" flags. The catalogue sync writes
 * them without the lease (a merchant's edit in Shopify), so a run reads them again before it decides.
 */
export type ImageWords = Pick<ImageRow, 'alt' | 'fileName' | 'altEdited' | 'fileNameEdited'>;

/** For updateImageLocked: write only while the row still holds these words (no newer edit recorded). */
/** The words a conditional write expects the row to hold: one value, or any of several. */
export type ImageWordsExpected = { alt?: string | string[]; fileName?: string | string[] };

export async function readImageWords(db: Db, shopId: number, imageId: number): Promise<ImageWords | undefined> {
  return db
    .select({ alt: images.alt, fileName: images.fileName, altEdited: images.altEdited, fileNameEdited: images.fileNameEdited })
    .from(images)
    .where(and(eq(images.shopId, shopId), eq(images.id, imageId)))
    .get();
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
  const inJson = (column: typeof images.id | typeof images.itemId, ids: readonly number[]) =>
    sql`${column} in (select value from json_each(${JSON.stringify(ids)}))`;
  const itemIds = by.itemIds ?? [];
  const imageIds = by.imageIds ?? [];
  if (itemIds.length === 0 && imageIds.length === 0) return [];
  const byImage = imageIds.length
    ? and(inJson(images.id, imageIds), by.onlyItemIds ? inJson(images.itemId, by.onlyItemIds) : undefined)
    : undefined;
  return run(or(itemIds.length ? inJson(images.itemId, itemIds) : undefined, byImage));
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
  upload: {
    uploadId: string;
    name: string;
    fileType: string;
    size: number;
    key: string;
    sha256: string;
    storedAt: number;
    expiresAt: number;
  },
): Promise<{ item: ItemRow; image: ImageRow }> {
  const item = await db
    .insert(items)
    .values({
      shopId,
      dataType: 4,
      resourceId: upload.uploadId,
      title: upload.name,
      pattern: 'upload',
      imageCount: 1,
      optStatus: 1,
      status: 'implement',
    })
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
      originalStoredAt: upload.storedAt,
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

export type ShopImageTotals = { originalSize: number; compressSize: number; optNum: number; unOptNum: number };

/** The compression scope of the settings (image_opt): 0/1/2 for products, flags for the others. */
export type ImageScope = { product: number; collection: number; blogs: number };

/**
 * Savings over the shop's optimised images (compressed and not restored) and the count of images that
 * can still be optimised: live, not expired, never optimised (or failed), on a live item in scope.
 * Both read covering indexes (images_shop_saved_idx, images_shop_candidate_idx).
 */
export async function shopImageTotals(db: Db, shopId: number, scope: ImageScope): Promise<ShopImageTotals> {
  const [totals, candidates] = await db.batch([
    db
      .select({
        originalSize: sql<number>`coalesce(sum(${images.originalSize}), 0)`,
        compressSize: sql<number>`coalesce(sum(${images.optimisedSize}), 0)`,
        optNum: sql<number>`count(*)`,
      })
      .from(images)
      .where(and(eq(images.shopId, shopId), eq(images.compressed, true), eq(images.restored, false))),
    db
      .select({ n: sql<number>`count(*)` })
      .from(images)
      .innerJoin(items, eq(items.id, images.itemId))
      .where(
        and(
          eq(images.shopId, shopId),
          inArray(images.status, [...CANDIDATE_STATUSES]),
          eq(images.deleted, false),
          eq(images.expired, false),
          eq(items.deleted, false),
          sql`((${items.dataType} = 1 AND (${scope.product} = 1 OR (${scope.product} = 2 AND ${items.published} = 1)))
            OR (${items.dataType} = 2 AND ${scope.collection} = 1)
            OR (${items.dataType} = 3 AND ${scope.blogs} = 1))`,
        ),
      ),
  ]);
  const t = totals[0] ?? { originalSize: 0, compressSize: 0, optNum: 0 };
  return { ...t, unOptNum: candidates[0]?.n ?? 0 };
}

/** The R2 key of an image's original or result, scoped to the shop; null when there is none. */
export async function imageFileKey(
  db: Db,
  shopId: number,
  imageId: number,
  side: 'before' | 'after',
): Promise<{ key: string; fileName: string; fileType: string } | null> {
  const row = await db
    .select({
      before: images.originalKey,
      after: images.resultKey,
      fileName: images.fileName,
      fileType: images.fileType,
      expired: images.expired,
    })
    .from(images)
    .where(and(eq(images.shopId, shopId), eq(images.id, imageId)))
    .get();
  if (!row) return null;
  const key = side === 'before' ? (row.expired ? null : row.before) : row.after;
  return key ? { key, fileName: row.fileName, fileType: row.fileType } : null;
}

/** updateIsDownload: the merchant downloaded files of this item. Returns how many image rows were marked. */
export async function markDownloaded(db: Db, shopId: number, itemId: number): Promise<number> {
  const res = await db
    .update(images)
    .set({ downloaded: true, updatedAt: Date.now() })
    .where(and(eq(images.shopId, shopId), eq(images.itemId, itemId)));
  return res.meta.changes ?? 0;
}

/** Keeps an image's old original/result pair for the record when the row moves on to a newer picture. */
export async function retireImageVersion(
  db: Db,
  image: ImageRow,
  at: { servedSha256: string | null; retiredAt: number },
): Promise<void> {
  await db.insert(imageVersions).values({
    shopId: image.shopId,
    imageId: image.id,
    src: image.src,
    status: image.status,
    originalKey: image.originalKey,
    resultKey: image.resultKey,
    originalSha256: image.originalSha256,
    resultSha256: image.resultSha256,
    originalSize: image.originalSize,
    optimisedSize: image.optimisedSize,
    optimisedAt: image.optimisedAt,
    expiresAt: image.expiresAt,
    retiredAt: at.retiredAt,
    servedSha256: at.servedSha256,
  });
}

/** Retired versions whose files' date has passed and are still in R2 (all shops; the daily sweep). */
export async function listExpiredVersions(db: Db, now: number, limit: number) {
  return db
    .select()
    .from(imageVersions)
    .where(and(lt(imageVersions.expiresAt, now), or(isNotNull(imageVersions.originalKey), isNotNull(imageVersions.resultKey))))
    .limit(limit)
    .all();
}

export async function forgetVersionFiles(db: Db, ids: number[]): Promise<void> {
  if (ids.length)
    await db.update(imageVersions).set({ originalKey: null, resultKey: null }).where(inArray(imageVersions.id, ids));
}

/** Images the catalogue saw served at a new URL while the row holds a pair: compare what is served. */
export async function listImagesToCheck(db: Db, shopId: number, limit: number): Promise<{ image: ImageRow; item: ItemRow }[]> {
  return db
    .select({ image: images, item: items })
    .from(images)
    .innerJoin(items, eq(items.id, images.itemId))
    .where(and(eq(images.shopId, shopId), eq(images.checkServed, true), eq(images.deleted, false), isNull(images.lockJobId)))
    .orderBy(asc(images.id))
    .limit(limit)
    .all();
}

/** Which of these R2 keys a current image row still points at (as its original or result). */
export async function liveKeys(db: Db, keys: string[]): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < keys.length; i += ID_CHUNK) {
    const chunk = keys.slice(i, i + ID_CHUNK);
    const rows = await db
      .select({ a: images.originalKey, b: images.resultKey })
      .from(images)
      .where(or(inArray(images.originalKey, chunk), inArray(images.resultKey, chunk)))
      .all();
    for (const r of rows) out.push(r.a ?? '', r.b ?? '');
  }
  return out;
}
