// Catalogue sync: the shop's product, collection and blog article images into the items and images
// tables. Small shops are read page by page; large ones through one bulk operation (a paginated read
// of 10,000 products would take hours at Shopify's 100 points/s restore rate).
import type { Db } from '../db/client';
import { beginSync, endSync, getSyncStatus, updateSyncProgress } from '../db/catalogue-syncs';
import {
  countLiveCatalogueImages,
  markItemDeleted,
  sweepItemImages,
  sweepUnseen,
  upsertCatalogue,
  type CatalogueImageInput,
  type CatalogueItemInput,
  type CatalogueType,
} from '../db/items-sync';
import type { Logger } from '../lib/log';
import {
  countProducts,
  getArticle,
  getArticlesPage,
  getBulkOperation,
  getCollection,
  getCollectionsPage,
  getProduct,
  getProductsPage,
  readJsonl,
  assembleBulkProducts,
  startBulkQuery,
  waitForBulkOperation,
  PRODUCTS_WITH_MEDIA_BULK_QUERY,
  type AdminClient,
  type ProductWithMedia,
} from '../shopify';
import { articleRows, collectionRows, productRows } from './map';

/** From this many products on, the bulk operation is used. */
export const BULK_THRESHOLD = 250;
// Page sizes keep each query well under Shopify's 1,000-point single-query limit:
// products(10) x media(20) costs ~700 points; collections/articles(100) ~300.
const PRODUCTS_PER_PAGE = 10;
const MEDIA_PER_PRODUCT = 20;
const MEDIA_FULL = 250;
const RESOURCES_PER_PAGE = 100;
/** Rows written per D1 round (the sync holds at most this many in memory between writes). */
const FLUSH_IMAGES = 2000;

export type SyncDeps = { db: Db; client: AdminClient; shopId: number; log: Logger; now?: () => number };

type Rows = { item: CatalogueItemInput; images: CatalogueImageInput[] };

/** Collects rows and writes them in chunks, reporting the running image count. */
class Writer {
  private items: CatalogueItemInput[] = [];
  private images: CatalogueImageInput[] = [];
  written = 0;
  /** Time spent writing to D1, to tell Shopify time from database time in the logs. */
  writeMs = 0;
  constructor(
    private deps: SyncDeps,
    private dataType: CatalogueType,
    private syncedAt: number,
    private base: number,
  ) {}
  async add(rows: Rows) {
    this.items.push(rows.item);
    this.images.push(...rows.images);
    if (this.images.length >= FLUSH_IMAGES || this.items.length >= FLUSH_IMAGES) await this.flush();
  }
  async flush() {
    if (this.items.length === 0) return;
    const t = Date.now();
    await upsertCatalogue(this.deps.db, this.deps.shopId, this.dataType, this.items, this.images, this.syncedAt);
    this.written += this.images.length;
    this.writeMs += Date.now() - t;
    this.items = [];
    this.images = [];
    await updateSyncProgress(this.deps.db, this.deps.shopId, { imageCount: this.base + this.written });
  }
}

/** A product page query returns the first 20 images; products with more are read again in full. */
async function complete(client: AdminClient, p: ProductWithMedia): Promise<ProductWithMedia> {
  if (p.media.length < MEDIA_PER_PRODUCT) return p;
  return (await getProduct(client, p.id, MEDIA_FULL)) ?? p;
}

async function syncProductsPaged(deps: SyncDeps, w: Writer): Promise<void> {
  let after: string | null = null;
  for (;;) {
    const page = await getProductsPage(deps.client, { first: PRODUCTS_PER_PAGE, after, mediaFirst: MEDIA_PER_PRODUCT });
    for (const p of page.items) await w.add(productRows(await complete(deps.client, p)));
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return;
    after = page.pageInfo.endCursor;
  }
}

/**
 * A bulk query of an earlier attempt that is still running (the consumer was retried or evicted) is
 * awaited instead of started again: Shopify allows one bulk query per app and shop at a time.
 */
async function resumableOperation(deps: SyncDeps, previousId: string | null): Promise<string | null> {
  if (!previousId) return null;
  const op = await getBulkOperation(deps.client, previousId);
  return op && (op.status === 'CREATED' || op.status === 'RUNNING') ? op.id : null;
}

async function syncProductsBulk(deps: SyncDeps, w: Writer, previousId: string | null): Promise<void> {
  const operationId =
    (await resumableOperation(deps, previousId)) ?? (await startBulkQuery(deps.client, PRODUCTS_WITH_MEDIA_BULK_QUERY));
  await updateSyncProgress(deps.db, deps.shopId, { bulkOperationId: operationId });
  const op = await waitForBulkOperation(deps.client, operationId, { timeoutMs: 12 * 60_000 });
  // Lines come parent first, children after; a product is complete when the next product starts.
  let current: Record<string, unknown>[] = [];
  const emit = async () => {
    for (const p of assembleBulkProducts(current)) await w.add(productRows(p));
    current = [];
  };
  for await (const line of readJsonl(op.url)) {
    if (!line.__parentId && current.length > 0) await emit();
    current.push(line);
  }
  await emit();
}

