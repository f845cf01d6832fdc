// The /api/v2/image-opt calls through the Worker, as the admin sends them. Uploads run end to end: the
// real queue delivers to the real consumer, which runs the real codec engine on a real photograph.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { listItemImages, updateImage } from '../../../worker/db/images';
import { toBase64 } from '../../../worker/lib/crypto';
import { sweepExpired } from '../../../worker/optimise/expiry';
import { createLogger } from '../../../worker/lib/log';
import { fixture } from '../images/fixtures';
import { call, createShop, db } from '../helpers';
import { imageRow, makeDeps, r2Bytes, saveSettings, seedItem } from './fixtures';

type Ack = { ack: number; message: string; data?: Record<string, unknown> };

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('uploadImagesOpt', { timeout: 60_000 }, () => {
  it('optimises uploaded JPEG and PNG files, lists them in the Other tab and keeps results for download', async () => {
    const { shop, headers } = await createShop();
    await saveSettings(shop.id);
    const jpg = fixture('rocket-baseline.jpg');
    const png = fixture('chelsea-rgb.png');
    const file_list = [
      { name: 'rocket.jpg', data: toBase64(jpg), type: 'image/jpeg' },
      { name: 'chelsea.png', data: `data:image/png;base64,${toBase64(png)}`, type: 'image/png' },
      { name: 'anim.gif', data: 'R0lGODlhAQABAAAAACw=', type: 'image/gif' },
    ];
    const res = await call('/api/v2/image-opt/uploadImagesOpt', {
      method: 'POST',
      headers,
      json: { file_list, opt_cfg: { pngtojpg: 1, is_watermark: 0 } },
    });
    const body = await res.json<Ack>();
    expect(body.ack).toBe(1);
    expect(body.message).toBe(
      "The following images couldn't be uploaded: anim.gif is not supported. File type must be .jpg, .png.",
    );
    expect(body.data).toMatchObject({ accepted: ['rocket.jpg', 'chelsea.png'], rejected: [{ name: 'anim.gif' }] });

    const schedule = await waitFor(
      async () => (await (await call('/api/v2/image-opt/getOptSchedule?data_type=4', { headers })).json<Ack>()).data!,
      (d) => d.process_result === 1,
    );
    expect(schedule).toMatchObject({ process_type: 'upload', process_result: 1, opt_in: 0, opt_total: 2 });
    const rows = [];
    for (const { data_id } of schedule.list as { data_id: number }[])
      rows.push(...(await listItemImages(db(), shop.id, data_id)));
    const rocket = rows.find((r) => r.fileName === 'rocket.jpg')!;
    expect(rocket).toMatchObject({ status: 'compressed', compressed: true, convertedToJpg: false });
    expect(rocket.optimisedSize).toBeLessThan(jpg.byteLength);
    expect(await r2Bytes(rocket.originalKey)).toEqual(jpg);
    expect((await r2Bytes(rocket.resultKey))!.byteLength).toBe(rocket.optimisedSize);
    expect(rocket.originalKey).toMatch(new RegExp(`^uploads/${shop.id}/`));
    // The restore date is the day R2's lifecycle rule deletes the upload: 30 days from its write.
    const stored = await env.BUCKET.head(rocket.originalKey!);
    expect(rocket.expiresAt).toBe(Number(stored!.customMetadata!.storedAt) + 30 * 24 * 3600 * 1000);
    // opt_cfg.pngtojpg: the PNG photo became a (smaller) JPEG.
    const chelsea = rows.find((r) => r.fileName === 'chelsea.png')!;
    expect(chelsea).toMatchObject({ status: 'compressed', convertedToJpg: true });
    const out = (await r2Bytes(chelsea.resultKey))!;
    expect([out[0], out[1]]).toEqual([0xff, 0xd8]);
    expect(chelsea.resultKey).toMatch(/\.jpg$/);

    // The Other tab shows a thumbnail like the other tabs: a signed link to the upload's result.
    const history = await (
      await call('/api/v2/image-opt/getImageOptDataPage?data_type=4&page=1&pageSize=10', { headers })
    ).json<Ack>();
    const listed = (history.data as { data: { title: string; image: string }[] }).data;
    expect(listed.map((r) => r.title).sort()).toEqual(['chelsea.png', 'rocket.jpg']);
    for (const r of listed) {
      const row = r.title === 'chelsea.png' ? chelsea : rocket;
      expect(r.image).toContain(`/files/${shop.id}/${row.id}/after?exp=`);
      const thumb = await call(new URL(r.image).pathname + new URL(r.image).search);
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('Content-Type')).toBe('image/jpeg');
      expect(new Uint8Array(await thumb.arrayBuffer()).byteLength).toBe(row.optimisedSize);
    }
  });

  it('answers the documented messages for no files, only unsupported files, and files over the limit', async () => {
    const { shop, headers } = await createShop();
    await saveSettings(shop.id);
    const post = async (json: unknown) =>
      (await call('/api/v2/image-opt/uploadImagesOpt', { method: 'POST', headers, json })).json<Promise<Ack>>();
    expect(await post({ file_list: [], opt_cfg: { pngtojpg: 0, is_watermark: 0 } })).toEqual({
      ack: 0,
      message: "haven't uploaded any image",
      message_key: 'server.upload.none',
      params: {},
    });
    const bmp = await post({ file_list: [{ name: 'a.bmp', data: 'Qk0=', type: 'image/bmp' }] });
    expect(bmp).toEqual({
      ack: 0,
      message: "The following images couldn't be uploaded: a.bmp is not supported. File type must be .jpg, .png.",
      message_key: 'server.upload.rejected',
      params: { list: [{ message_key: 'server.upload.notSupported', params: { name: 'a.bmp' } }] },
    });
    const fake = await post({ file_list: [{ name: 'gif-in-disguise.png', data: 'R0lGODlhAQABAAAAACw=' }] });
    expect(fake.message).toContain('gif-in-disguise.png is not supported.');
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set([0xff, 0xd8, 0xff]);
    const tooBig = await post({ file_list: [{ name: 'huge.jpg', data: toBase64(big) }] });
    expect(tooBig.message).toContain('huge.jpg is too large. Each image must be 5 MB or smaller.');
    const many = await post({ file_list: Array.from({ length: 21 }, (_, i) => ({ name: `${i}.jpg`, data: '/9j/' })) });
    expect(many.message).toBe('Upload at most 20 images at a time.');
  });
});

