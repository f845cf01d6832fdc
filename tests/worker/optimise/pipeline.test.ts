import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { getJob, listJobImages } from '../../../worker/db/jobs';
import type { OptimiseMessage } from '../../../worker/messages/optimise';
import { processDeadLetter, processOptimiseMessage } from '../../../worker/optimise/consumer';
import { planJob } from '../../../worker/optimise/plan';
import type { PipelineDeps } from '../../../worker/optimise/ports';
import { scheduleForTab } from '../../../worker/optimise/progress';
import { createShop, db } from '../helpers';
import { eq } from 'drizzle-orm';
import { images as imagesTable } from '../../../worker/db/schema';
import { ShopifyUserError } from '../../../worker/shopify/errors';
import { imageRow, ledgerRows, makeDeps, r2Bytes, recordingQueue, saveSettings, seedItem } from './fixtures';

type Shop = Awaited<ReturnType<typeof createShop>>['shop'];

async function plan(
  deps: PipelineDeps,
  shop: Shop,
  processType: 'optimize' | 'reoptimize' | 'restore',
  itemIds: number[],
  dataType = 1,
) {
  const q = recordingQueue();
  const res = await planJob(
    { db: deps.db, queue: q.queue, log: deps.log, now: deps.now, canOptimise: deps.quota.canOptimise },
    { shop, dataType, processType, pageType: processType === 'optimize' ? 1 : 0, pattern: 'manual', selection: { itemIds } },
  );
  return { ...res, messages: q.sent as OptimiseMessage[] };
}

/** Delivers each message until acked, counting attempts like the queue does. */
async function drain(deps: PipelineDeps, messages: OptimiseMessage[], maxAttempts = 10) {
  const verdicts = [];
  for (const m of messages) {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const v = await processOptimiseMessage(deps, m, attempt);
      verdicts.push(v);
      if (v.ack) break;
    }
  }
  return verdicts;
}

