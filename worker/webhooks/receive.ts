// Shopify webhooks: one endpoint for every topic (shopify.app.toml). The raw body's HMAC is checked in
// constant time, the unsigned headers are checked against the signed payload (trust.ts), and
// each X-Shopify-Webhook-Id is handled exactly once: light topics inline, heavy ones through the webhook
// queue (consumer.ts), so Shopify gets its answer well within 5 s.
import type { Db } from '../db/client';
import { advanceDelivery, claimWebhookWithShop, findDelivery, releaseWebhook } from '../db/processed-webhooks';
import { hmacSha256, timingSafeEqual, toBase64 } from '../lib/crypto';
import type { Logger } from '../lib/log';
import { handlers, QUEUED_TOPICS, type WebhookDelivery, type WebhookEnv } from './handlers';
import { enqueueWebhookWork } from './consumer';
import { isShopDomain } from '../auth/session-token';

export { allShopPrefixes, deleteShopObjects, WEBHOOK_TOPICS, type WebhookDelivery, type WebhookEnv } from './handlers';

/** Base64 HMAC-SHA256 of the exact bytes Shopify sent, compared in constant time. */
export async function verifyWebhookHmac(
  rawBody: Uint8Array,
  headerValue: string | null | undefined,
  secret: string,
): Promise<boolean> {
  if (!headerValue) return false;
  const expected = toBase64(await hmacSha256(secret, rawBody));
  return timingSafeEqual(expected, headerValue.trim());
}

/**
 * processed: handled inline; queued: its work is durably on the webhook queue; duplicate: this id was
 * handled or queued before; in_progress: another attempt of this id holds it right now (its work may
 * still fail, so Shopify must come back: answered 503); ignored: a topic this app does not handle.
 */
export type WebhookOutcome = 'processed' | 'queued' | 'duplicate' | 'in_progress' | 'ignored';

/**
 * Handles one verified delivery. The id is claimed first; only when its work is done (inline) or durably
 * enqueued is it recorded as such. If the work fails the claim is released and the error rethrown, so
 * Shopify's retry gets processed rather than skipped. A retry that arrives while the first attempt is
 * still running (Shopify gave up waiting after 5 s) finds a live claim and is told to come back.
 */
export async function processWebhook(
  env: WebhookEnv,
  db: Db,
  d: WebhookDelivery,
  log: Logger,
  now = Date.now(),
): Promise<WebhookOutcome> {
  const handler = handlers[d.topic];
  if (!handler) {
    log.warn('webhook_unknown_topic', { topic: d.topic, shop: d.shopDomain });
    return 'ignored';
  }
  const { claimed, shop } = await claimWebhookWithShop(db, d.webhookId, d.shopDomain, d.topic, now);
  if (!claimed) {
    const seen = await findDelivery(db, d.webhookId);
    return seen && seen.status !== 'received' ? 'duplicate' : 'in_progress';
  }
  try {
    if (QUEUED_TOPICS.has(d.topic)) {
      await enqueueWebhookWork(env.WEBHOOK_QUEUE, d);
      await advanceDelivery(db, d.webhookId, 'received', 'queued');
      return 'queued';
    }
    await handler(env, db, shop, d, log);
    await advanceDelivery(db, d.webhookId, 'received', 'done');
    return 'processed';
  } catch (err) {
    await releaseWebhook(db, d.webhookId);
    throw err;
  }
}

export function validWebhookHeaders(
  topic: string | undefined,
  shopDomain: string | undefined,
  webhookId: string | undefined,
): boolean {
  return (
    !!topic &&
    /^[a-z_]+\/[a-z_]+$/.test(topic) &&
    !!shopDomain &&
    isShopDomain(shopDomain) &&
    !!webhookId &&
    webhookId.length <= 200
  );
}
