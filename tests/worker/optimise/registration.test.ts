// The entry points as Cloudflare calls them: the queue dispatcher and the cron dispatcher.
import { createExecutionContext, createMessageBatch, createScheduledController, env, getQueueResult } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { updateImage } from '../../../worker/db/images';
import { dispatchQueue } from '../../../worker/jobs/queue';
import { CRON, dispatchScheduled } from '../../../worker/jobs/scheduled';
import { createShop, db } from '../helpers';
import { imageRow, makeDeps, seedItem } from './fixtures';

describe('registration', { timeout: 60_000 }, () => {
  it('image-optimise and its DLQ are handled: stale and malformed messages are acked, never retried forever', async () => {
    for (const queue of ['image-optimise', 'image-optimise-dlq']) {
      const batch = createMessageBatch(queue, [
        {
          id: 'stale',
          timestamp: new Date(),
          attempts: 1,
          body: { type: 'image', jobId: crypto.randomUUID(), shopId: 999_999, imageId: 1 },
        },
        { id: 'junk', timestamp: new Date(), attempts: 1, body: { hello: 'world' } },
      ]);
      const ctx = createExecutionContext();
      await dispatchQueue(batch, env, ctx);
      const result = await getQueueResult(batch, ctx);
      expect(result.explicitAcks.sort()).toEqual(['junk', 'stale']);
      expect(result.retryMessages).toHaveLength(0);
    }
  });

  it('the daily expiry cron marks images past their 30 days Expired', async () => {
    const { shop } = await createShop();
    const { fakes } = makeDeps();
    const { images } = await seedItem(shop, fakes.cdn);
    await env.BUCKET.put(`originals/${shop.id}/cron`, 'orig');
    await updateImage(db(), shop.id, images[0]!.id, {
      status: 'compressed',
      originalKey: `originals/${shop.id}/cron`,
      expiresAt: Date.now() - 1000,
    });
    const ctx = createExecutionContext();
    await dispatchScheduled(createScheduledController({ cron: CRON.expirySweep, scheduledTime: Date.now() }), env, ctx);
    expect(await imageRow(images[0]!.id)).toMatchObject({ expired: true, originalKey: null });
    expect(await env.BUCKET.get(`originals/${shop.id}/cron`)).toBeNull();
  });
});
