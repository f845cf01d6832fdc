// What each webhook topic does. Light handlers (one or two D1 statements, or one queue send) run inside
// the request; heavy ones (Shopify calls, R2 paging) are QUEUED_TOPICS and run in the webhook queue's
// consumer (consumer.ts), so the answer to Shopify always comes well within its 5 s.
import { applySubscriptionUpdate } from '../billing/subscription';
import { discountOfferEndsAt } from '../billing/discount';
import type { Db } from '../db/client';
import { updateShopBilling } from '../db/shop-billing';
import { redactedShopRecord } from '../db/redacted-shops';
import { deleteShopData, markShopUninstalled, updateShopInfo, type ShopRow } from '../db/shops';
import type { Logger } from '../lib/log';
import { shopPrefixes } from '../lib/r2-keys';
import { gid as toGid } from '../shopify/operations/common';
import { askShopifyForGrant } from './grant';
import type { WebhookWorkMessage } from '../messages/shopify-webhook';
import { enqueueSync, type ResourceChangedMessage } from '../messages/catalogue-sync';

export type WebhookEnv = Env;

export type WebhookDelivery = {
  topic: string;
  shopDomain: string;
  webhookId: string;
  /** The key the delivery is recorded under when it is not the id (receive.ts `deliveryKey`). */
  key?: string;
  payload: Record<string, unknown>;
};

/**
 * What a handler did. Nothing returned: it acted. 'unchanged': it decided to change nothing (a shop that
 * is not ours or not installed, a replay Shopify contradicts); such a delivery leaves no record behind, so
 * it can never shadow a later genuine delivery with the same signed body (receive.ts, delivery keys).
 */
export type HandlerResult = void | 'unchanged';

export type WebhookHandler = (
  env: WebhookEnv,
  db: Db,
  shop: ShopRow | undefined,
  d: WebhookDelivery,
  log: Logger,
  now: number,
) => Promise<HandlerResult>;

/** Thrown by a queued handler whose work must wait: the consumer gives the delivery back to the queue with this delay. */
export class WebhookRetryLater extends Error {
  constructor(
    readonly delaySeconds: number,
    reason: string,
  ) {
    super(reason);
    this.name = 'WebhookRetryLater';
  }
}

/** Shopify sends shop/redact 48 hours after an uninstall; it is acted on only that long after ours was confirmed. */
export const SHOP_REDACT_AFTER_MS = 48 * 60 * 60_000;
/**
 * A shop/redact that arrives at most this long before 48 hours have passed since the confirmed uninstall
 * is put back on the queue until then (Cloudflare Queues delay a message by 12 hours at most): our
 * confirmation comes after Shopify's uninstall (its webhook retries, our queue's retries), so a genuine
 * shop/redact can arrive a little before our 48 hours are up. One that comes earlier is not Shopify's.
 */
export const SHOP_REDACT_WAIT_MAX_MS = 12 * 60 * 60_000;

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
export const QUEUED_TOPICS: ReadonlySet<string> = new Set(['app/uninstalled', 'app_subscriptions/update', 'shop/redact']);

/** A payload field as text (ids arrive as numbers); missing or an object: ''. */
const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

