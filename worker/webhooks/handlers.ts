// What each webhook topic does. Light handlers (one or two D1 statements, or one queue send) run inside
// the request; heavy ones (Shopify calls, R2 paging) are QUEUED_TOPICS and run in the webhook queue's
// consumer (consumer.ts), so the answer to Shopify always comes well within its 5 s.
import { applySubscriptionUpdate } from '../billing/subscription';
import type { Db } from '../db/client';
import { deleteShopData, markShopUninstalled, updateShopInfo, type ShopRow } from '../db/shops';
import type { Logger } from '../lib/log';
import { shopPrefixes } from '../lib/r2-keys';
import { gid as toGid } from '../shopify/operations/common';
import { enqueueSync, type ResourceChangedMessage } from '../messages/catalogue-sync';

export type WebhookEnv = Env;

export type WebhookDelivery = { topic: string; shopDomain: string; webhookId: string; payload: Record<string, unknown> };

export type WebhookHandler = (
  env: WebhookEnv,
  db: Db,
  shop: ShopRow | undefined,
  d: WebhookDelivery,
  log: Logger,
) => Promise<void>;

/** Every prefix under which a shop's R2 objects live (worker/shopify/README.md "R2 key convention"). */
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

/**
 * The payload fields the product and collection handlers read. shopify.app.toml asks Shopify for only
 * these (`include_fields`); tests/worker/webhooks/conformance.test.ts holds the two together.
 */
export const RESOURCE_INCLUDE_FIELDS = ['id', 'admin_graphql_api_id', 'updated_at'] as const;

/** Topics whose work goes through the webhook queue (Shopify calls, many R2/D1 requests). */
export const QUEUED_TOPICS: ReadonlySet<string> = new Set(['app_subscriptions/update', 'shop/redact']);

/** A payload field as text (ids arrive as numbers); missing or an object: ''. */
const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

export const handlers: Record<string, WebhookHandler> = {
  'app/uninstalled': async (_env, db, shop, d, log) => {
    if (!shop) return;
    await markShopUninstalled(db, shop.id);
    log.info('shop_uninstalled', { shop: d.shopDomain });
  },

  // The merchant granted or removed optional scopes (or new required ones were granted): the stored grant
  // follows, so the "old install" check and the install landing see what Shopify sees.
  'app/scopes_update': async (_env, db, shop, d, log) => {
    if (!shop || shop.uninstalledAt) return;
    const current = (d.payload.current as unknown[]).map(String).join(',');
    await updateShopInfo(db, shop.id, { scopes: current });
    log.info('shop_scopes_updated', { shop: d.shopDomain, scopes: current });
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
      ...(planName ? { isDevelopmentStore: planName === 'partner_test' || planName === 'affiliate' } : {}),
    });
  },

  // Queued: asks Shopify for the current subscriptions.
  'app_subscriptions/update': async (env, db, shop, d, log) => {
    if (!shop) return;
    // The billing code owns plan levels: it asks Shopify for the current truth rather than trusting
    // the payload's order (worker/billing/subscription.ts).
    await applySubscriptionUpdate(env, db, d.shopDomain, d.payload, { log });
  },

  'customers/data_request': async (_env, _db, _shop, d, log) => {
    // The product stores no customer data: there is nothing to report beyond this log line.
    log.info('compliance_customers_data_request', {
      shop: d.shopDomain,
      dataRequest: (d.payload.data_request as { id?: unknown } | undefined)?.id ?? null,
      customerData: 'none stored',
    });
  },

  'customers/redact': async (_env, _db, _shop, d, log) => {
    log.info('compliance_customers_redact', { shop: d.shopDomain, customerData: 'none stored' });
  },

  // Queued: pages through every R2 object of the shop.
  'shop/redact': async (env, db, shop, d, log) => {
    if (!shop) {
      log.info('compliance_shop_redact', { shop: d.shopDomain, found: false });
      return;
    }
    // Shopify sends shop/redact 48 hours after an uninstall. For a shop that is installed, the request
    // cannot be Shopify's (or the shop came back): nothing is deleted.
    if (!shop.uninstalledAt) {
      log.warn('compliance_shop_redact_refused', { shop: d.shopDomain, reason: 'shop is installed' });
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

/** Topics this app handles: shopify.app.toml subscribes exactly these (tests/worker/webhooks/conformance.test.ts). */
export const WEBHOOK_TOPICS = Object.keys(handlers);