describe('restore, reOptimize, schedule and stop', { timeout: 60_000 }, () => {
  it('refuse with the documented messages and validate input', async () => {
    const { shop, headers } = await createShop();
    await saveSettings(shop.id);
    const { fakes } = makeDeps();
    const { item, images } = await seedItem(shop, fakes.cdn);
    const restore = async (json: unknown) =>
      (await call('/api/v2/image-opt/restore', { method: 'POST', headers, json })).json<Promise<Ack>>();
    // A never-optimised image cannot be restored.
    expect(await restore({ data_type: 1, data_list: [{ data_id: item.id, restore_type: 'all' }] })).toEqual({
      ack: 0,
      message: 'Select the correct state of the image operation',
      message_key: 'server.optimise.selectCorrectState',
      params: {},
    });
    await updateImage(db(), shop.id, images[0]!.id, { status: 'compressed', originalKey: 'originals/x', expired: true });
    expect((await restore({ data_type: 1, data_list: [{ data_id: item.id, img_ids: [images[0]!.id] }] })).message).toMatch(
      /^This image has expired/,
    );
    const reopt = await call('/api/v2/image-opt/reOptimize', {
      method: 'POST',
      headers,
      json: { data_type: 1, data_list: [{ data_id: item.id }], re_opt_type: '', page_type: 0 },
    });
    expect((await reopt.json<Ack>()).message).toMatch(/^This image has expired/);
    // Another shop's item is invisible: nothing selectable.
    const other = await createShop();
    const foreign = await call('/api/v2/image-opt/restore', {
      method: 'POST',
      headers: other.headers,
      json: { data_type: 1, data_list: [{ data_id: item.id }] },
    });
    expect((await foreign.json<Ack>()).message).toBe('Select the correct state of the image operation');
    const bad = await call('/api/v2/image-opt/reOptimize', { method: 'POST', headers, json: { data_type: 9, data_list: [] } });
    expect(bad.status).toBe(400);
  });

  it("refuses restore_type, re_opt_type and opt_cfg values outside the contract ('' or 'all'; 0 or 1) and changes nothing", async () => {
    const { shop, headers } = await createShop();
    await saveSettings(shop.id);
    const { fakes } = makeDeps();
    const { item, images } = await seedItem(shop, fakes.cdn);
    // A compressed image with its original: a restore or re-optimise of it would be planned.
    await updateImage(db(), shop.id, images[0]!.id, {
      status: 'compressed',
      compressed: true,
      originalKey: `originals/${shop.id}/kept`,
      expiresAt: Date.now() + 86_400_000,
    });
    const post = async (path: string, json: unknown) => {
      const res = await call(`/api/v2/image-opt/${path}`, { method: 'POST', headers, json });
      return { status: res.status, body: await res.json<Ack & { message_key?: string; params?: unknown }>() };
    };
    const refusal = (field: string) => ({
      status: 400,
      body: { ack: 0, message: `Invalid value for ${field}`, message_key: 'server.common.invalidValueFor', params: { field } },
    });
    expect(
      await post('restore', { data_type: 1, data_list: [{ data_id: item.id, img_ids: [images[0]!.id], restore_type: 'al' }] }),
    ).toEqual(refusal('data_list.0.restore_type'));
    expect(
      await post('reOptimize', { data_type: 1, data_list: [{ data_id: item.id }], re_opt_type: 'ALL', page_type: 0 }),
    ).toEqual(refusal('re_opt_type'));
    const jpg = toBase64(fixture('rocket-baseline.jpg'));
    expect(
      await post('uploadImagesOpt', { file_list: [{ name: 'a.jpg', data: jpg }], opt_cfg: { pngtojpg: 2, is_watermark: 0 } }),
    ).toEqual(refusal('opt_cfg.pngtojpg'));
    // Nothing was planned or stored.
    for (const dataType of [1, 4]) {
      const schedule = await (await call(`/api/v2/image-opt/getOptSchedule?data_type=${dataType}`, { headers })).json<Ack>();
      expect(schedule.data).toMatchObject({ status: 'idle', opt_total: 0 });
    }
    expect((await env.BUCKET.list({ prefix: `uploads/${shop.id}/` })).objects).toEqual([]);
    // The documented values still work: '' and 'all', and null (an older client's empty restore_type).
    expect(
      (await post('restore', { data_type: 1, data_list: [{ data_id: item.id, img_ids: [images[0]!.id], restore_type: null }] }))
        .body.ack,
    ).toBe(1);
  });

  it('reports idle progress and stops running jobs, keeping finished images', async () => {
    const { shop, headers } = await createShop();
    await saveSettings(shop.id);
    const idle = await (await call('/api/v2/image-opt/getOptSchedule', { headers })).json<Ack>();
    expect(idle.data!.product).toMatchObject({ process_result: 1, opt_total: 0, opt_in: 0, process_type: '' });
    // "Progress response, per product, collection and article" (image-optimisation.md section 3): the article
    // schedule under its documented name, and under blog (the admin's tab) as well.
    expect(Object.keys(idle.data!)).toEqual(['product', 'collection', 'blog', 'other', 'article']);
    expect(idle.data!.article).toMatchObject({ data_type: 3, process_result: 1, opt_in: 0, opt_total: 0, process_type: '' });
    expect(idle.data!.article).toEqual(idle.data!.blog);

    const { createJob } = await import('../../../worker/db/jobs');
    const { fakes } = makeDeps();
    const { item, images } = await seedItem(shop, fakes.cdn, { count: 3 });
    const jobId = crypto.randomUUID();
    await createJob(
      db(),
      { id: jobId, shopId: shop.id, dataType: 1, processType: 'optimize', pageType: 1, pattern: 'manual' },
      images.map((i) => ({ imageId: i.id, itemId: item.id })),
    );
    const { finishJobImage } = await import('../../../worker/db/jobs');
    await finishJobImage(db(), jobId, images[0]!.id, 'done');
    const running = await (await call('/api/v2/image-opt/getOptSchedule?data_type=1', { headers })).json<Ack>();
    expect(running.data).toMatchObject({
      process_type: 'optimize',
      page_type: 1,
      process_result: 0,
      opt_in: 2,
      opt_total: 3,
      list: [{ data_id: item.id, opt_in: 2, opt_total: 3 }],
    });

    const stop = await (await call('/api/v2/image-opt/stopImageOptTask', { headers })).json<Ack>();
    expect(stop).toMatchObject({ ack: 1, data: { stopped: 1 } });
    const after = await (await call('/api/v2/image-opt/getOptSchedule?data_type=1', { headers })).json<Ack>();
    expect(after.data).toMatchObject({ status: 'stopped', process_result: 1, opt_in: 0, opt_total: 3 });
  });
});

