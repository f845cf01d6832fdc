// The items table (history rows: one per product, collection, article or upload batch). History pages,
// per-item figures and the item summary are computed from the item and image rows, never from stored
// counters that could drift.
import { and, desc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from './client';
import { images, items, jobImages, jobs } from './schema';
import { CANDIDATE_STATUSES } from './images';

export type ItemRow = typeof items.$inferSelect;

/**
 * The jobs keep items.opt_status current (refreshItemSummary: 1 running, 2 optimised, 3 restored);
 * an item whose images only failed or were skipped keeps opt_status 0 but belongs in the history too.
 */
export const HISTORY_ONLY_STATUSES = ['failed', 'skipped'] as const;

export type HistoryQuery = {
  shopId: number;
  dataType: number;
  pageType: 0 | 1;
  title: string;
  page: number;
  pageSize: number;
  publishedOnly: boolean;
};

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

export type ItemImageFigures = {
  itemId: number;
  imageCount: number;
  optNum: number;
  unOptNum: number;
  originalSize: number;
  optimisedSize: number;
  /** The item's first image, and which of its files can show it (an upload has no Shopify URL). */
  firstImageId: number;
  firstImageSide: 'after' | 'before' | null;
  /** Images of the item that failed and are not deleted, and the reason of the newest of them (stored English). */
  failNum: number;
  failReason: string | null;
};

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
  // An item whose picture changed in Shopify after we optimised it stays in the history (its image's note
  // says what happened), although nothing of it is optimised now.
  const noted =
    form === 'page'
      ? sql`EXISTS (SELECT 1 FROM ${images} WHERE ${images.shopId} = ${q.shopId} AND ${images.itemId} = ${items.id} AND ${images.noteKey} IS NOT NULL)`
      : sql`${items.id} IN (SELECT ${images.itemId} FROM ${images} WHERE ${images.shopId} = ${q.shopId} AND ${images.noteKey} IS NOT NULL)`;
  conds.push(q.pageType === 0 ? or(ne(items.optStatus, 0), matching, noted) : matching);
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
    db
      .select({ n: sql<number>`count(*)` })
      .from(items)
      .where(historyWhere(q, 'count')),
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
      firstImageId: sql<number>`min(${images.id})`,
      // SQLite's bare column of min(): these two come from the row with the smallest id.
      firstResultKey: images.resultKey,
      firstOriginalKey: sql<string | null>`CASE WHEN ${images.expired} = 0 THEN ${images.originalKey} END`,
      failNum: sql<number>`sum(CASE WHEN ${images.status} = 'failed' AND ${images.deleted} = 0 THEN 1 ELSE 0 END)`,
      // A subquery, not max(): a second min/max would make the bare columns above come from any row. The
      // outer row is named in full (drizzle writes its columns unqualified, which here would mean `f`).
      failReason: sql<
        string | null
      >`(SELECT f.fail_reason FROM images f WHERE f.shop_id = "images"."shop_id" AND f.opt_id = "images"."opt_id" AND f.status = 'failed' AND f.is_delete = 0 ORDER BY f.id DESC LIMIT 1)`,
    })
    .from(images)
    // One JSON parameter instead of one per id: D1 allows at most 100 bound parameters per statement.
    .where(and(eq(images.shopId, shopId), sql`${images.itemId} IN (SELECT value FROM json_each(${JSON.stringify(itemIds)}))`))
    .groupBy(images.itemId);
  for (const { firstResultKey, firstOriginalKey, ...r } of rows)
    out.set(r.itemId, { ...r, firstImageSide: firstResultKey ? 'after' : firstOriginalKey ? 'before' : null });
  return out;
}

/** The history row of one item: by Shopify id of the given type, else by row id. Scoped to the shop. */
export async function findItem(
  db: Db,
  shopId: number,
  ref: { resourceId?: string; dataType?: number; id?: number },
): Promise<HistoryItemRow | undefined> {
  if (ref.resourceId !== undefined) {
    const byResource = await db
      .select(itemColumns)
      .from(items)
      .where(and(eq(items.shopId, shopId), eq(items.dataType, ref.dataType ?? 1), eq(items.resourceId, ref.resourceId)))
      .get();
    if (byResource) return byResource;
  }
  if (ref.id === undefined || !Number.isSafeInteger(ref.id)) return undefined;
  return db
    .select(itemColumns)
    .from(items)
    .where(and(eq(items.shopId, shopId), eq(items.id, ref.id)))
    .get();
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
    .set({
      optStatus,
      status,
      savedPercent: compRatio,
      optimisedAt: agg.lastAt ?? null,
      updatedAt: Date.now(),
      ...(pattern ? { pattern } : {}),
    })
    .where(and(eq(items.shopId, shopId), eq(items.id, itemId)));
}

/**
 * The first item of a type still on the store (the lowest row id: the first the catalogue sync saw), with
 * the file name its first image had from the merchant: the sample of the template live preview.
 */
export async function firstLiveItem(
  db: Db,
  shopId: number,
  dataType: number,
): Promise<{ item: ItemRow; fileName: string } | undefined> {
  const item = await db
    .select()
    .from(items)
    .where(and(eq(items.shopId, shopId), eq(items.dataType, dataType), eq(items.deleted, false)))
    .orderBy(items.id)
    .limit(1)
    .get();
  if (!item) return undefined;
  const image = await db
    .select({ fileName: images.fileName, originalFileName: images.originalFileName })
    .from(images)
    .where(and(eq(images.shopId, shopId), eq(images.itemId, item.id)))
    .orderBy(images.position, images.id)
    .limit(1)
    .get();
  return { item, fileName: image?.originalFileName ?? image?.fileName ?? '' };
}
