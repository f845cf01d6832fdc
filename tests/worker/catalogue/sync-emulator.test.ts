// The catalogue sync end to end: queue message -> consumer -> GraphQL against the store emulator -> D1.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { BULK_THRESHOLD } from '../../../worker/catalogue/sync';
import { catalogueSyncConsumer } from '../../../worker/catalogue/consumer';
import { beginSync, getSyncStatus, updateSyncProgress } from '../../../worker/db/catalogue-syncs';
import { PRODUCTS_WITH_MEDIA_BULK_QUERY } from '../../../worker/shopify';
import { images, items } from '../../../worker/db/schema';
import type { ShopRow } from '../../../worker/db/shops';
import { createEmulatorShop, type EmulatorShop } from '../emulator-client';
import { createShop, db } from '../helpers';
import { installedShopFor } from '../installed-shop';

const installed = installedShopFor;

async function deliver(body: unknown) {
  const batch = createMessageBatch('catalogue-sync', [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body }]);
  const ctx = createExecutionContext();
  await catalogueSyncConsumer(batch, env);
  return getQueueResult(batch, ctx);
}

const rowsOf = (shopId: number, dataType: number) =>
  db()
    .select()
    .from(items)
    .where(and(eq(items.shopId, shopId), eq(items.dataType, dataType)))
    .all();
const imagesOf = (shopId: number) => db().select().from(images).where(eq(images.shopId, shopId)).all();

describe('catalogue sync against the store emulator (dev store, paged)', () => {
  let emu: EmulatorShop;
  let shop: ShopRow;
  beforeAll(async () => {
    emu = await createEmulatorShop({ seed: 'dev', install: true });
    shop = await installed(emu);
  });

  it('the install-time sync message brings in every product, collection and article image', async () => {
    const result = await deliver({ type: 'sync', shopId: shop.id });
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toHaveLength(0);

    const [products, collections, articles] = await Promise.all([emu.products(), emu.collections(), emu.articles()]);
    const pRows = await rowsOf(shop.id, 1);
    expect(pRows).toHaveLength(products.length);
    for (const p of products) {
      const row = pRows.find((r) => `gid://shopify/Product/${r.resourceId}` === p.id);
      expect(row, p.title).toBeDefined();
      expect(row).toMatchObject({ title: p.title, vendor: p.vendor, published: !!p.published, deleted: false });
    }
    expect((await rowsOf(shop.id, 2)).map((r) => r.title).sort()).toEqual(collections.map((c) => c.title).sort());
    const aRows = await rowsOf(shop.id, 3);
    expect(aRows.map((r) => [r.title, r.published]).sort()).toEqual(articles.map((a) => [a.title, !!a.published]).sort());

    const expected =
      products.reduce((n, p) => n + p.media.length, 0) +
      collections.filter((c) => c.image).length +
      articles.filter((a) => a.image).length;
    const imgs = await imagesOf(shop.id);
    expect(imgs).toHaveLength(expected);
    const media = products.flatMap((p) => p.media);
    for (const m of media)
      expect(imgs.find((i) => i.imgId === m.id)).toMatchObject({
        originalSize: m.size,
        width: m.width,
        alt: m.alt,
        status: 'pending',
      });
    expect(await getSyncStatus(db(), shop.id)).toMatchObject({ status: 'done', imageCount: expected });
    expect((await emu.info()).stats.throttled).toBe(0);
  });

  it('products/* and collections/* webhook messages keep it current; deletions show as Deleted', async () => {
    const [first, second] = await emu.products();
    const changed = await emu.addProductImage(first!.id, { seed: 'rocket.jpg', alt: 'Another rocket' });
    const numeric = (gid: string) => gid.split('/').pop()!;
    await deliver({
      type: 'product_changed',
      shopId: shop.id,
      resourceId: numeric(first!.id),
      gid: first!.id,
      updatedAt: changed.updatedAt,
      webhookId: 'w1',
    });
    const newMedia = changed.media.at(-1)!;
    expect((await imagesOf(shop.id)).find((i) => i.imgId === newMedia.id)).toMatchObject({
      alt: 'Another rocket',
      deleted: false,
    });

    await emu.deleteProduct(second!.id);
    await deliver({
      type: 'product_deleted',
      shopId: shop.id,
      resourceId: numeric(second!.id),
      gid: second!.id,
      updatedAt: null,
      webhookId: 'w2',
    });
    const gone = (await rowsOf(shop.id, 1)).find((r) => r.resourceId === numeric(second!.id))!;
    expect(gone.deleted).toBe(true);
    expect((await imagesOf(shop.id)).filter((i) => i.itemId === gone.id).every((i) => i.deleted)).toBe(true);

    const [coll] = await emu.collections();
    await emu.updateCollection(coll!.id, { title: 'Renamed collection' });
    await deliver({
      type: 'collection_changed',
      shopId: shop.id,
      resourceId: numeric(coll!.id),
      gid: coll!.id,
      updatedAt: null,
      webhookId: 'w3',
    });
    expect((await rowsOf(shop.id, 2)).find((r) => r.resourceId === numeric(coll!.id))?.title).toBe('Renamed collection');
  });

  it('drops malformed messages and skips shops that are not installed', async () => {
    expect((await deliver({ type: 'nonsense' })).explicitAcks).toHaveLength(1);
    const { shop: gone } = await createShop({ uninstalledAt: Date.now() });
    expect((await deliver({ type: 'sync', shopId: gone.id })).explicitAcks).toHaveLength(1);
  });

  it('asks the queue to retry when Shopify fails, and records the failure', async () => {
    await emu.injectFault({ target: 'graphql', status: 400, times: 1 });
    try {
      const result = await deliver({ type: 'sync', shopId: shop.id });
      expect(result.retryMessages).toHaveLength(1);
      expect(await getSyncStatus(db(), shop.id)).toMatchObject({ status: 'failed' });
    } finally {
      await emu.clearFaults();
    }
  });
});

