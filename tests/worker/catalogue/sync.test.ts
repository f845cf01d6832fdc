import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { runFullSync, syncOneResource } from '../../../worker/catalogue/sync';
import { fileNameOfUrl, fileTypeOf } from '../../../worker/catalogue/map';
import { images, items } from '../../../worker/db/schema';
import { createLogger } from '../../../worker/lib/log';
import { call, createShop, db } from '../helpers';
import { FakeStore, media } from './fake-shopify';

const log = createLogger({ test: 'catalogue' });

async function itemsOf(shopId: number, dataType: number) {
  return db()
    .select()
    .from(items)
    .where(and(eq(items.shopId, shopId), eq(items.dataType, dataType)))
    .orderBy(asc(items.resourceId))
    .all();
}
async function imagesOf(shopId: number) {
  return db().select().from(images).where(eq(images.shopId, shopId)).orderBy(asc(images.imgId)).all();
}

function store() {
  const s = new FakeStore();
  s.products = [
    { id: 1, title: 'Red Shoe', vendor: 'Acme', productType: 'Shoes', price: '49.90', variant: 'Size 9', media: media(1, 2) },
    {
      id: 2,
      title: 'Draft Hat',
      published: false,
      media: media(2, 1, { mimeType: 'image/png', url: 'https://cdn.shopify.com/s/files/1/hat.png?v=2' }),
    },
    { id: 3, title: 'Big Gallery', media: media(3, 23) },
    { id: 4, title: 'Video only', media: media(4, 1, { type: 'VIDEO' }) },
  ];
  s.collections = [
    { id: 10, title: 'Summer', image: { url: 'https://cdn.shopify.com/s/files/1/summer.jpg', altText: 'sun' } },
    { id: 11, title: 'No picture' },
  ];
  s.articles = [
    {
      id: 20,
      title: 'How to lace',
      blog: { id: 5, title: 'News' },
      image: { url: 'https://cdn.shopify.com/s/files/1/lace.webp' },
    },
  ];
  return s;
}

