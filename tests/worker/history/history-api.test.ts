import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { r2Key } from '../../../worker/lib/r2-keys';
import { call, createShop, db } from '../helpers';
import { saveImageSettings } from '../../../worker/db/image-settings';
import { defaultImageSettings } from '../../../shared/image-settings';
import { compressed, seedItem } from './seed';

type Page = { ack: number; data: { data: Record<string, unknown>[]; current_page: number; per_page: number; total: number } };

async function page(headers: Record<string, string>, q: Record<string, string | number>) {
  const qs = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]));
  const res = await call(`/api/v2/image-opt/getImageOptDataPage?${qs}`, { headers });
  return { status: res.status, body: await res.json<Page>() };
}

describe('getImageOptDataPage', () => {
  it('pages the history newest first with the documented row fields and envelope', async () => {
    const { shop, headers } = await createShop();
    for (let i = 1; i <= 12; i++) {
      await seedItem(
        shop.id,
        { dataType: 1, resourceId: String(1000 + i), title: `Shoe ${i}`, optStatus: 2, optimisedAt: 1_000_000 + i },
        [compressed(1000, 600)],
      );
    }
    await seedItem(shop.id, { dataType: 1, resourceId: '2000', title: 'Never optimised' }, [
      { status: 'pending', originalSize: 500 },
    ]);
    await seedItem(shop.id, { dataType: 2, resourceId: '3000', title: 'Collection', optStatus: 2 }, [compressed(100, 50)]);

    const p1 = await page(headers, { page: 1, pageSize: 5, data_type: 1, page_type: 0 });
    expect(p1.body.ack).toBe(1);
    expect(p1.body.data).toMatchObject({ current_page: 1, per_page: 5, total: 12 });
    expect(p1.body.data.data.map((r) => r.title)).toEqual(['Shoe 12', 'Shoe 11', 'Shoe 10', 'Shoe 9', 'Shoe 8']);
    const row = p1.body.data.data[0]!;
    for (const f of [
      'id',
      'prod_id',
      'coll_id',
      'art_id',
      'blog_id',
      'title',
      'image',
      'is_delete',
      'opt_status',
      'status',
      'comp_ratio',
    ])
      expect(row).toHaveProperty(f);
    expect(row).toMatchObject({ prod_id: '1012', coll_id: '', comp_ratio: 40, status: 'finished', image_count: 1 });
    expect([row.is_delete, row.is_published]).toEqual([0, 1]); // documented 0/1 numbers, not booleans

    const p3 = await page(headers, { page: 3, pageSize: 5, data_type: 1, page_type: 0 });
    expect(p3.body.data.data.map((r) => r.title)).toEqual(['Shoe 2', 'Shoe 1']);

    const colls = await page(headers, { data_type: 2, page_type: 0 });
    expect(colls.body.data).toMatchObject({ per_page: 10, total: 1 });
    expect(colls.body.data.data[0]).toMatchObject({ coll_id: '3000', prod_id: '' });
  });

  it('answers the catalogue statuses: finished, and monitor while automatic mode watches the item', async () => {
    const { shop, headers } = await createShop();
    await seedItem(shop.id, { dataType: 1, resourceId: '1', title: 'Shoe', optStatus: 2, optimisedAt: 1 }, [
      compressed(1000, 600),
    ]);
    const statusNow = async () => (await page(headers, { data_type: 1, page_type: 0 })).body.data.data[0]!.status;
    expect(await statusNow()).toBe('finished');
    await saveImageSettings(db(), shop.id, { ...defaultImageSettings(), is_default: 0, auto_switch: 1 });
    expect(await statusNow()).toBe('monitor');
  });

  it('a failed image shows in the history row with its reason (decisions.md: Failed with its reason shown in history and detail)', async () => {
    const { shop, headers } = await createShop();
    const notRestored = 'This image was changed in Shopify after it was optimized, so it was not restored.';
    await seedItem(shop.id, { dataType: 1, resourceId: '1', title: 'Failed restore', optStatus: 2, optimisedAt: 2 }, [
      compressed(1000, 600),
      compressed(1000, 600, { status: 'failed', failReason: notRestored }),
      { status: 'failed', failReason: 'ShopifyHttpError: Shopify answered 503', deleted: true },
    ]);
    await seedItem(shop.id, { dataType: 1, resourceId: '2', title: 'All fine', optStatus: 2, optimisedAt: 1 }, [
      compressed(1000, 600),
    ]);
    const rows = (await page(headers, { data_type: 1, page_type: 0 })).body.data.data;
    // The deleted image's failure no longer counts: only what the merchant can still act on.
    expect(rows.find((r) => r.title === 'Failed restore')).toMatchObject({
      fail_num: 1,
      fail_reason: { message_key: 'server.optimise.changedNotRestored', params: {} },
    });
    expect(rows.find((r) => r.title === 'All fine')).toMatchObject({ fail_num: 0, fail_reason: null });
  });

  it('searches titles (LIKE wildcards are literal) and lists manual candidates', async () => {
    const { shop, headers } = await createShop();
    await seedItem(shop.id, { dataType: 1, resourceId: '1', title: 'Red 100% cotton shirt', optStatus: 2 }, [
      { status: 'pending' },
      compressed(10, 5),
    ]);
    await seedItem(shop.id, { dataType: 1, resourceId: '2', title: 'Blue shirt' }, [{ status: 'pending' }]);
    await seedItem(shop.id, { dataType: 1, resourceId: '3', title: 'Red hat', published: false }, [{ status: 'pending' }]);
    await seedItem(shop.id, { dataType: 1, resourceId: '4', title: 'Done shirt', optStatus: 2 }, [compressed(10, 5)]);
    await seedItem(shop.id, { dataType: 1, resourceId: '5', title: 'Deleted shirt', deleted: true }, [{ status: 'pending' }]);
    await seedItem(shop.id, { dataType: 1, resourceId: '6', title: 'Expired shirt' }, [{ status: 'pending', expired: true }]);
    // Only failed: opt_status stays 0 (jobs' refreshItemSummary), yet it is in the history and can be retried.
    await seedItem(shop.id, { dataType: 1, resourceId: '7', title: 'Failed shirt' }, [{ status: 'failed' }]);

    const manual = await page(headers, { page_type: 1, data_type: 1 });
    expect(manual.body.data.data.map((r) => r.title).sort()).toEqual([
      'Blue shirt',
      'Failed shirt',
      'Red 100% cotton shirt',
      'Red hat',
    ]);
    expect(manual.body.data.total).toBe(4);
    expect(manual.body.data.data.find((r) => r.title === 'Blue shirt')).toMatchObject({ un_opt_num: 1 });

    expect((await page(headers, { page_type: 1, data_type: 1, title: 'red' })).body.data.total).toBe(2);
    expect((await page(headers, { page_type: 1, data_type: 1, title: '100%' })).body.data.total).toBe(1);
    expect((await page(headers, { page_type: 1, data_type: 1, title: '%' })).body.data.total).toBe(1);
    expect((await page(headers, { page_type: 1, data_type: 1, title: '_' })).body.data.total).toBe(0);

    // Published-only scope hides unpublished products from the manual list.
    await call('/api/v2/image-opt/saveSettings', { method: 'POST', headers, json: { image_opt: { product: 2 } } });
    expect((await page(headers, { page_type: 1, data_type: 1 })).body.data.data.map((r) => r.title).sort()).toEqual([
      'Blue shirt',
      'Failed shirt',
      'Red 100% cotton shirt',
    ]);

    // History: items with opt_status, or whose images only failed.
    const history = await page(headers, { page_type: 0, data_type: 1 });
    expect(history.body.data.data.map((r) => r.title).sort()).toEqual(['Done shirt', 'Failed shirt', 'Red 100% cotton shirt']);
    expect(history.body.data.total).toBe(3);
  });

  it('answers a full page of 100 rows (one JSON parameter, not one per id: D1 allows 100)', async () => {
    const { shop, headers } = await createShop();
    const { images: imageTable, items: itemTable } = await import('../../../worker/db/schema');
    const { db } = await import('../helpers');
    const rows = Array.from({ length: 101 }, (_, i) => ({
      shopId: shop.id,
      dataType: 1,
      resourceId: String(i),
      title: `P${i}`,
      optStatus: 2,
      optimisedAt: i,
    }));
    for (let i = 0; i < rows.length; i += 4)
      await db()
        .insert(itemTable)
        .values(rows.slice(i, i + 4));
    const ids = await db().select({ id: itemTable.id }).from(itemTable).all();
    for (const { id } of ids.filter((_, i) => i % 10 === 0))
      await db()
        .insert(imageTable)
        .values({
          shopId: shop.id,
          itemId: id,
          imgId: `img-${id}`,
          status: 'compressed',
          compressed: true,
          originalSize: 100,
          optimisedSize: 50,
        });
    const res = await page(headers, { page: 1, pageSize: 100, data_type: 1 });
    expect(res.status).toBe(200);
    expect(res.body.data.data).toHaveLength(100);
    expect(res.body.data.total).toBe(101);
    expect(res.body.data.data.filter((r) => r.comp_ratio === 50)).toHaveLength(10);
  });

  it('validates page sizes and types', async () => {
    const { headers } = await createShop();
    for (const pageSize of [5, 10, 30, 50, 70, 100]) expect((await page(headers, { pageSize })).status).toBe(200);
    expect((await page(headers, { pageSize: 20 })).status).toBe(400);
    expect((await page(headers, { data_type: 5 })).status).toBe(400);
    expect((await page(headers, { page_type: 2 })).status).toBe(400);
  });

  it('never shows another shop’s rows', async () => {
    const a = await createShop();
    const b = await createShop();
    await seedItem(a.shop.id, { dataType: 1, resourceId: '77', optStatus: 2 }, [compressed(10, 5)]);
    expect((await page(b.headers, { data_type: 1 })).body.data.total).toBe(0);
    expect((await call('/api/v2/image-opt/getProductImagesData?prod_id=77', { headers: b.headers })).status).toBe(404);
  });
});