describe('optimisation of one image', { timeout: 60_000 }, () => {
  it('stores the original in R2, replaces the bytes on Shopify, records the row and charges once', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    const { item, images } = await seedItem(shop, fakes.cdn, { count: 2 });
    const originals = images.map((i) => fakes.cdn.get(i.src)!);
    const { messages, total } = await plan(deps, shop, 'optimize', [item.id]);
    expect(total).toBe(2);
    await drain(deps, messages);

    for (const [n, img] of images.entries()) {
      const row = (await imageRow(img.id))!;
      expect(row.status).toBe('compressed');
      expect(row.step).toBe('done');
      expect(row.compressed).toBe(true);
      expect(row.optimisedSize).toBeLessThan(row.originalSize);
      expect(row.savedPercent).toBeCloseTo(50, 0);
      // The restore date is 30 days after the original was written to R2 (its lifecycle rule's clock).
      expect(row.expiresAt! - row.originalStoredAt!).toBe(30 * 24 * 3600 * 1000);
      expect(row.originalStoredAt!).toBeLessThanOrEqual(row.optimisedAt!);
      expect(row.lockJobId).toBeNull();
      expect(await r2Bytes(row.originalKey)).toEqual(originals[n]);
      expect(row.originalKey).toMatch(new RegExp(`^originals/${shop.id}/`));
      // Same URL, new bytes: what the merchant sees on the CDN.
      expect(fakes.cdn.get(img.src)).toEqual(await r2Bytes(row.resultKey));
    }
    expect(fakes.updates).toHaveLength(2);
    expect(await ledgerRows(shop.id)).toHaveLength(2);
    const job = await getJob(db(), shop.id, messages[0]!.jobId);
    expect(job?.status).toBe('done');
  });

  it('writes alt text and unique file names from the templates in the same Shopify update', async () => {
    const { shop } = await createShop({ name: 'Sunny Shop' });
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id, (s) => {
      s.alt_text = {
        ...s.alt_text,
        switch: 1,
        product: 1,
        blank_replace: 1,
        product_rule: '%product_title% by %product_vendor%',
      };
      s.file_name = { ...s.file_name, switch: 1, product: 1, product_rule: '%product_title%-%shop_name%' };
    });
    const { item, images } = await seedItem(shop, fakes.cdn, { count: 2, title: 'Blue Shirt' });
    await drain(deps, (await plan(deps, shop, 'optimize', [item.id])).messages);
    expect(fakes.updates.map((u) => [u.update.alt, u.update.fileName])).toEqual([
      ['Blue Shirt by Acme', 'blue-shirt-sunny-shop.jpg'],
      ['Blue Shirt by Acme', 'blue-shirt-sunny-shop-2.jpg'],
    ]);
    const row = (await imageRow(images[1]!.id))!;
    expect([row.altEdited, row.fileNameEdited, row.alt, row.fileName, row.originalFileName]).toEqual([
      true,
      true,
      'Blue Shirt by Acme',
      'blue-shirt-sunny-shop-2.jpg',
      'IMG_1.jpg',
    ]);
  });

  it('names converted bytes by their format (shirt.png -> shirt.jpg); if Shopify refuses the extension, the old one is kept', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    const { item, images } = await seedItem(shop, fakes.cdn, { count: 2 });
    // Two PNGs on Shopify (the fake engine answers JPEG for any input, as PNG to JPG would).
    for (const [n, img] of images.entries())
      await db()
        .update(imagesTable)
        .set({ fileName: `shirt-${n}.png` })
        .where(eq(imagesTable.id, img.id));
    // The second image's rename is refused once, as a Shopify that reads "extension must match the
    // original" as the file's own would answer.
    let calls = 0;
    const update = deps.shopify.updateImage;
    deps.shopify.updateImage = async (s, target, u) => {
      calls += 1;
      if (target.imgId === images[1]!.imgId && u.fileName?.endsWith('.jpg'))
        throw new ShopifyUserError('fileUpdate', [
          { code: 'INVALID_FILENAME_EXTENSION', field: ['files', '0', 'filename'], message: 'Invalid filename extension.' },
        ]);
      return update(s, target, u);
    };
    await drain(deps, (await plan(deps, shop, 'optimize', [item.id])).messages);
    expect(calls).toBe(3);
    expect(fakes.updates.map((u) => [u.update.fileName, u.update.file?.filename])).toEqual([
      ['shirt-0.jpg', 'shirt-0.jpg'],
      [undefined, 'shirt-1.png'],
    ]);
    const [first, second] = [(await imageRow(images[0]!.id))!, (await imageRow(images[1]!.id))!];
    expect([first.status, first.fileName, first.fileNameEdited, first.originalFileName]).toEqual([
      'compressed',
      'shirt-0.jpg',
      true,
      'shirt-0.png',
    ]);
    expect([second.status, second.fileName, second.fileNameEdited]).toEqual(['compressed', 'shirt-1.png', false]);

    // A restore gives the first its PNG name back with the original bytes.
    await drain(deps, (await plan(deps, shop, 'restore', [item.id])).messages);
    const restore = fakes.updates.slice(2).find((u) => u.target.imgId === images[0]!.imgId)!;
    expect([restore.update.fileName, restore.update.file?.filename]).toEqual(['shirt-0.png', 'shirt-0.png']);
    expect((await imageRow(images[0]!.id))!.fileName).toBe('shirt-0.png');
  });

  it('passes the stored watermark picture and position to the engine and flags the row', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    const s = await saveSettings(shop.id, (st) => {
      st.image_opt.watermark = {
        ...st.image_opt.watermark,
        switch: 1,
        position: 't_l',
        image_height: 0.25,
        opacity: 0.6,
        logo: 'logo.png',
      };
    });
    const key = `watermarks/${shop.id}/logo.png`;
    const logo = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    await env.BUCKET.put(key, logo);
    const { saveImageSettings } = await import('../../../worker/db/image-settings');
    await saveImageSettings(db(), shop.id, s, { watermarkKey: key });
    const { item, images } = await seedItem(shop, fakes.cdn);
    await drain(deps, (await plan(deps, shop, 'optimize', [item.id])).messages);
    expect(fakes.engine.calls[0]!.watermark).toEqual({ bytes: logo, position: 't_l', heightFraction: 0.25, opacity: 0.6 });
    expect(await imageRow(images[0]!.id)).toMatchObject({ status: 'compressed', watermarked: true });
  });

  it('keeps a watermark the merchant asked for even when it makes the file larger, and does not charge it', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    // The engine's watermarked result is larger than the original (a busy logo on a tiny, well-compressed photo).
    deps.optimiseImage = async (input, settings) => {
      const out = new Uint8Array(input.byteLength + 64);
      out.set(input);
      out[5] = (out[5]! + 7) % 256;
      return {
        kind: 'optimised',
        bytes: out,
        format: 'jpeg',
        mime: 'image/jpeg',
        width: 10,
        height: 10,
        inputFormat: 'jpeg',
        convertedToJpg: false,
        watermarked: !!settings.watermark,
        bytesIn: input.byteLength,
        bytesOut: out.byteLength,
      };
    };
    const s = await saveSettings(shop.id, (st) => {
      st.image_opt.watermark = { ...st.image_opt.watermark, switch: 1, logo: 'logo.png' };
    });
    const key = `watermarks/${shop.id}/logo.png`;
    await env.BUCKET.put(key, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
    const { saveImageSettings } = await import('../../../worker/db/image-settings');
    await saveImageSettings(db(), shop.id, s, { watermarkKey: key });
    const { item, images } = await seedItem(shop, fakes.cdn);
    const originalSize = fakes.cdn.get(images[0]!.src)!.byteLength;
    await drain(deps, (await plan(deps, shop, 'optimize', [item.id])).messages);
    const row = (await imageRow(images[0]!.id))!;
    expect(row).toMatchObject({ status: 'compressed', watermarked: true, optimisedSize: originalSize + 64 });
    expect(fakes.cdn.get(images[0]!.src)!.byteLength).toBe(originalSize + 64); // on Shopify
    expect(await ledgerRows(shop.id)).toHaveLength(0);
  });

  it('records an already-optimal image without uploading or charging', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps({ optimal: true });
    await saveSettings(shop.id);
    const { item, images } = await seedItem(shop, fakes.cdn);
    const before = fakes.cdn.get(images[0]!.src);
    await drain(deps, (await plan(deps, shop, 'optimize', [item.id])).messages);
    const row = (await imageRow(images[0]!.id))!;
    expect(row.status).toBe('optimal');
    expect(row.compressed).toBe(false);
    expect(fakes.updates).toHaveLength(0);
    expect(fakes.cdn.get(images[0]!.src)).toBe(before);
    expect(await ledgerRows(shop.id)).toHaveLength(0);
  });
});