describe('full catalogue sync (paged)', () => {
  it('syncs product, collection and article images with template fields and the published flag', async () => {
    const { shop, headers } = await createShop();
    const s = store();
    const result = await runFullSync({ db: db(), client: s.client(), shopId: shop.id, log });
    expect(result).toMatchObject({ images: 2 + 1 + 23 + 1 + 1, mode: 'paged' });

    const products = await itemsOf(shop.id, 1);
    expect(products.map((p) => [p.resourceId, p.title, p.published])).toEqual([
      ['1', 'Red Shoe', true],
      ['2', 'Draft Hat', false],
      ['3', 'Big Gallery', true],
      ['4', 'Video only', true],
    ]);
    expect(products[0]).toMatchObject({
      vendor: 'Acme',
      productType: 'Shoes',
      price: '49.90',
      variant: 'Size 9',
      deleted: false,
    });
    expect(products[1]).toMatchObject({ variant: '' }); // "Default Title" is no variant name

    const rows = await imagesOf(shop.id);
    const hat = rows.find((r) => r.imgId.startsWith('gid://shopify/MediaImage/2'));
    expect(hat).toMatchObject({ fileName: 'hat.png', fileType: 'png', originalSize: 1000, status: 'pending', width: 800 });
    // Products with more than a page of media are read again in full.
    expect(rows.filter((r) => r.imgId.startsWith('gid://shopify/MediaImage/3'))).toHaveLength(23);
    expect(s.calls.filter((c) => c.op === 'ProductWithMedia')).toHaveLength(1);

    const [summer] = await itemsOf(shop.id, 2);
    expect(summer).toMatchObject({ title: 'Summer', thumbnailUrl: 'https://cdn.shopify.com/s/files/1/summer.jpg' });
    expect(rows.find((r) => r.imgId === 'gid://shopify/Collection/10/image')).toMatchObject({ alt: 'sun', fileType: 'jpg' });
    const [article] = await itemsOf(shop.id, 3);
    expect(article).toMatchObject({ title: 'How to lace', blogId: '5', blogTitle: 'News' });
    expect(rows.find((r) => r.imgId === 'gid://shopify/Article/20/image')).toMatchObject({
      fileType: 'webp',
      itemId: article!.id,
    });

    const status = await (
      await call('/api/v1/getImageSyncStatus', { headers })
    ).json<{ code: string; data: { imageSync: boolean; imageCount: number } }>();
    expect(status).toMatchObject({ code: '200', data: { imageSync: true, imageCount: 28 } });
  });

  it('published-only scope: unpublished products are kept but left out of the manual list and the count', async () => {
    const { shop, headers } = await createShop();
    await runFullSync({ db: db(), client: store().client(), shopId: shop.id, log });
    const list = async () =>
      (
        await (
          await call('/api/v2/image-opt/getImageOptDataPage?page_type=1&data_type=1&pageSize=10', { headers })
        ).json<{ data: { data: { title: string }[] } }>()
      ).data.data
        .map((r) => r.title)
        .sort();
    expect(await list()).toEqual(['Big Gallery', 'Draft Hat', 'Red Shoe']);
    await call('/api/v2/image-opt/saveSettings', { method: 'POST', headers, json: { image_opt: { product: 2 } } });
    expect(await list()).toEqual(['Big Gallery', 'Red Shoe']);
    const total = async () =>
      (await (await call('/api/v2/image-opt/getImgOptTotal', { headers })).json<{ total: { un_opt_num: number } }>()).total
        .un_opt_num;
    expect(await total()).toBe(2 + 23 + 1 + 1); // the draft hat's image is out of scope
    await call('/api/v2/image-opt/saveSettings', { method: 'POST', headers, json: { image_opt: { product: 1, blogs: 0 } } });
    expect(await total()).toBe(2 + 1 + 23 + 1);
  });

  it('a second sync is idempotent, marks what disappeared as Deleted and keeps processed values', async () => {
    const { shop } = await createShop();
    const s = store();
    await runFullSync({ db: db(), client: s.client(), shopId: shop.id, log, now: () => 1_000 });
    const before = await imagesOf(shop.id);
    // The job optimised the first image of product 1 (size then reflects the original, kept).
    const first = before.find((r) => r.imgId === 'gid://shopify/MediaImage/1000')!;
    await db()
      .update(images)
      .set({ status: 'compressed', compressed: true, originalSize: 5000, optimisedSize: 2000 })
      .where(eq(images.id, first.id));

    s.products = s.products.filter((p) => p.id !== 2); // product deleted
    s.products[0]!.media = s.products[0]!.media.slice(0, 1); // one image removed
    s.products[0]!.media[0]!.fileSize = 2000; // Shopify now reports the optimised size
    s.collections = [];
    await runFullSync({ db: db(), client: s.client(), shopId: shop.id, log, now: () => 2_000 });

    const after = await imagesOf(shop.id);
    expect(after).toHaveLength(before.length);
    expect(after.find((r) => r.id === first.id)).toMatchObject({
      originalSize: 5000,
      optimisedSize: 2000,
      status: 'compressed',
      deleted: false,
    });
    expect(after.find((r) => r.imgId === 'gid://shopify/MediaImage/1001')?.deleted).toBe(true);
    expect(after.find((r) => r.imgId.startsWith('gid://shopify/MediaImage/2'))?.deleted).toBe(true);
    expect((await itemsOf(shop.id, 1)).find((p) => p.resourceId === '2')?.deleted).toBe(true);
    expect((await itemsOf(shop.id, 2)).every((c) => c.deleted)).toBe(true);
    expect((await itemsOf(shop.id, 3))[0]?.deleted).toBe(false);
  });

  it('a failed sync sweeps only the kinds it read completely and reports failed', async () => {
    const { shop } = await createShop();
    const s = store();
    await runFullSync({ db: db(), client: s.client(), shopId: shop.id, log, now: () => 1_000 });
    const client = s.client();
    const broken = {
      ...client,
      request: async <T>(q: string, v?: Record<string, unknown>) =>
        q.includes('CollectionsWithImage') ? Promise.reject(new Error('boom')) : client.request<T>(q, v),
    };
    s.products = [];
    await expect(runFullSync({ db: db(), client: broken, shopId: shop.id, log, now: () => 2_000 })).rejects.toThrow('boom');
    // Products were read completely (none left), so they are swept; collections were not.
    expect((await itemsOf(shop.id, 1)).every((p) => p.deleted)).toBe(true);
    expect((await itemsOf(shop.id, 2)).every((c) => !c.deleted)).toBe(true);
    const { getSyncStatus } = await import('../../../worker/db/catalogue-syncs');
    expect(await getSyncStatus(db(), shop.id)).toMatchObject({ status: 'failed', error: 'boom' });
  });
});