export const handlers: Record<string, WebhookHandler> = {
  // Queued: asks Shopify. The body proves only that Shopify once sent it (it may be a replay years old):
  // the shop is uninstalled here only when Shopify refuses its token. A token Shopify still accepts means
  // the shop is installed (or came back): nothing changes. 429/5xx/network failures are thrown and retried.
  'app/uninstalled': async (env, db, shop, d, log, now) => {
    if (!shop) {
      log.info('shop_uninstall_ignored', { shop: d.shopDomain, reason: 'unknown shop' });
      return 'unchanged';
    }
    if (shop.uninstalledAt) {
      log.info('shop_uninstall_ignored', {
        shop: d.shopDomain,
        reason: 'already uninstalled',
        uninstalledAt: shop.uninstalledAt,
      });
      return 'unchanged';
    }
    const answer = await askShopifyForGrant(env, db, shop);
    if (answer.grant !== 'refused') {
      log.warn('shop_uninstall_unconfirmed', {
        shop: d.shopDomain,
        grant: answer.grant,
        reason: answer.grant === 'accepted' ? 'Shopify still accepts the shop token' : answer.reason,
      });
      return 'unchanged';
    }
    if (!(await markShopUninstalled(db, shop.id, now, shop.accessTokenEnc))) {
      log.warn('shop_uninstall_unconfirmed', { shop: d.shopDomain, reason: 'the shop row changed while Shopify was asked' });
      return 'unchanged';
    }
    log.info('shop_uninstalled', { shop: d.shopDomain, confirmedAt: now });
  },

  // The merchant granted or removed optional scopes (or new required ones were granted): the stored grant
  // follows, so the "old install" check and the install landing see what Shopify sees.
  'app/scopes_update': async (_env, db, shop, d, log) => {
    if (!shop || shop.uninstalledAt) return 'unchanged';
    const current = (d.payload.current as unknown[]).map(String).join(',');
    await updateShopInfo(db, shop.id, { scopes: current });
    log.info('shop_scopes_updated', { shop: d.shopDomain, scopes: current });
  },

  'shop/update': async (env, db, shop, d, log) => {
    if (!shop || shop.uninstalledAt) return 'unchanged';
    const p = d.payload;
    const planName = str(p.plan_name);
    const development = planName === 'partner_test' || planName === 'affiliate';
    // A development store that became a paying store (issue 25, item 12): its test subscription no longer
    // counts as a paid plan. The test-only mark goes, and the subscription is checked again with Shopify
    // (queued: it asks Shopify) under a key of its own, once per delivery.
    if (planName && !development && shop.isDevelopmentStore) {
      await updateShopBilling(db, shop.id, { isDevelopmentStore: false, testChargesOnly: false });
      if (shop.planLevel > 0 || shop.pendingPlanLevel !== null)
        await env.WEBHOOK_QUEUE.send(
          {
            type: 'webhook',
            topic: 'app_subscriptions/update',
            shopDomain: shop.domain,
            webhookId: `plan-recheck:${d.key ?? d.webhookId}`,
            payload: {},
          } satisfies WebhookWorkMessage,
          { contentType: 'json' },
        );
      log.info('shop_left_development', { shop: d.shopDomain, planName, planLevel: shop.planLevel });
    }
    await updateShopInfo(db, shop.id, {
      ...(p.name != null ? { name: str(p.name) } : {}),
      ...(p.email != null ? { email: str(p.email) } : {}),
      ...(p.shop_owner != null ? { ownerName: str(p.shop_owner) } : {}),
      ...(p.domain != null ? { primaryDomain: `https://${str(p.domain)}` } : {}),
      ...(p.currency != null ? { currencyCode: str(p.currency) } : {}),
      ...(p.plan_display_name != null ? { shopifyPlan: str(p.plan_display_name) } : {}),
      ...(planName ? { isDevelopmentStore: development } : {}),
    });
  },

  // Queued: asks Shopify for the current subscriptions.
  'app_subscriptions/update': async (env, db, shop, d, log) => {
    if (!shop) return 'unchanged';
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

  // Queued: pages through every R2 object of the shop. Only for a shop whose uninstall Shopify confirmed
  // (app/uninstalled above) at least 48 hours ago: Shopify sends shop/redact 48 hours after an uninstall,
  // and not at all when the merchant reinstalled. `uninstalledAt` is the newest confirmed uninstall (a
  // reinstall clears it), so a replay after reinstall, or after reinstall and a new uninstall, waits for
  // the 48 hours of the newest one, as Shopify's own would.
  'shop/redact': async (env, db, shop, d, log, now) => {
    if (!shop) {
      log.info('compliance_shop_redact', { shop: d.shopDomain, found: false });
      return 'unchanged';
    }
    if (!shop.uninstalledAt) {
      log.warn('compliance_shop_redact_refused', { shop: d.shopDomain, reason: 'shop is installed' });
      return 'unchanged';
    }
    const wait = shop.uninstalledAt + SHOP_REDACT_AFTER_MS - now;
    if (wait > 0) {
      const fields = { shop: d.shopDomain, confirmedUninstallAt: shop.uninstalledAt, waitSeconds: Math.ceil(wait / 1000) };
      if (wait <= SHOP_REDACT_WAIT_MAX_MS) {
        log.info('compliance_shop_redact_deferred', { ...fields, reason: 'uninstall confirmed less than 48 hours ago' });
        throw new WebhookRetryLater(Math.ceil(wait / 1000), 'uninstall confirmed less than 48 hours ago');
      }
      log.warn('compliance_shop_redact_refused', { ...fields, reason: 'uninstall confirmed less than 36 hours ago' });
      return 'unchanged';
    }
    // Objects first: if the row delete failed after them, the retry still finds the shop id.
    const objects = await deleteShopObjects(env.BUCKET, shop.id);
    const keep = await redactedShopRecord(db, env.TOKEN_ENCRYPTION_KEY, shop, discountOfferEndsAt(shop), now);
    await deleteShopData(db, shop.id, shop.domain, keep);
    log.info('compliance_shop_redact', { shop: d.shopDomain, found: true, objects });
  },
};

for (const [topic, spec] of Object.entries(RESOURCE_TOPICS)) {
  handlers[topic] = async (env, _db, shop, d) => {
    if (!shop || shop.uninstalledAt) return 'unchanged';
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
