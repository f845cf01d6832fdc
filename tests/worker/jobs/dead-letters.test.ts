// Dead letters (issue 22): every queue has a dead-letter queue and a consumer that records what died;
// shop/redact is retried from the record until done (never dropped); an operator's replay re-sends.
import { createExecutionContext, createMessageBatch, createScheduledController, env, getQueueResult } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { parse } from 'smol-toml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findDeadLetter } from '../../../worker/db/dead-letters';
import { findDelivery } from '../../../worker/db/processed-webhooks';
import { catalogueSyncs, deadLetters } from '../../../worker/db/schema';
import { findShopById } from '../../../worker/db/shops';
import {
  DEAD_LETTER_KEEP_MS,
  deadLetterTask,
  mustCompleteDelayMs,
  pruneDeadLettersTask,
} from '../../../worker/jobs/dead-letters';
import { imageQueueHandlers } from '../../../worker/jobs/image-worker';
import { baseQueueName, dispatchQueue, queueHandlers } from '../../../worker/jobs/queue';
import { CRON } from '../../../worker/jobs/scheduled';
import { createShop, db } from '../helpers';

afterEach(() => vi.restoreAllMocks());

const configs = import.meta.glob<string>('../../../wrangler*.toml', { query: '?raw', import: 'default', eager: true });
type Config = {
  queues: { producers: { queue: string }[]; consumers: { queue: string; dead_letter_queue?: string }[] };
  triggers?: { crons: string[] };
};
const http = parse(configs['../../../wrangler.toml']!) as Config;
const images = parse(configs['../../../wrangler.images.toml']!) as Config;

