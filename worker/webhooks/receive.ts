// Shopify webhooks: one endpoint for every topic (shopify.app.toml). The raw body's HMAC is checked in
// constant time, the unsigned headers are checked against the signed payload (trust.ts), and each
// delivery is handled exactly once, recognised by its id or, where a replay could change something, by
// its signed body (keys.ts): light topics inline, heavy ones through the webhook queue (consumer.ts), so
// Shopify gets its answer well within 5 s.
import type { Db } from '../db/client';
import { advanceDelivery, claimWebhookWithShop, findDelivery, finishDelivery, releaseWebhook } from '../db/processed-webhooks';
import { findShopByDomain } from '../db/shops';
import { hmacSha256, timingSafeEqual, toBase64 } from '../lib/crypto';
import type { Logger } from '../lib/log';
import { handlers, QUEUED_TOPICS, type WebhookDelivery, type WebhookEnv } from './handlers';
import { enqueueWebhookWork } from './consumer';
import { deliveryKey, PER_INSTALL_TOPICS, recordedShop } from './keys';
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
 * processed: handled inline; queued: its work is durably on the webhook queue; duplicate: this delivery
 * (its id, or for the topics below its signed body) was handled or queued before; in_progress: another
 * attempt holds it right now (its work may still fail, so Shopify must come back: answered 503);
 * ignored: a topic this app does not handle.
 */
export type WebhookOutcome = 'processed' | 'queued' | 'duplicate' | 'in_progress' | 'ignored';

/**
 * Handles one verified delivery. It is claimed first under its key (deliveryKey); only when its work is
 * done (inline) or durably enqueued is it recorded as such. If the work fails the claim is released and
 * the error rethrown, so Shopify's retry gets processed rather than skipped. A retry that arrives while
 * the first attempt is still running (Shopify gave up waiting after 5 s) finds a live claim and is told
 * to come back. A handler that changed nothing ('unchanged') leaves no record of a body-keyed delivery.
 */
export async function processWebhook(
  env: WebhookEnv,
  db: Db,
  d: WebhookDelivery,
  rawBody: Uint8Array,
  log: Logger,
  now = Date.now(),
): Promise<WebhookOutcome> {
  const handler = handlers[d.topic];
  if (!handler) {
    log.warn('webhook_unknown_topic', { topic: d.topic, shop: d.shopDomain });
    return 'ignored';
  }
  const installOf = PER_INSTALL_TOPICS.has(d.topic) ? await findShopByDomain(db, d.shopDomain) : undefined;
  const key = await deliveryKey(env.SHOPIFY_API_SECRET, d, rawBody, installOf);
  const delivery = { ...d, key };
  const { claimed, shop } = await claimWebhookWithShop(db, key, d.shopDomain, d.topic, now, recordedShop(key, d.shopDomain));
  if (!claimed) {
    const seen = await findDelivery(db, key);
    const outcome = seen && seen.status !== 'received' ? 'duplicate' : 'in_progress';
    if (key !== d.webhookId) log.info('webhook_same_body', { outcome });
    return outcome;
  }
  try {
    if (QUEUED_TOPICS.has(d.topic)) {
      await enqueueWebhookWork(env.WEBHOOK_QUEUE, delivery);
      await advanceDelivery(db, key, 'received', 'queued');
      return 'queued';
    }
    const result = await handler(env, db, shop, delivery, log, now);
    await finishDelivery(db, key, 'received', result === 'unchanged' && key !== d.webhookId);
    return 'processed';
  } catch (err) {
    await releaseWebhook(db, key);
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
