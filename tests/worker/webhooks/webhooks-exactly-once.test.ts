// Exactly once per X-Shopify-Webhook-Id, also when Shopify gave up waiting (5 s) and retried while the
// first attempt was still running, and when an attempt died half way. Heavy topics answer at once and run
// in the webhook queue, where duplicate messages and failures are absorbed the same way.
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimWebhook } from '../../../worker/db/processed-webhooks';
import { processedWebhooks } from '../../../worker/db/schema';
import { findShopById } from '../../../worker/db/shops';
import { encryptSecret } from '../../../worker/lib/crypto';
import type { WebhookWorkMessage } from '../../../worker/messages/shopify-webhook';
import { createShop, db } from '../helpers';
import { installFakeShopify, recordSyncQueueSends } from '../shopify/fake-shopify';
import { deliverWebhook as deliver, outcomeOf, recordKeyOf } from './webhook-delivery';
import { consumeWebhookMessages, recordWebhookQueue } from './webhook-queue';

const sent = recordSyncQueueSends();
const queue = recordWebhookQueue();
let fake: ReturnType<typeof installFakeShopify> | undefined;
afterEach(() => {
  fake?.restore();
  fake = undefined;
  vi.restoreAllMocks();
});

const product = { id: 7, admin_graphql_api_id: 'gid://shopify/Product/7', updated_at: '2026-11-21T08:00:00Z' };
const status = async (id: string) =>
  (await db().select().from(processedWebhooks).where(eq(processedWebhooks.webhookId, id)).get())?.status;

/** A shop on a paid plan whose Shopify answers that no subscription is active; counts Shopify's calls. */
async function cancellingShop() {
  fake = installFakeShopify({
    graphql: ({ query }) =>
      query.includes('activeSubscriptions')
        ? { data: { currentAppInstallation: { id: 'gid://shopify/AppInstallation/1', activeSubscriptions: [] } } }
        : undefined,
  });
  const subId = 'gid://shopify/AppSubscription/55';
  const { shop } = await createShop({
    planLevel: 3,
    subscriptionId: subId,
    subscriptionStatus: 'ACTIVE',
    accessTokenEnc: await encryptSecret(env.TOKEN_ENCRYPTION_KEY, 'shpat_live'),
    scopes: env.SHOPIFY_SCOPES,
  });
  return { shop, payload: { app_subscription: { admin_graphql_api_id: subId, name: 'Premium', status: 'CANCELLED' } } };
}

describe('inline topics', () => {
  it('a retry arriving while the first attempt still runs is told to come back (503), then is a duplicate: the work runs once', async () => {
    const { shop } = await createShop();
    const id = crypto.randomUUID();
    // The first attempt's handler hangs (as if past Shopify's 5 s) until released.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    vi.mocked(env.SYNC_QUEUE.send).mockImplementationOnce(async (m: unknown) => {
      await held;
      sent.push(m);
      return undefined as never;
    });
    const first = deliver('products/update', shop.domain, product, { id });
    await vi.waitUntil(async () => (await status(id)) === 'received');
    const retry = await deliver('products/update', shop.domain, product, { id });
    expect(retry.status).toBe(503);
    expect(retry.headers.get('Retry-After')).toBe('60');
    release();
    expect(await outcomeOf(first)).toBe('processed');
    expect(await outcomeOf(deliver('products/update', shop.domain, product, { id }))).toBe('duplicate');
    expect(sent).toHaveLength(1);
  });

  it('an attempt that died half way (its lease ran out) does not block the retry: the retry does the work', async () => {
    const { shop } = await createShop();
    const id = crypto.randomUUID();
    expect(await claimWebhook(db(), id, shop.domain, 'products/update', Date.now() - 120_000)).toBe(true);
    expect(await outcomeOf(deliver('products/update', shop.domain, product, { id }))).toBe('processed');
    expect(sent).toHaveLength(1);
    expect(await status(id)).toBe('done');
  });
});