describe('webhook follow-ups', () => {
  it('refetches a changed product, adds new images, marks removed ones, and marks deleted products', async () => {
    const { shop } = await createShop();
    const s = store();
    await runFullSync({ db: db(), client: s.client(), shopId: shop.id, log, now: () => 1_000 });
    s.products[0]!.title = 'Red Shoe v2';
    s.products[0]!.media = [s.products[0]!.media[1]!, ...media(1, 3).slice(2)];
    const deps = { db: db(), client: s.client(), shopId: shop.id, log, now: () => 2_000 };
    expect(await syncOneResource(deps, 'product', 'gid://shopify/Product/1', '1')).toBe('updated');
    const rows = (await imagesOf(shop.id)).filter((r) => r.imgId.startsWith('gid://shopify/MediaImage/1'));
    expect(rows.map((r) => [r.imgId.slice(-3), r.deleted, r.position])).toEqual([
      ['000', true, 0],
      ['001', false, 0],
      ['002', false, 1],
    ]);
    expect((await itemsOf(shop.id, 1))[0]?.title).toBe('Red Shoe v2');

    s.products.shift();
    expect(await syncOneResource(deps, 'product', 'gid://shopify/Product/1', '1')).toBe('deleted');
    expect(
      (await imagesOf(shop.id)).filter((r) => r.imgId.startsWith('gid://shopify/MediaImage/1')).every((r) => r.deleted),
    ).toBe(true);
  });
});

describe('getImageSyncStatus', () => {
  it('queues a first sync, once, for a shop that never had one', async () => {
    const { shop, headers } = await createShop();
    const { getSyncStatus } = await import('../../../worker/db/catalogue-syncs');
    expect(await getSyncStatus(db(), shop.id)).toBeUndefined();
    const first = await (
      await call('/api/v1/getImageSyncStatus', { headers })
    ).json<{ code: string; data: Record<string, unknown> }>();
    expect(first).toEqual({ code: '200', msg: 'success', data: { imageSync: false, imageCount: 0, status: 'queued' } });
    expect(await getSyncStatus(db(), shop.id)).toMatchObject({ status: 'queued' });
    // Polling again does not queue another one (the row exists); the claim is single-use.
    const { claimFirstSync } = await import('../../../worker/db/catalogue-syncs');
    expect(await claimFirstSync(db(), shop.id)).toBe(false);
  });
});

describe('mapping helpers', () => {
  it('file names and types from CDN URLs and MIME types', () => {
    expect(fileNameOfUrl('https://cdn.shopify.com/s/files/1/0/files/red%20shoe.JPG?v=12#x')).toBe('red shoe.JPG');
    expect(fileTypeOf('https://x/y/a.jpeg?v=1')).toBe('jpg');
    expect(fileTypeOf('https://x/y/a', 'image/png')).toBe('png');
  });
});