describe('getProductImagesData', () => {
  it('answers every image field with its status and actions, and signed https links', async () => {
    const { shop, headers } = await createShop();
    const before = r2Key('originals', shop.id, 'a.jpg');
    const after = r2Key('results', shop.id, 'a.jpg');
    await env.BUCKET.put(before, new Uint8Array([1, 2, 3]));
    await env.BUCKET.put(after, new Uint8Array([9]));
    const { id } = await seedItem(shop.id, { dataType: 1, resourceId: '555', optStatus: 2 }, [
      compressed(1000, 250, { originalKey: before, resultKey: after, altEdited: true, fileName: 'shoe.jpg', fileType: 'jpg' }),
      compressed(1000, 500, { restored: true, status: 'restored' }),
      compressed(1000, 500, { expired: true, originalKey: before }),
      { status: 'pending', deleted: true },
      { status: 'pending' },
    ]);
    const res = await call('/api/v2/image-opt/getProductImagesData?prod_id=555&page=1&pageSize=10', { headers });
    const body = await res.json<Page>();
    expect(body.ack).toBe(1);
    expect(body.data).toMatchObject({ total: 5, current_page: 1, per_page: 10 });
    const rows = body.data.data;
    const fields = [
      'id',
      'img_id',
      'opt_id',
      'src',
      'alt',
      'file_name',
      'file_type',
      'img_size',
      'comp_size',
      'comp_ratio',
      'before_file_path',
      'after_file_path',
      'is_compress',
      'is_to_jpg',
      'is_edit_alt',
      'is_edit_name',
      'is_watermark',
      'is_restore',
      'is_overdue',
      'is_delete',
      'status',
    ];
    for (const f of fields) expect(rows[0]).toHaveProperty(f);
    expect(rows.map((r) => r.status)).toEqual(['Compressed', 'Restored', 'Expired', 'Deleted', 'Not Compressed']);
    // The flags go out as the documented 0/1 numbers (booleans inside the Worker).
    expect(rows.map((r) => [r.is_compress, r.is_edit_alt, r.is_restore, r.is_overdue, r.is_delete, r.is_download])).toEqual([
      [1, 1, 0, 0, 0, 0],
      [1, 0, 1, 0, 0, 0],
      [1, 0, 0, 1, 0, 0],
      [0, 0, 0, 0, 1, 0],
      [0, 0, 0, 0, 0, 0],
    ]);
    expect(rows[0]).toMatchObject({
      opt_id: id,
      comp_ratio: 75,
      can_view: true,
      can_restore: true,
      can_download: true,
      tags: ['Alt text'],
    });
    expect(rows[1]).toMatchObject({ can_view: false, can_restore: false });
    expect(rows[2]).toMatchObject({ disabled: true, can_restore: false, before_file_path: '' });
    expect(rows[3]).toMatchObject({ disabled: true });

    const link = String(rows[0]!.before_file_path);
    expect(link).toMatch(/^https:\/\/app\.test\/files\//);
    const file = await call(link.replace('https://app.test', '') + '&download=1');
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    expect(file.headers.get('Content-Disposition')).toBe('attachment; filename="shoe-before.jpg"');
    // Tampered or foreign links are refused.
    expect((await call(link.replace('https://app.test', '').replace(/sig=./, 'sig=x'))).status).toBe(403);
    expect((await call(link.replace('https://app.test', '').replace('/before?', '/after?'))).status).toBe(403);

    const paged = await (
      await call('/api/v2/image-opt/getProductImagesData?prod_id=555&page=2&pageSize=5', { headers })
    ).json<Page>();
    expect(paged.data.data).toHaveLength(0);
    expect(paged.data.total).toBe(5);
  });

  it('expired links are refused', async () => {
    const { verifyFileLink, signedFileUrl } = await import('../../../worker/files/download-links');
    const url = new URL(await signedFileUrl(env, 1, 2, 'after', 0));
    const exp = Number(url.searchParams.get('exp'));
    const sig = url.searchParams.get('sig')!;
    expect(await verifyFileLink(env.SHOPIFY_API_SECRET, 1, 2, 'after', exp, sig, exp - 1)).toBe(true);
    expect(await verifyFileLink(env.SHOPIFY_API_SECRET, 1, 2, 'after', exp, sig, exp + 1)).toBe(false);
    expect(await verifyFileLink(env.SHOPIFY_API_SECRET, 3, 2, 'after', exp, sig, exp - 1)).toBe(false);
  });
});

describe('getProductImagesData by the item id a details link carries', () => {
  const read = (headers: Record<string, string>, query: string) =>
    call(`/api/v2/image-opt/getProductImagesData?${query}`, { headers });
  const NOT_FOUND = {
    ack: 0,
    message: "This item is not in this store's optimization history.",
    message_key: 'server.optimise.itemNotFound',
    params: {},
  };

  it('answers the shop its own item (title, type, images) by the id of its history row', async () => {
    const { shop, headers } = await createShop();
    await seedItem(shop.id, { dataType: 1, resourceId: '4001', title: 'Other hat', optStatus: 2 }, [compressed(10, 5)]);
    const { id } = await seedItem(shop.id, { dataType: 2, resourceId: '4002', title: 'Summer collection', optStatus: 2 }, [
      compressed(1000, 400),
      compressed(2000, 900),
    ]);
    const res = await read(headers, `prod_id=${id}&page=1&pageSize=10`);
    expect(res.status).toBe(200);
    const body = await res.json<{ ack: number; data: { total: number; item: Record<string, unknown> } }>();
    expect(body.ack).toBe(1);
    expect(body.data.total).toBe(2);
    expect(body.data.item).toMatchObject({ id, data_type: 2, title: 'Summer collection' });
  });

  it("another shop's item id (a forged or shared link) is a 404 with nothing of that shop, as an unknown id", async () => {
    const a = await createShop();
    const b = await createShop();
    const { id } = await seedItem(a.shop.id, { dataType: 1, resourceId: '4101', title: 'Secret launch hat', optStatus: 2 }, [
      compressed(1000, 400, { fileName: 'secret.jpg' }),
    ]);
    const other = await read(b.headers, `prod_id=${id}&page=1&pageSize=10`);
    expect(other.status).toBe(404);
    const text = await other.text();
    expect(JSON.parse(text)).toEqual(NOT_FOUND);
    expect(text).not.toMatch(/Secret|secret\.jpg|4101/);
    // An id nobody has, and forms of the number that are not an id: the same answer.
    for (const forged of [String(id + 100_000), '0', '-1', `${id}.0`, `${id}e0`, `0x${id.toString(16)}`, 'abc'])
      expect(await (await read(b.headers, `prod_id=${encodeURIComponent(forged)}`)).json(), forged).toEqual(NOT_FOUND);
    // The owner still reads it.
    expect((await read(a.headers, `prod_id=${id}`)).status).toBe(200);
  });

  it('refuses bad input with the documented message and changes nothing', async () => {
    const { shop, headers } = await createShop();
    const { id } = await seedItem(shop.id, { dataType: 1, resourceId: '4201', title: 'Boots', optStatus: 2 }, [
      compressed(1000, 400),
    ]);
    type Read = { data: { item: unknown; total: number; data: { id: number; status: string; comp_size: number }[] } };
    const state = async () => {
      const { data } = await (await read(headers, `prod_id=${id}`)).json<Read>();
      return { item: data.item, total: data.total, rows: data.data.map((r) => [r.id, r.status, r.comp_size]) };
    };
    const before = await state();
    const bad: [string, string][] = [
      ['', 'server.common.invalidValueFor'],
      [`prod_id=${'9'.repeat(65)}`, 'server.common.invalidValueFor'],
      [`prod_id=${id}&pageSize=7`, 'server.common.pageSizeOneOf'],
      [`prod_id=${id}&page=0`, 'server.common.invalidValueFor'],
      [`prod_id=${id}&data_type=9`, 'server.common.invalidValueFor'],
    ];
    for (const [query, key] of bad) {
      const res = await read(headers, query);
      expect(res.status, query).toBe(400);
      expect((await res.json<{ ack: number; message_key: string }>()).message_key, query).toBe(key);
    }
    const unauthenticated = await call(`/api/v2/image-opt/getProductImagesData?prod_id=${id}`);
    expect(unauthenticated.status).toBe(401);
    expect(await state()).toEqual(before);
  });
});

describe('getImgOptTotal and updateIsDownload', () => {
  it('computes the statistics from the rows of a known dataset', async () => {
    const { shop, headers } = await createShop();
    const { id } = await seedItem(shop.id, { dataType: 1, resourceId: '1', optStatus: 2 }, [
      compressed(1000, 400),
      compressed(3000, 1000),
      compressed(500, 100, { restored: true }),
    ]);
    await seedItem(shop.id, { dataType: 3, resourceId: '2' }, [
      { status: 'pending' },
      { status: 'failed' },
      { status: 'pending', deleted: true },
      { status: 'pending', expired: true },
      { status: 'optimal' },
    ]);
    const other = await createShop();
    await seedItem(other.shop.id, { dataType: 1, resourceId: '1' }, [compressed(99999, 1), { status: 'pending' }]);

    const body = await (await call('/api/v2/image-opt/getImgOptTotal', { headers })).json<Record<string, unknown>>();
    expect(body.ack).toBe(1);
    expect(body.total).toEqual({
      total_saved_size: 2600,
      avg_saved_space: 1300,
      avg_saved_percent: 65,
      total_original_size: 4000,
      total_compress_size: 1400,
      total_opt_num: 2,
      un_opt_num: 2,
    });
    expect(body.opt_schedule).toEqual({
      img_usage_use: 0,
      img_usage_all: 150,
      impressions_use: 0,
      impressions_all: 0,
      is_capped: 0,
      is_over_quota: 0,
      next_reset_at: expect.any(Number),
    });
    // The next monthly reset is ahead, within a month (issue 15: shown on the statistics card).
    const reset = (body.opt_schedule as { next_reset_at: number }).next_reset_at;
    expect(reset).toBeGreaterThan(Date.now());
    expect(reset - Date.now()).toBeLessThanOrEqual(32 * 86_400_000);
    expect(body.settings).toMatchObject({ is_default: 1 });

    const dl = await call('/api/v2/image-opt/updateIsDownload', { method: 'POST', headers, form: { opt_id: String(id) } });
    expect((await dl.json<{ ack: number }>()).ack).toBe(1);
    expect(
      (await call('/api/v2/image-opt/updateIsDownload', { method: 'POST', headers: other.headers, form: { opt_id: String(id) } }))
        .status,
    ).toBe(404);
  });
});
