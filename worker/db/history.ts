// History, detail and statistics queries (image-optimisation.md sections 3, 4 and 7). Every figure is
// computed from the item and image rows, never from stored counters that could drift.
import { and, asc, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from './client';
import { images, items } from './schema';

/** Image statuses that still wait for a first optimisation (the manual list's candidates). */
export const CANDIDATE_STATUSES = ['pending', 'failed'] as const;
/**
 * The jobs keep items.opt_status current (refreshItemSummary: 1 running, 2 optimised, 3 restored);
 * an item whose images only failed or were skipped keeps opt_status 0 but belongs in the history too.
 */
export const HISTORY_ONLY_STATUSES = ['failed', 'skipped'] as const;

export type HistoryQuery = { shopId: number; dataType: number; pageType: 0 | 1; title: string; page: number; pageSize: number; publishedOnly: boolean };

export type HistoryItemRow = {
  id: number;
  dataType: number;
  resourceId: string;
  blogId: string | null;
  title: string;
  thumbnailUrl: string;
  deleted: boolean;
  optStatus: number;
  status: string;
  pattern: string;
  published: boolean;
  optimisedAt: number | null;
  updatedAt: number;
};

export type ItemImageFigures = { itemId: number; imageCount: number; optNum: number; unOptNum: number; originalSize: number; optimisedSize: number };

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

function baseWhere(q: HistoryQuery): (SQL | undefined)[] {
  const conds: (SQL | undefined)[] = [eq(items.shopId, q.shopId), eq(items.dataType, q.dataType)];
  if (q.title.trim() !== '') conds.push(sql`${items.title} LIKE ${`%${escapeLike(q.title.trim())}%`} ESCAPE '\\'`);
  if (q.pageType === 1) {
    conds.push(eq(items.deleted, false));
    if (q.publishedOnly) conds.push(eq(items.published, true));
  }
  return conds;
}

/**
 * History (page_type 0): items a job touched. Manual list (page_type 1): live items with at least one
 * live image never optimised. Two equivalent forms: the page uses a correlated EXISTS, so SQLite walks
 * the ordered index and stops after the page; the count uses IN over the covering status index, which
 * builds the id list once (3x faster than EXISTS per item at 10,000 items).
 */
function historyWhere(q: HistoryQuery, form: 'page' | 'count'): SQL {
  const conds = baseWhere(q);
  const statuses = q.pageType === 0 ? HISTORY_ONLY_STATUSES : CANDIDATE_STATUSES;
  const live = q.pageType === 1 ? sql` AND ${images.deleted} = 0 AND ${images.expired} = 0` : sql``;
  const matching =
    form === 'page'
      ? sql`EXISTS (SELECT 1 FROM ${images} WHERE ${images.shopId} = ${q.shopId} AND ${images.itemId} = ${items.id} AND ${images.status} IN ${statuses}${live})`
      : sql`${items.id} IN (SELECT ${images.itemId} FROM ${images} WHERE ${images.shopId} = ${q.shopId} AND ${images.status} IN ${statuses}${live})`;
  conds.push(q.pageType === 0 ? or(ne(items.optStatus, 0), matching) : matching);
  return and(...conds) as SQL;
}

const itemColumns = {
  id: items.id,
  dataType: items.dataType,
  resourceId: items.resourceId,
  blogId: items.blogId,
  title: items.title,
  thumbnailUrl: items.thumbnailUrl,
  deleted: items.deleted,
  optStatus: items.optStatus,
  status: items.status,
  pattern: items.pattern,
  published: items.published,
  optimisedAt: items.optimisedAt,
  updatedAt: items.updatedAt,
};

/** One page of history rows (page_type 0) or manual candidates (page_type 1), newest first, and the total. */
export async function listHistoryItems(db: Db, q: HistoryQuery): Promise<{ rows: HistoryItemRow[]; total: number }> {
  // Newest optimisation first (items that only failed have none and come last); the manual list by the
  // catalogue's last change. Both orders follow an index, so deep pages stay cheap.
  const order = q.pageType === 0 ? [desc(items.optimisedAt), desc(items.id)] : [desc(items.updatedAt), desc(items.id)];
  const [rows, count] = await db.batch([
    db
      .select(itemColumns)
      .from(items)
      .where(historyWhere(q, 'page'))
      .orderBy(...order)
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db.select({ n: sql<number>`count(*)` }).from(items).where(historyWhere(q, 'count')),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

/** Per-item image figures for the items of one page (image count, optimised, candidates, bytes). */
export async function imageFiguresOf(db: Db, shopId: number, itemIds: number[]): Promise<Map<number, ItemImageFigures>> {
  const out = new Map<number, ItemImageFigures>();
  if (itemIds.length === 0) return out;
  const saved = sql`${images.compressed} = 1 AND ${images.restored} = 0`;
  const rows = await db
    .select({
      itemId: images.itemId,
      imageCount: sql<number>`count(*)`,
      optNum: sql<number>`sum(CASE WHEN ${saved} THEN 1 ELSE 0 END)`,
      unOptNum: sql<number>`sum(CASE WHEN ${images.status} IN ${CANDIDATE_STATUSES} AND ${images.deleted} = 0 AND ${images.expired} = 0 THEN 1 ELSE 0 END)`,
      originalSize: sql<number>`coalesce(sum(CASE WHEN ${saved} THEN ${images.originalSize} END), 0)`,
      optimisedSize: sql<number>`coalesce(sum(CASE WHEN ${saved} THEN ${images.optimisedSize} END), 0)`,
    })
    .from(images)
    // One JSON parameter instead of one per id: D1 allows at most 100 bound parameters per statement.
    .where(and(eq(images.shopId, shopId), sql`${images.itemId} IN (SELECT value FROM json_each(${JSON.stringify(itemIds)}))`))
    .groupBy(images.itemId);
  for (const r of rows) out.set(r.itemId, r);
  return out;
}

/** The history row of one item: by Shopify id of the given type, else by row id. Scoped to the shop. */
export async function findItem(db: Db, shopId: number, ref: { resourceId?: string; dataType?: number; id?: number }): Promise<HistoryItemRow | undefined> {
  if (ref.resourceId !== undefined) {
    const byResource = await db
      .select(itemColumns)
      .from(items)
      .where(and(eq(items.shopId, shopId), eq(items.dataType, ref.dataType ?? 1), eq(items.resourceId, ref.resourceId)))
      .get();
    if (byResource) return byResource;
  }
  if (ref.id === undefined || !Number.isSafeInteger(ref.id)) return undefined;
  return db.select(itemColumns).from(items).where(and(eq(items.shopId, shopId), eq(items.id, ref.id))).get();
}

export type ImageRow = typeof images.$inferSelect;

/** One page of an item's images, in their position order, and the total. */
export async function listItemImages(db: Db, shopId: number, itemId: number, page: number, pageSize: number): Promise<{ rows: ImageRow[]; total: number }> {
  const where = and(eq(images.shopId, shopId), eq(images.itemId, itemId));
  const [rows, count] = await db.batch([
    db
      .select()
      .from(images)
      .where(where)
      .orderBy(asc(images.position), asc(images.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: sql<number>`count(*)` }).from(images).where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
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
export async function imageFileKey(db: Db, shopId: number, imageId: number, side: 'before' | 'after'): Promise<{ key: string; fileName: string; fileType: string } | null> {
  const row = await db
    .select({ before: images.originalKey, after: images.resultKey, fileName: images.fileName, fileType: images.fileType, expired: images.expired })
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