describe('queued topics (app_subscriptions/update, shop/redact)', () => {
  it('answer without calling Shopify; a retry of the same id while the work waits in the queue is a duplicate; the work runs once', async () => {
    const { shop, payload } = await cancellingShop();
    const id = crypto.randomUUID();
    // Recorded under its signed body's key (worker/webhooks/keys.ts), not the unsigned id.
    const key = await recordKeyOf('app_subscriptions/update', shop.domain, payload, id);
    expect(await outcomeOf(deliver('app_subscriptions/update', shop.domain, payload, { id }))).toBe('queued');
    expect(fake!.stats.graphql).toBe(0);
    expect(await status(key)).toBe('queued');
    expect(await outcomeOf(deliver('app_subscriptions/update', shop.domain, payload, { id }))).toBe('duplicate');
    expect(queue.sent).toHaveLength(1);
    await queue.drain();
    expect(fake!.stats.graphql).toBe(1);
    expect((await findShopById(db(), shop.id))!.planLevel).toBe(0);
    expect(await status(key)).toBe('done');
  });

  it('the delivery is not recorded before its work is durably enqueued: a failed send answers 500 and the retry enqueues', async () => {
    const { shop, payload } = await cancellingShop();
    const id = crypto.randomUUID();
    vi.mocked(env.WEBHOOK_QUEUE.send).mockRejectedValueOnce(new Error('queue unavailable'));
    expect((await deliver('app_subscriptions/update', shop.domain, payload, { id })).status).toBe(500);
    expect(await status(await recordKeyOf('app_subscriptions/update', shop.domain, payload, id))).toBeUndefined();
    expect(await outcomeOf(deliver('app_subscriptions/update', shop.domain, payload, { id }))).toBe('queued');
    expect(queue.sent.map((m) => m.webhookId)).toEqual([id]);
  });

  it('the same work enqueued twice (two attempts both enqueued) runs once', async () => {
    const { shop, payload } = await cancellingShop();
    const m: WebhookWorkMessage = {
      type: 'webhook',
      webhookId: crypto.randomUUID(),
      topic: 'app_subscriptions/update',
      shopDomain: shop.domain,
      payload,
    };
    const result = await consumeWebhookMessages([m, { ...m }]);
    expect(result.explicitAcks).toHaveLength(2);
    expect(fake!.stats.graphql).toBe(1);
    // And a third copy, later: still once.
    await consumeWebhookMessages([{ ...m }]);
    expect(fake!.stats.graphql).toBe(1);
  });

  it('a failed run gives the work back to the queue (retried, not acknowledged); the retry completes it', async () => {
    const { shop } = await createShop({ uninstalledAt: Date.now() - 48 * 3600_000 });
    await env.BUCKET.put(`originals/${shop.id}/a.jpg`, 'x');
    const m: WebhookWorkMessage = {
      type: 'webhook',
      webhookId: crypto.randomUUID(),
      topic: 'shop/redact',
      shopDomain: shop.domain,
      payload: { shop_id: 1, shop_domain: shop.domain },
    };
    vi.spyOn(env.BUCKET, 'list').mockRejectedValueOnce(new Error('R2 unavailable'));
    const failed = await consumeWebhookMessages([m]);
    expect(failed.explicitAcks).toHaveLength(0);
    expect(failed.retryMessages).toHaveLength(1);
    expect(await status(m.webhookId)).toBe('queued');
    expect(await findShopById(db(), shop.id)).toBeTruthy();
    const retried = await consumeWebhookMessages([m], 2);
    expect(retried.explicitAcks).toHaveLength(1);
    expect(await findShopById(db(), shop.id)).toBeUndefined();
    expect((await env.BUCKET.list({ prefix: `originals/${shop.id}/` })).objects).toHaveLength(0);
  });

  it('a copy of the message while another consumer runs it is retried later, not acknowledged (that run may still fail)', async () => {
    const { shop, payload } = await cancellingShop();
    const m: WebhookWorkMessage = {
      type: 'webhook',
      webhookId: crypto.randomUUID(),
      topic: 'app_subscriptions/update',
      shopDomain: shop.domain,
      payload,
    };
    await db()
      .insert(processedWebhooks)
      .values({
        webhookId: m.webhookId,
        shopDomain: shop.domain,
        topic: m.topic,
        status: 'running',
        leaseUntil: Date.now() + 60_000,
      });
    const busy = await consumeWebhookMessages([m]);
    expect(busy.explicitAcks).toHaveLength(0);
    expect(busy.retryMessages).toHaveLength(1);
    expect(fake!.stats.graphql).toBe(0);
    // Once that holder's lease has run out (it died), the copy takes the work over.
    await db()
      .update(processedWebhooks)
      .set({ leaseUntil: Date.now() - 1 })
      .where(eq(processedWebhooks.webhookId, m.webhookId));
    expect((await consumeWebhookMessages([m], 2)).explicitAcks).toHaveLength(1);
    expect(fake!.stats.graphql).toBe(1);
  });
});
