// Our own fileUpdate makes Shopify send products/update. That webhook must refresh the catalogue and
// nothing more: no second optimisation round (no job, no quota, Shopify's file untouched), also in
// automatic mode, which queues every pending image a webhook brings in.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { catalogueSyncConsumer } from '../../../worker/catalogue/consumer';
import { setAutoSwitch } from '../../../worker/db/image-settings';
import { images, jobs } from '../../../worker/db/schema';
import type { ShopRow } from '../../../worker/db/shops';
import { createLogger } from '../../../worker/lib/log';
import type { OptimiseMessage } from '../../../worker/messages/optimise';
import { quotaPort } from '../../../worker/optimise/deps';
import { handleOptimiseBatch } from '../../../worker/optimise/handlers';
import { planJob } from '../../../worker/optimise/plan';
import { createEmulatorShop, type EmulatorShop } from '../emulator-client';
import { appFetch, db } from '../helpers';
import { installedShopFor } from '../installed-shop';
import { imageRow, ledgerRows, recordingQueue, saveSettings } from '../optimise/fixtures';

afterEach(() => vi.restoreAllMocks());

async function consumeSync(body: unknown) {
  const batch = createMessageBatch('catalogue-sync', [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body }]);
  await catalogueSyncConsumer(batch, env);
  return getQueueResult(batch, createExecutionContext());
}

const jobsOf = (shopId: number) => db().select().from(jobs).where(eq(jobs.shopId, shopId)).all();

describe('products/update caused by our own fileUpdate', { timeout: 120_000 }, () => {
  let emu: EmulatorShop;
  let shop: ShopRow;
  beforeAll(async () => {
    emu = await createEmulatorShop({ seed: 'empty', install: true, settings: { fileProcessingMs: 50 } });
    await emu.createProduct({ title: 'Poster', status: 'ACTIVE', published: true, images: [{ seed: 'photo' }] });
    shop = await installedShopFor(emu);
    expect((await consumeSync({ type: 'sync', shopId: shop.id })).explicitAcks).toHaveLength(1);
    await saveSettings(shop.id);
  }, 120_000);

  it('refreshes the catalogue but starts no new optimisation round, in automatic mode too', async () => {
    const [image] = await db().select().from(images).where(eq(images.shopId, shop.id)).all();
    expect(image).toBeTruthy();
    // One real optimisation: the codec, staged upload, fileUpdate in place, READY.
    const q = recordingQueue();
    await planJob(
      { db: db(), queue: q.queue, log: createLogger(), now: Date.now, canOptimise: quotaPort(db()).canOptimise },
      { shop, dataType: 1, processType: 'optimize', pageType: 1, pattern: 'manual', selection: { imageIds: [image!.id] } },
    );
    const batch = createMessageBatch(
      'image-optimise',
      (q.sent as OptimiseMessage[]).map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body })),
    );
    await handleOptimiseBatch(batch, env);
    expect((await getQueueResult(batch, createExecutionContext())).explicitAcks).toHaveLength(1);
    const optimised = (await imageRow(image!.id))!;
    expect(optimised.status).toBe('compressed');
    const fileAfterUpdate = await emu.file(image!.imgId);
    expect(fileAfterUpdate.sha256).toBe(optimised.resultSha256);
    const jobsBefore = (await jobsOf(shop.id)).length;

    // Automatic mode on, then Shopify's webhooks about our update reach the app and the sync queue.
    await setAutoSwitch(db(), shop.id, 1);
    const sent: unknown[] = [];
    vi.spyOn(env.SYNC_QUEUE, 'send').mockImplementation(async (m: unknown) => void sent.push(m) as never);
    const optimiseSend = vi.spyOn(env.OPTIMISE_QUEUE, 'send');
    const optimiseSendBatch = vi.spyOn(env.OPTIMISE_QUEUE, 'sendBatch');
    const own = await emu.webhooks({ status: 'pending', topic: 'products/update' });
    expect(own.length).toBeGreaterThanOrEqual(1); // fileUpdate did cause products/update
    await emu.postPendingWebhooks(appFetch);
    const changed = sent.filter((m) => (m as { type: string }).type === 'product_changed');
    expect(changed.length).toBeGreaterThanOrEqual(1);
    for (const m of changed) expect((await consumeSync(m)).explicitAcks).toHaveLength(1);

    // The catalogue saw the new version of the file; nothing was queued or charged again.
    const after = (await imageRow(image!.id))!;
    expect(after.src).toBe(fileAfterUpdate.url);
    expect(after).toMatchObject({ status: 'compressed', resultSha256: optimised.resultSha256, compressed: true });
    expect(await jobsOf(shop.id)).toHaveLength(jobsBefore);
    expect(optimiseSend).not.toHaveBeenCalled();
    expect(optimiseSendBatch).not.toHaveBeenCalled();
    expect(await ledgerRows(shop.id)).toHaveLength(1);
    expect((await emu.file(image!.imgId)).sha256).toBe(optimised.resultSha256);
  });
});