describe('expiry sweep', { timeout: 60_000 }, () => {
  it('marks images older than 30 days Expired and deletes their originals and results', async () => {
    const { shop } = await createShop();
    const { fakes } = makeDeps();
    const { images } = await seedItem(shop, fakes.cdn, { count: 2 });
    await env.BUCKET.put(`originals/${shop.id}/a`, 'orig');
    await env.BUCKET.put(`results/${shop.id}/a`, 'res');
    await updateImage(db(), shop.id, images[0]!.id, {
      status: 'compressed',
      originalKey: `originals/${shop.id}/a`,
      resultKey: `results/${shop.id}/a`,
      expiresAt: Date.now() - 1,
    });
    await updateImage(db(), shop.id, images[1]!.id, { status: 'compressed', expiresAt: Date.now() + 86_400_000 });
    const marked = await sweepExpired({ db: db(), bucket: env.BUCKET, log: createLogger(), now: () => Date.now() });
    expect(marked).toBeGreaterThanOrEqual(1);
    expect(await imageRow(images[0]!.id)).toMatchObject({ expired: true, originalKey: null, resultKey: null });
    expect((await imageRow(images[1]!.id))!.expired).toBe(false);
    expect(await env.BUCKET.get(`originals/${shop.id}/a`)).toBeNull();
    expect(await env.BUCKET.get(`results/${shop.id}/a`)).toBeNull();
  });
});