describe('restore and re-optimise', { timeout: 60_000 }, () => {
  it('restores the original byte for byte, free, and marks the row Restored', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id, (s) => (s.alt_text = { ...s.alt_text, switch: 1, product: 1, product_rule: '%product_title%' }));
    const { item, images } = await seedItem(shop, fakes.cdn, { alt: 'merchant alt' });
    const original = fakes.cdn.get(images[0]!.src)!;
    await drain(deps, (await plan(deps, shop, 'optimize', [item.id])).messages);
    expect(fakes.cdn.get(images[0]!.src)).not.toEqual(original);

    await drain(deps, (await plan(deps, shop, 'restore', [item.id])).messages);
    expect(fakes.cdn.get(images[0]!.src)).toEqual(original);
    const row = (await imageRow(images[0]!.id))!;
    expect([row.status, row.restored, row.alt, row.altEdited]).toEqual(['restored', true, 'merchant alt', false]);
    expect(fakes.updates.at(-1)!.update.alt).toBe('merchant alt');
    expect(await ledgerRows(shop.id)).toHaveLength(1);
    const { getImageWithItem } = await import('../../../worker/db/images');
    expect((await getImageWithItem(db(), shop.id, images[0]!.id))!.item.optStatus).toBe(3);
  });

  it('re-optimises from the stored original with the current settings and does not charge again', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    const { item, images } = await seedItem(shop, fakes.cdn);
    const original = fakes.cdn.get(images[0]!.src)!;
    await drain(deps, (await plan(deps, shop, 'optimize', [item.id])).messages);
    await saveSettings(shop.id, (s) => (s.image_opt.quality = { ...s.image_opt.quality, custom: 1, custom_ratio: 60 }));
    await drain(deps, (await plan(deps, shop, 'reoptimize', [item.id])).messages);
    // The engine saw the original both times, never its own output.
    expect(fakes.engine.calls.map((c) => c.quality)).toEqual([75, 60]);
    const row = (await imageRow(images[0]!.id))!;
    expect(await r2Bytes(row.originalKey)).toEqual(original);
    expect(row.status).toBe('compressed');
    expect(await ledgerRows(shop.id)).toHaveLength(1);
  });

  it('an image the engine could only strip of metadata carries that reason; a later full result clears it; dimensions before and after are kept', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    let limited: 'metadata-only' | undefined = 'metadata-only';
    deps.optimiseImage = async (input) => {
      const out = input.slice(0, input.byteLength - 8);
      return {
        kind: 'optimised',
        bytes: out,
        format: 'jpeg',
        mime: 'image/jpeg',
        width: limited ? 6120 : 2048,
        height: limited ? 4080 : 1365,
        widthIn: 6120,
        heightIn: 4080,
        inputFormat: 'jpeg',
        convertedToJpg: false,
        watermarked: false,
        bytesIn: input.byteLength,
        bytesOut: out.byteLength,
        ...(limited ? { limited, note: 'JPEG of 25.0 MP: coefficients too large for the isolate, metadata removed only' } : {}),
      };
    };
    await saveSettings(shop.id);
    const { item, images } = await seedItem(shop, fakes.cdn);
    await drain(deps, (await plan(deps, shop, 'optimize', [item.id])).messages);
    expect(await imageRow(images[0]!.id)).toMatchObject({
      status: 'compressed',
      noteKey: 'server.optimise.metadataOnly',
      noteParams: { mp: '25.0' },
      width: 6120,
      originalWidth: 6120,
    });
    limited = undefined;
    await drain(deps, (await plan(deps, shop, 'reoptimize', [item.id])).messages);
    expect(await imageRow(images[0]!.id)).toMatchObject({
      status: 'compressed',
      noteKey: null,
      width: 2048,
      height: 1365,
      originalWidth: 6120,
      originalHeight: 4080,
    });
  });

  it('refuses expired and deleted images with the documented message', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    const { item, images } = await seedItem(shop, fakes.cdn);
    await drain(deps, (await plan(deps, shop, 'optimize', [item.id])).messages);
    const { updateImage } = await import('../../../worker/db/images');
    await updateImage(db(), shop.id, images[0]!.id, { expired: true });
    await expect(plan(deps, shop, 'restore', [item.id])).rejects.toThrow(/expired: originals are kept for 30 days/);
    await expect(plan(deps, shop, 'reoptimize', [item.id])).rejects.toThrow(/expired/);
    await updateImage(db(), shop.id, images[0]!.id, { expired: false, deleted: true });
    await expect(plan(deps, shop, 'restore', [item.id])).rejects.toThrow(
      'This image has been deleted and cannot be restored or re-optimized.',
    );
  });
});

