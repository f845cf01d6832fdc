// The whole path of an image against the store emulator: catalogue sync, the registered queue handler,
// the real codec engine, staged upload + fileUpdate in place (same URL), collection and article image
// mutations, restore byte for byte, and Shopify's faults (5xx, failed file processing) with retries.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogueSyncConsumer } from '../../../worker/catalogue/consumer';
import { images, items } from '../../../worker/db/schema';
import type { ShopRow } from '../../../worker/db/shops';
import { encryptSecret, sha256HexOfBytes } from '../../../worker/lib/crypto';
import { createLogger } from '../../../worker/lib/log';
import type { OptimiseMessage } from '../../../worker/messages/optimise';
import { handleOptimiseBatch, handleOptimiseDeadLetters } from '../../../worker/optimise/handlers';
import { planJob } from '../../../worker/optimise/plan';
import { quotaPort } from '../../../worker/optimise/deps';
import { createEmulatorShop, type EmulatorShop } from '../emulator-client';
import { createShop, db } from '../helpers';
import { imageRow, ledgerRows, recordingQueue, saveSettings } from './fixtures';

async function installed(emu: EmulatorShop): Promise<ShopRow> {
  const t = emu.tokens!;
  const enc = (s: string) => encryptSecret(env.TOKEN_ENCRYPTION_KEY, s);
  const { shop } = await createShop({
    domain: emu.domain,
    name: 'Emu Shop',
    accessTokenEnc: await enc(t.access_token),
    accessTokenExpiresAt: Date.now() + (t.expires_in ?? 3600) * 1000,
    refreshTokenEnc: t.refresh_token ? await enc(t.refresh_token) : null,
    refreshTokenExpiresAt: t.refresh_token_expires_in ? Date.now() + t.refresh_token_expires_in * 1000 : null,
  });
  return shop;
}

async function plan(
  shop: ShopRow,
  dataType: number,
  processType: 'optimize' | 'restore',
  selection: { itemIds?: number[]; imageIds?: number[] },
) {
  const q = recordingQueue();
  const d = db();
  await planJob(
    { db: d, queue: q.queue, log: createLogger(), now: Date.now, canOptimise: quotaPort(d).canOptimise },
    { shop, dataType, processType, pageType: 1, pattern: 'manual', selection },
  );
  return q.sent as OptimiseMessage[];
}

/** One delivery through the registered handler, as the queue would make it. */
async function deliver(messages: OptimiseMessage[], attempts = 1, queue = 'image-optimise') {
  const batch = createMessageBatch(
    queue,
    messages.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts, body })),
  );
  const ctx = createExecutionContext();
  await (queue === 'image-optimise' ? handleOptimiseBatch(batch, env) : handleOptimiseDeadLetters(batch, env));
  return getQueueResult(batch, ctx);
}

const itemsOf = (shopId: number, dataType: number) =>
  db()
    .select()
    .from(items)
    .where(and(eq(items.shopId, shopId), eq(items.dataType, dataType)))
    .all();
const imagesOfItem = (shopId: number, itemId: number) =>
  db()
    .select()
    .from(images)
    .where(and(eq(images.shopId, shopId), eq(images.itemId, itemId)))
    .all();