async function deliver(queue: string, messages: { id: string; body: unknown }[]) {
  const batch = createMessageBatch(
    queue,
    messages.map((m) => ({ ...m, timestamp: new Date(), attempts: 1 })),
  );
  const ctx = createExecutionContext();
  await dispatchQueue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

const cron = (scheduledTime: number) => createScheduledController({ cron: CRON.deadLetters, scheduledTime });

async function rowFor(queue: string, messageId: string) {
  return db()
    .select()
    .from(deadLetters)
    .where(eq(deadLetters.messageId, messageId))
    .all()
    .then((rows) => rows.find((r) => r.queue === queue));
}

describe('every queue has a dead-letter queue and a consumer', () => {
  it('each produced queue is consumed once (HTTP or image Worker), with a dead-letter queue that is consumed too', () => {
    const consumers = [
      ...http.queues.consumers.map((c) => ({ ...c, worker: 'http' })),
      ...images.queues.consumers.map((c) => ({ ...c, worker: 'images' })),
    ];
    const produced = new Set([...http.queues.producers, ...images.queues.producers].map((p) => p.queue));
    expect(produced.size).toBe(4);
    for (const queue of produced) {
      const mine = consumers.filter((c) => c.queue === queue);
      expect(mine, queue).toHaveLength(1);
      const dlq = mine[0]!.dead_letter_queue;
      expect(dlq, `${queue} has a dead_letter_queue`).toBe(`${queue}-dlq`);
      expect(
        http.queues.consumers.map((c) => c.queue),
        `${dlq} is consumed by the HTTP Worker`,
      ).toContain(dlq);
    }
    // Every consumed queue has its handler in the Worker that consumes it.
    for (const c of http.queues.consumers) expect(queueHandlers, c.queue).toHaveProperty([baseQueueName(c.queue)]);
    for (const c of images.queues.consumers) expect(imageQueueHandlers, c.queue).toHaveProperty([baseQueueName(c.queue)]);
    expect(http.triggers?.crons).toContain(CRON.deadLetters);
  });
});

describe('dead-letter consumers', () => {
  it('record each message once (a redelivery changes nothing), ack it, and mark a dead catalogue sync failed', async () => {
    const { shop } = await createShop();
    await db().insert(catalogueSyncs).values({ shopId: shop.id, status: 'running' });
    const id = crypto.randomUUID();
    const webhook = { type: 'webhook', webhookId: id, topic: 'app_subscriptions/update', shopDomain: shop.domain, payload: {} };
    for (let i = 0; i < 2; i++) {
      expect((await deliver('shopify-webhooks-dlq', [{ id: `w-${id}`, body: webhook }])).explicitAcks).toEqual([`w-${id}`]);
      expect(
        (await deliver('catalogue-sync-dlq', [{ id: `s-${id}`, body: { type: 'sync', shopId: shop.id } }])).explicitAcks,
      ).toEqual([`s-${id}`]);
      expect(
        (await deliver('pagespeed-check-dlq', [{ id: `p-${id}`, body: { type: 'check', shopId: shop.id, checkId: 7 } }]))
          .explicitAcks,
      ).toEqual([`p-${id}`]);
    }
    expect(await rowFor('shopify-webhooks', `w-${id}`)).toMatchObject({
      status: 'open',
      shop: shop.domain,
      kind: 'app_subscriptions/update',
      mustComplete: true, // a queued topic: retried until done
      body: JSON.stringify(webhook),
    });
    expect(await rowFor('catalogue-sync', `s-${id}`)).toMatchObject({ status: 'open', shop: String(shop.id), kind: 'sync' });
    expect(await rowFor('pagespeed-check', `p-${id}`)).toMatchObject({ status: 'open', kind: 'check' });
    const all = await db().select().from(deadLetters).all();
    expect(all.filter((r) => r.messageId.endsWith(id))).toHaveLength(3);
    expect(await db().select().from(catalogueSyncs).where(eq(catalogueSyncs.shopId, shop.id)).get()).toMatchObject({
      status: 'failed',
    });
  });

  it('a message that is not readable is still recorded, never dropped', async () => {
    const id = `junk-${crypto.randomUUID()}`;
    expect((await deliver('shopify-webhooks-dlq', [{ id, body: { hello: 'world' } }])).explicitAcks).toEqual([id]);
    expect(await rowFor('shopify-webhooks', id)).toMatchObject({ kind: 'unreadable', status: 'open' });
  });
});

describe('the dead-letter cron', () => {
  it('retries a dead shop/redact through the webhook consumer until it is done, with backoff, however often it fails', async () => {
    const { shop } = await createShop({ uninstalledAt: Date.now() - 49 * 3600_000 });
    await env.BUCKET.put(`originals/${shop.id}/a.jpg`, 'bytes');
    const messageId = `redact-${crypto.randomUUID()}`;
    // The delivery's record key (worker/webhooks/keys.ts) travels with the retried work.
    const key = `redact-key-${crypto.randomUUID()}`;
    const body = {
      type: 'webhook',
      webhookId: crypto.randomUUID(),
      key,
      topic: 'shop/redact',
      shopDomain: shop.domain,
      payload: { shop_domain: shop.domain },
    };
    await deliver('shopify-webhooks-dlq', [{ id: messageId, body }]);
    const row = (await rowFor('shopify-webhooks', messageId))!;
    expect(row).toMatchObject({ mustComplete: true, status: 'open' });

    // R2 fails twice: each run logs, counts and waits longer; nothing is dropped.
    const list = vi.spyOn(env.BUCKET, 'list').mockRejectedValue(new Error('R2 unavailable'));
    const t0 = row.nextRetryAt!;
    await deadLetterTask(cron(t0), env);
    expect(await findDeadLetter(db(), row.id)).toMatchObject({
      status: 'open',
      retries: 1,
      nextRetryAt: t0 + mustCompleteDelayMs(0),
      lastError: 'R2 unavailable',
    });
    await deadLetterTask(cron(t0 + mustCompleteDelayMs(0) - 1), env); // not due yet
    expect(await findDeadLetter(db(), row.id)).toMatchObject({ retries: 1 });
    const t1 = t0 + mustCompleteDelayMs(0);
    await deadLetterTask(cron(t1), env);
    expect(await findDeadLetter(db(), row.id)).toMatchObject({
      status: 'open',
      retries: 2,
      nextRetryAt: t1 + mustCompleteDelayMs(1),
    });
    expect(mustCompleteDelayMs(1)).toBe(2 * mustCompleteDelayMs(0));
    expect(mustCompleteDelayMs(50)).toBe(6 * 3600_000);
    expect(await findShopById(db(), shop.id)).toBeTruthy();

    list.mockRestore();
    await deadLetterTask(cron(t1 + mustCompleteDelayMs(1)), env);
    // Done, and nothing of the redacted shop stays in the record.
    expect(await findDeadLetter(db(), row.id)).toMatchObject({ status: 'done', nextRetryAt: null, shop: null, body: '{}' });
    expect(await findDelivery(db(), key)).toMatchObject({ status: 'done' });
    expect(await findDelivery(db(), body.webhookId)).toBeUndefined();
    expect(await findShopById(db(), shop.id)).toBeUndefined();
    expect(await env.BUCKET.get(`originals/${shop.id}/a.jpg`)).toBeNull();
  });

  it('a dead shop/redact that must still wait for its 48 hours waits, uncounted, then runs', async () => {
    const t0 = Date.now();
    const { shop } = await createShop({ uninstalledAt: t0 - 40 * 3600_000 });
    const messageId = `redact-wait-${crypto.randomUUID()}`;
    const body = { type: 'webhook', webhookId: crypto.randomUUID(), topic: 'shop/redact', shopDomain: shop.domain, payload: {} };
    await deliver('shopify-webhooks-dlq', [{ id: messageId, body }]);
    const row = (await rowFor('shopify-webhooks', messageId))!;
    await deadLetterTask(cron(row.nextRetryAt!), env);
    const waiting = (await findDeadLetter(db(), row.id))!;
    expect(waiting).toMatchObject({ status: 'open', retries: 0, lastError: null });
    // The handler's own wait: the 48 hours end 8 hours after t0 (to the second it rounds up to).
    expect(waiting.nextRetryAt! - (t0 + 8 * 3600_000)).toBeGreaterThanOrEqual(0);
    expect(waiting.nextRetryAt! - (t0 + 8 * 3600_000)).toBeLessThanOrEqual(1000);
    expect(await findShopById(db(), shop.id)).toBeTruthy();
    await deadLetterTask(cron(waiting.nextRetryAt!), env);
    expect(await findDeadLetter(db(), row.id)).toMatchObject({ status: 'done' });
    expect(await findShopById(db(), shop.id)).toBeUndefined();
  });

  it('re-sends the rows an operator asked to replay to their own queue, once', async () => {
    const { shop } = await createShop();
    const messageId = `replay-${crypto.randomUUID()}`;
    const body = { type: 'check', shopId: shop.id, checkId: 3 };
    await deliver('pagespeed-check-dlq', [{ id: messageId, body }]);
    const row = (await rowFor('pagespeed-check', messageId))!;
    await db().update(deadLetters).set({ status: 'replay' }).where(eq(deadLetters.id, row.id)); // what `npm run dead-letters -- replay` does
    const send = vi.spyOn(env.PAGESPEED_QUEUE, 'send').mockResolvedValue(undefined as never);
    await deadLetterTask(cron(Date.now()), env);
    await deadLetterTask(cron(Date.now()), env);
    expect(send.mock.calls.filter(([b]) => JSON.stringify(b) === JSON.stringify(body))).toHaveLength(1);
    expect(await findDeadLetter(db(), row.id)).toMatchObject({ status: 'replayed' });
  });
});

describe('the daily prune', () => {
  it('removes handled rows after 30 days and rows of shops that no longer exist, never open must-complete work', async () => {
    const { shop } = await createShop();
    const now = Date.now();
    const insert = (v: Partial<typeof deadLetters.$inferInsert>) =>
      db()
        .insert(deadLetters)
        .values({ queue: 'pagespeed-check', messageId: crypto.randomUUID(), kind: 'check', body: '{}', ...v })
        .returning()
        .get();
    const oldDone = await insert({ shop: String(shop.id), status: 'replayed', updatedAt: now - DEAD_LETTER_KEEP_MS - 1 });
    const recentDone = await insert({ shop: String(shop.id), status: 'done', updatedAt: now - 1000 });
    const open = await insert({ shop: shop.domain, status: 'open', updatedAt: now - DEAD_LETTER_KEEP_MS - 1 });
    const goneShop = await insert({ shop: 'redacted-shop.myshopify.com', status: 'open' });
    const goneButMust = await insert({ shop: 'redacted-shop.myshopify.com', status: 'open', mustComplete: true });
    await pruneDeadLettersTask(createScheduledController({ cron: CRON.expirySweep, scheduledTime: now }), env);
    expect(await findDeadLetter(db(), oldDone.id)).toBeUndefined();
    expect(await findDeadLetter(db(), goneShop.id)).toBeUndefined();
    for (const kept of [recentDone, open, goneButMust]) expect(await findDeadLetter(db(), kept.id)).toBeTruthy();
  });
});