describe('failures', { timeout: 60_000 }, () => {
  it('retries Shopify 5xx with growing delays, then marks the image failed with the reason and sends it to the DLQ', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    const { item, images } = await seedItem(shop, fakes.cdn);
    fakes.faults.failNextUpdates = 100;
    const { messages } = await plan(deps, shop, 'optimize', [item.id]);
    const verdicts = await drain(deps, messages, 6);
    expect(verdicts.map((v) => (v.ack ? 'ack' : v.delaySeconds))).toEqual([10, 20, 40, 80, 160, 0]);
    const row = (await imageRow(images[0]!.id))!;
    expect(row.status).toBe('failed');
    expect(row.failReason).toContain('HTTP 503');
    expect(await r2Bytes(row.originalKey)).toEqual(await fakes.fetchImage(images[0]!.src)); // original kept
    expect(await ledgerRows(shop.id)).toHaveLength(0);
    const members = await listJobImages(db(), messages[0]!.jobId);
    expect(members[0]).toMatchObject({ status: 'failed', attempts: 6 });
    await processDeadLetter(deps, messages[0]!); // the DLQ delivery finds it recorded: a no-op
    expect((await getJob(db(), shop.id, messages[0]!.jobId))?.status).toBe('done');
    // The progress panel learns that nothing was optimised and one image failed (no "1 optimized" toast).
    expect(await scheduleForTab(db(), shop.id, 1, Date.now())).toMatchObject({
      process_result: 1,
      opt_total: 1,
      opt_done: 0,
      opt_failed: 1,
    });
  });

  it('marks undecodable bytes failed at once (no retry)', async () => {
    const { shop } = await createShop();
    const { ImageDecodeError } = await import('../../../worker/images/errors');
    const { deps, fakes } = makeDeps({
      optimiseImage: async () => {
        throw new ImageDecodeError('truncated JPEG');
      },
    });
    await saveSettings(shop.id);
    const { item, images } = await seedItem(shop, fakes.cdn);
    const verdicts = await drain(deps, (await plan(deps, shop, 'optimize', [item.id])).messages);
    expect(verdicts).toEqual([{ ack: true }]);
    expect(await imageRow(images[0]!.id)).toMatchObject({ status: 'failed', failReason: 'ImageDecodeError: truncated JPEG' });
  });
});