describe('optimisation against the store emulator', { timeout: 180_000 }, () => {
  let emu: EmulatorShop;
  let shop: ShopRow;
  /** Product items with exactly one image, so each test works on a small, real photograph. */
  let singles: { itemId: number; imageId: number; mediaId: string }[];

  beforeAll(async () => {
    emu = await createEmulatorShop({ seed: 'dev', install: true, settings: { fileProcessingMs: 50 } });
    shop = await installed(emu);
    const sync = createMessageBatch('catalogue-sync', [
      { id: 'sync', timestamp: new Date(), attempts: 1, body: { type: 'sync', shopId: shop.id } },
    ]);
    await catalogueSyncConsumer(sync, env);
    await saveSettings(shop.id, (s) => {
      s.alt_text = {
        ...s.alt_text,
        switch: 1,
        product: 1,
        collection: 1,
        blogs: 1,
        product_rule: '%product_title% - %shop_name%',
      };
    });
    singles = [];
    for (const it of await itemsOf(shop.id, 1)) {
      const imgs = await imagesOfItem(shop.id, it.id);
      const first = imgs[0];
      if (first && /\.jpe?g/i.test(first.src) && imgs.length >= 1)
        singles.push({ itemId: it.id, imageId: first.id, mediaId: first.imgId });
    }
    expect(singles.length).toBeGreaterThanOrEqual(4);
  }, 180_000);

  it('replaces a product image in place (same URL, smaller bytes, alt text) and restores it byte for byte', async () => {
    const { imageId, mediaId } = singles[0]!;
    const before = await emu.file(mediaId);
    const originalBytes = await emu.fileBytes(mediaId);
    const result = await deliver(await plan(shop, 1, 'optimize', { imageIds: [imageId] }));
    expect(result.explicitAcks).toHaveLength(1);

    const row = (await imageRow(imageId))!;
    expect(row).toMatchObject({ status: 'compressed', compressed: true, altEdited: true });
    const after = await emu.file(mediaId);
    // Shopify keeps the file's URL; only its ?v= cache-buster moves on.
    const path = (u: string) => u.split('?')[0];
    expect(path(after.url)).toBe(path(before.url));
    expect(after.size).toBeLessThan(before.size);
    expect(after.sha256).toBe(row.resultSha256);
    expect(after.alt).toMatch(/ - Emu Shop$/);
    expect(after.productIds).toEqual(before.productIds);
    // What a visitor downloads at the unchanged URL is the new file.
    const served = new Uint8Array(await (await fetch(after.url)).arrayBuffer());
    expect(await sha256HexOfBytes(served)).toBe(row.resultSha256);
    expect(await ledgerRows(shop.id)).toHaveLength(1);

    await deliver(await plan(shop, 1, 'restore', { imageIds: [imageId] }));
    const restored = await emu.file(mediaId);
    expect(restored.sha256).toBe(await sha256HexOfBytes(originalBytes));
    expect(restored.alt).toBe(before.alt);
    expect(path(restored.url)).toBe(path(before.url));
    expect((await imageRow(imageId))!.status).toBe('restored');
    expect(await ledgerRows(shop.id)).toHaveLength(1);
  });

  it('retries Shopify 5xx answers and then finishes with one upload', async () => {
    const { imageId, mediaId } = singles[1]!;
    const messages = await plan(shop, 1, 'optimize', { imageIds: [imageId] });
    await emu.injectFault({ target: 'graphql', status: 503, times: 8 });
    const first = await deliver(messages, 1);
    expect(first.retryMessages).toHaveLength(1);
    expect((await imageRow(imageId))!.failReason).toMatch(/503/);
    await emu.clearFaults();
    const second = await deliver(messages, 2);
    expect(second.explicitAcks).toHaveLength(1);
    const f = await emu.file(mediaId);
    expect(f.status).toBe('READY');
    expect(f.sha256).toBe((await imageRow(imageId))!.resultSha256);
  });

  it('retries a FAILED file processing, and after the last retry marks the image failed for the DLQ', async () => {
    const { imageId, mediaId } = singles[2]!;
    const messages = await plan(shop, 1, 'optimize', { imageIds: [imageId] });
    await emu.failFileProcessing(1);
    expect((await deliver(messages, 1)).retryMessages).toHaveLength(1);
    expect((await deliver(messages, 2)).explicitAcks).toHaveLength(1);
    expect((await emu.file(mediaId)).status).toBe('READY');
    expect((await imageRow(imageId))!.status).toBe('compressed');

    const { imageId: id2 } = singles[3]!;
    const m2 = await plan(shop, 1, 'optimize', { imageIds: [id2] });
    await emu.failFileProcessing(100);
    const last = await deliver(m2, 6); // the delivery after max_retries
    expect(last.retryMessages).toHaveLength(1); // handed on to image-optimise-dlq
    const row = (await imageRow(id2))!;
    expect(row.status).toBe('failed');
    expect(row.failReason).toBeTruthy();
    expect((await deliver(m2, 1, 'image-optimise-dlq')).explicitAcks).toHaveLength(1);
    await emu.clearFaults();
  });

  it('replaces a collection image through its mutation', async () => {
    const coll = (await itemsOf(shop.id, 2))[0]!;
    const [img] = await imagesOfItem(shop.id, coll.id);
    await deliver(await plan(shop, 2, 'optimize', { itemIds: [coll.id] }));
    const row = (await imageRow(img!.id))!;
    expect(row.status).toBe('compressed');
    const now = (await emu.collections()).find((c) => c.id === `gid://shopify/Collection/${coll.resourceId}`)!;
    expect(now.image!.sha256).toBe(row.resultSha256);
    expect(row.src).toBe(now.image!.url);

    // Restore: the original bytes come back (as a new collection image, Shopify's only way).
    await deliver(await plan(shop, 2, 'restore', { itemIds: [coll.id] }));
    const back = (await emu.collections()).find((c) => c.id === `gid://shopify/Collection/${coll.resourceId}`)!;
    expect(back.image!.sha256).toBe(row.originalSha256);
    expect((await imageRow(img!.id))!.status).toBe('restored');
  });

  it('replaces a blog article image through its mutation, with the blog alt template', async () => {
    const art = (await itemsOf(shop.id, 3))[0]!;
    const [img] = await imagesOfItem(shop.id, art.id);
    await deliver(await plan(shop, 3, 'optimize', { itemIds: [art.id] }));
    const row = (await imageRow(img!.id))!;
    expect(['compressed', 'optimal']).toContain(row.status);
    const now = (await emu.articles()).find((a) => a.id === `gid://shopify/Article/${art.resourceId}`)!;
    expect(now.image!.alt).toBe(`${art.title} Emu Shop`); // the general default: %blog_title% %shop_name%
    if (row.status === 'compressed') expect(now.image!.sha256).toBe(row.resultSha256);
  });
  it('names a PNG converted to JPG ".jpg" on Shopify, and a restore brings back the PNG and its name', async () => {
    await saveSettings(shop.id, (s) => {
      s.image_opt = { ...s.image_opt, pngtojpg: 1, pngtojpg_size_control: 1 };
    });
    const files = await emu.files();
    const png = files.find((f) => f.filename.startsWith('chelsea') && f.filename.endsWith('.png'))!;
    const image = (
      await db()
        .select()
        .from(images)
        .where(and(eq(images.shopId, shop.id), eq(images.imgId, png.id)))
        .all()
    )[0]!;
    const originalBytes = await emu.fileBytes(png.id);
    await deliver(await plan(shop, 1, 'optimize', { imageIds: [image.id] }));

    const row = (await imageRow(image.id))!;
    expect(row).toMatchObject({
      status: 'compressed',
      convertedToJpg: true,
      fileNameEdited: true,
      originalFileName: png.filename,
    });
    const converted = await emu.file(png.id);
    const jpgName = png.filename.replace(/\.png$/, '.jpg');
    expect(converted.filename).toBe(jpgName);
    expect(converted.url.split('?')[0]).toMatch(new RegExp(`/files/${jpgName.replace('.', '\\.')}$`));
    expect(converted.sha256).toBe(row.resultSha256);
    expect(row.fileName).toBe(jpgName);

    await deliver(await plan(shop, 1, 'restore', { imageIds: [image.id] }));
    const restored = await emu.file(png.id);
    expect(restored.sha256).toBe(await sha256HexOfBytes(originalBytes));
    expect(restored.filename).toBe(png.filename);
    expect(await imageRow(image.id)).toMatchObject({ status: 'restored', fileName: png.filename, noteKey: null });
  });
});