describe('catalogue sync of a large shop (bulk operation)', () => {
  it(`uses one bulk operation from ${BULK_THRESHOLD} products on and is never throttled`, async () => {
    const emu = await createEmulatorShop({
      seed: 'large',
      products: 600,
      imagesPerProduct: 4,
      install: true,
      settings: { bulkOperationMs: 50 },
    });
    const shop = await installed(emu);
    const result = await deliver({ type: 'sync', shopId: shop.id });
    expect(result.explicitAcks).toHaveLength(1);
    const status = await getSyncStatus(db(), shop.id);
    expect(status).toMatchObject({ status: 'done' });
    expect(status?.bulkOperationId).toMatch(/BulkOperation/);
    const [collections, articles] = await Promise.all([emu.collections(), emu.articles()]);
    expect(await rowsOf(shop.id, 1)).toHaveLength(600);
    expect(status?.imageCount).toBe(600 * 4 + collections.filter((c) => c.image).length + articles.filter((a) => a.image).length);
    const info = await emu.info();
    expect(info.stats.throttled).toBe(0);
  }, 120_000);
});

describe('catalogue sync resumes a bulk query of an earlier attempt', () => {
  it('waits for the still-running operation instead of failing with OPERATION_IN_PROGRESS', async () => {
    const emu = await createEmulatorShop({
      seed: 'large',
      products: 300,
      imagesPerProduct: 2,
      install: true,
      settings: { bulkOperationMs: 1500 },
    });
    const shop = await installed(emu);
    const started = await emu.graphql<{ bulkOperationRunQuery: { bulkOperation: { id: string } } }>(
      `mutation R($q: String!) { bulkOperationRunQuery(query: $q) { bulkOperation { id } userErrors { message } } }`,
      { q: PRODUCTS_WITH_MEDIA_BULK_QUERY },
    );
    const opId = started.body.data!.bulkOperationRunQuery.bulkOperation.id;
    // The earlier attempt had recorded its operation before it died.
    await beginSync(db(), shop.id, Date.now() - 60_000);
    await updateSyncProgress(db(), shop.id, { bulkOperationId: opId });

    const result = await deliver({ type: 'sync', shopId: shop.id });
    expect(result.explicitAcks).toHaveLength(1);
    expect(await getSyncStatus(db(), shop.id)).toMatchObject({ status: 'done', bulkOperationId: opId });
    expect(await rowsOf(shop.id, 1)).toHaveLength(300);
  }, 60_000);
});
