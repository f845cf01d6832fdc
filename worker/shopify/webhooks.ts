// Shopify webhooks: one endpoint for every topic. The raw body's HMAC is checked in constant time,
// each X-Shopify-Webhook-Id is processed once, and anything heavy is queued so the answer is fast.
import type { Db } from '../db/client';
import { claimWebhook, releaseWebhook } from '../db/processed-webhooks';
import { applySubscriptionUpdate } from '../billing/subscription';
import { deleteShopData, findShopByDomain, markShopUninstalled, updateShopInfo, type ShopRow } from '../db/shops';
import { hmacSha256, timingSafeEqual, toBase64 } from '../lib/crypto';
import type { Logger } from '../lib/log';
import { shopPrefixes } from '../lib/r2-keys';
import { gid as toGid } from './operations/common';
import { enqueueSync, type ResourceChangedMessage } from './queue-messages';
import { isShopDomain } from './session-token';

export type WebhookEnv = Env;

export type WebhookDelivery = { topic: string; shopDomain: string; webhookId: string; payload: Record<string, unknown> };

/** Base64 HMAC-SHA256 of the exact bytes Shopify sent, compared in constant time. */
export async function verifyWebhookHmac(rawBody: Uint8Array, headerValue: string | null | undefined, secret: string): Promise<boolean> {
  if (!headerValue) return false;
  const expected = toBase64(await hmacSha256(secret, rawBody));
  return timingSafeEqual(expected, headerValue.trim());
}

/** Every prefix under which a shop's R2 objects live (README.md "R2 key convention"). */
export function allShopPrefixes(shopId: number): string[] {
  return [...shopPrefixes(shopId), `shops/${shopId}/`];
}

/** Deletes every R2 object under the shop's prefixes; returns how many were deleted. */
export async function deleteShopObjects(bucket: R2Bucket, shopId: number): Promise<number> {
  let deleted = 0;
  for (const prefix of allShopPrefixes(shopId)) {
    let cursor: string | undefined;
    do {
      const page = await bucket.list({ prefix, cursor, limit: 1000 });
      const keys = page.objects.map((o) => o.key);
      if (keys.length > 0) await bucket.delete(keys);
      deleted += keys.length;
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  }
  return deleted;
}

const RESOURCE_TOPICS: Record<string, { type: ResourceChangedMessage['type']; gidType: string }> = {
  'products/create': { type: 'product_changed', gidType: 'Product' },
  'products/update': { type: 'product_changed', gidType: 'Product' },
  'products/delete': { type: 'product_deleted', gidType: 'Product' },
  'collections/create': { type: 'collection_changed', gidType: 'Collection' },
  'collections/update': { type: 'collection_changed', gidType: 'Collection' },
  'collections/delete': { type: 'collection_deleted', gidType: 'Collection' },
};

/** Topics this app subscribes to (shopify.app.toml lists the same). */
export const WEBHOOK_TOPICS = [
  'app/uninstalled',
  'shop/update',
  'app_subscriptions/update',
  ...Object.keys(RESOURCE_TOPICS),
  'customers/data_request',
  'customers/redact',
  'shop/redact',
] as const;

type Handler = (env: WebhookEnv, db: Db, shop: ShopRow | undefined, d: WebhookDelivery, log: Logger) => Promise<void>;

const str = (v: unknown) => (v == null ? '' : String(v));

const handlers: Record<string, Handler> = {
  'app/uninstalled': async (_env, db, shop, d, log) => {
    if (!shop) return;
    await markShopUninstalled(db, shop.id);
    log.info('shop_uninstalled', { shop: d.shopDomain });
  },

  'shop/update': async (_env, db, shop, d) => {
    if (!shop || shop.uninstalledAt) return;
    const p = d.payload;
    const planName = str(p.plan_name);
    await updateShopInfo(db, shop.id, {
      ...(p.name != null ? { name: str(p.name) } : {}),
      ...(p.email != null ? { email: str(p.email) } : {}),
      ...(p.shop_owner != null ? { ownerName: str(p.shop_owner) } : {}),
      ...(p.domain != null ? { primaryDomain: `https://${str(p.domain)}` } : {}),
      ...(p.currency != null ? { currencyCode: str(p.currency) } : {}),
      ...(p.plan_display_name != null ? { shopifyPlan: str(p.plan_display_name) } : {}),
      ...(planName ? { isDevelopmentStore: planName === 'partner_test' || planName === 'affiliate' ? 1 : 0 } : {}),
    });
  },

  'app_subscriptions/update': async (env, db, shop, d, log) => {
    if (!shop) return;
    // The billing code owns plan levels: it asks Shopify for the current truth rather than trusting
    // the payload's order (worker/billing/subscription.ts).
    await applySubscriptionUpdate(env, db, d.shopDomain, d.payload, { log });
  },

  'customers/data_request': async (_env, _db, _shop, d, log) => {
    // The product stores no customer data: there is nothing to report beyond this log line.
    log.info('compliance_customers_data_request', { shop: d.shopDomain, dataRequest: (d.payload.data_request as { id?: unknown } | undefined)?.id ?? null, customerData: 'none stored' });
  },

  'customers/redact': async (_env, _db, _shop, d, log) => {
    log.info('compliance_customers_redact', { shop: d.shopDomain, customerData: 'none stored' });
  },

  'shop/redact': async (env, db, shop, d, log) => {
    if (!shop) {
      log.info('compliance_shop_redact', { shop: d.shopDomain, found: false });
      return;
    }
    // Objects first: if the row delete failed after them, the retry still finds the shop id.
    const objects = await deleteShopObjects(env.BUCKET, shop.id);
    await deleteShopData(db, shop.id, shop.domain);
    log.info('compliance_shop_redact', { shop: d.shopDomain, found: true, objects });
  },
};

for (const [topic, spec] of Object.entries(RESOURCE_TOPICS)) {
  handlers[topic] = async (env, _db, shop, d) => {
    if (!shop || shop.uninstalledAt) return;
    const id = str(d.payload.id);
    if (!id) return;
    await enqueueSync(env.SYNC_QUEUE, {
      type: spec.type,
      shopId: shop.id,
      resourceId: id,
      gid: str(d.payload.admin_graphql_api_id) || toGid(spec.gidType, id),
      updatedAt: d.payload.updated_at == null ? null : str(d.payload.updated_at),
      webhookId: d.webhookId,
    });
  };
}

export type WebhookOutcome = 'processed' | 'duplicate' | 'ignored';

/**
 * Handles one verified delivery. The id is claimed first (the dedupe); if the handler fails the claim
 * is released and the error rethrown, so Shopify's retry gets processed rather than skipped.
 */
export async function processWebhook(env: WebhookEnv, db: Db, d: WebhookDelivery, log: Logger): Promise<WebhookOutcome> {
  const handler = handlers[d.topic];
  if (!handler) {
    log.warn('webhook_unknown_topic', { topic: d.topic, shop: d.shopDomain });
    return 'ignored';
  }
  if (!(await claimWebhook(db, d.webhookId, d.shopDomain, d.topic))) return 'duplicate';
  try {
    await handler(env, db, await findShopByDomain(db, d.shopDomain), d, log);
    return 'processed';
  } catch (err) {
    await releaseWebhook(db, d.webhookId);
    throw err;
  }
}

export function validWebhookHeaders(topic: string | undefined, shopDomain: string | undefined, webhookId: string | undefined): boolean {
  return !!topic && /^[a-z_]+\/[a-z_]+$/.test(topic) && !!shopDomain && isShopDomain(shopDomain) && !!webhookId && webhookId.length <= 200;
}