async function syncResources<T>(
  deps: SyncDeps,
  w: Writer,
  page: (after: string | null) => Promise<{ items: T[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }>,
  rows: (x: T) => Rows,
) {
  let after: string | null = null;
  for (;;) {
    const p = await page(after);
    for (const x of p.items) await w.add(rows(x));
    if (!p.pageInfo.hasNextPage || !p.pageInfo.endCursor) return;
    after = p.pageInfo.endCursor;
  }
}

/**
 * The full sync of one shop. Every kind is swept only after it was read completely, so a failure
 * half-way never marks anything deleted. Safe to run again: rows are upserted.
 */
export type SyncResult = {
  images: number;
  mode: 'paged' | 'bulk';
  ms: { products: number; collections: number; articles: number; d1Writes: number };
};

export async function runFullSync(deps: SyncDeps): Promise<SyncResult> {
  const now = deps.now ?? Date.now;
  const startedAt = now();
  const previousOperation = (await getSyncStatus(deps.db, deps.shopId))?.bulkOperationId ?? null;
  await beginSync(deps.db, deps.shopId, startedAt);
  try {
    const productCount = await countProducts(deps.client);
    const mode = productCount >= BULK_THRESHOLD ? 'bulk' : 'paged';
    deps.log.info('catalogue_sync_started', { products: productCount, mode });

    const products = new Writer(deps, 1, startedAt, 0);
    const t1 = now();
    await (mode === 'bulk' ? syncProductsBulk(deps, products, previousOperation) : syncProductsPaged(deps, products));
    await products.flush();
    await sweepUnseen(deps.db, deps.shopId, 1, startedAt);

    const t2 = now();
    const collections = new Writer(deps, 2, startedAt, products.written);
    await syncResources(
      deps,
      collections,
      (after) => getCollectionsPage(deps.client, { first: RESOURCES_PER_PAGE, after }),
      collectionRows,
    );
    await collections.flush();
    await sweepUnseen(deps.db, deps.shopId, 2, startedAt);

    const t3 = now();
    const articles = new Writer(deps, 3, startedAt, products.written + collections.written);
    await syncResources(
      deps,
      articles,
      (after) => getArticlesPage(deps.client, { first: RESOURCES_PER_PAGE, after }),
      articleRows,
    );
    await articles.flush();
    await sweepUnseen(deps.db, deps.shopId, 3, startedAt);

    const t4 = now();
    const total = await countLiveCatalogueImages(deps.db, deps.shopId);
    await endSync(deps.db, deps.shopId, { status: 'done', imageCount: total });
    const ms = {
      products: t2 - t1,
      collections: t3 - t2,
      articles: t4 - t3,
      d1Writes: products.writeMs + collections.writeMs + articles.writeMs,
    };
    deps.log.info('catalogue_sync_done', { images: total, mode, totalMs: now() - startedAt, ...ms });
    return { images: total, mode, ms };
  } catch (err) {
    await endSync(deps.db, deps.shopId, { status: 'failed', error: (err as Error).message.slice(0, 500) });
    throw err;
  }
}

/** Webhook follow-up: refetch one product or collection and bring its rows up to date. */
export async function syncOneResource(
  deps: SyncDeps,
  kind: 'product' | 'collection' | 'article',
  gid: string,
  resourceId: string,
): Promise<'updated' | 'deleted'> {
  const syncedAt = (deps.now ?? Date.now)();
  const dataType: CatalogueType = kind === 'product' ? 1 : kind === 'collection' ? 2 : 3;
  let rows: Rows | null;
  if (kind === 'product') {
    const p = await getProduct(deps.client, gid, MEDIA_FULL);
    rows = p ? productRows(p) : null;
  } else if (kind === 'collection') {
    const c = await getCollection(deps.client, gid);
    rows = c ? collectionRows(c) : null;
  } else {
    const a = await getArticle(deps.client, gid);
    rows = a ? articleRows(a) : null;
  }
  if (!rows) {
    await markItemDeleted(deps.db, deps.shopId, dataType, resourceId);
    return 'deleted';
  }
  await upsertCatalogue(deps.db, deps.shopId, dataType, [rows.item], rows.images, syncedAt);
  await sweepItemImages(deps.db, deps.shopId, dataType, rows.item.resourceId, syncedAt);
  return 'updated';
}
