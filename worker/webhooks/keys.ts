// What a webhook delivery is recognised by. Shopify's HMAC covers the body only: X-Shopify-Webhook-Id
// is not signed, so for the topics whose replay could change something the record key is derived from the
// signed bytes, and a captured body replayed under a new id (and no or an old X-Shopify-Triggered-At)
// finds the record of its first delivery.
import type { ShopRow } from '../db/shops';
import { hmacSha256, toHex } from '../lib/crypto';

/**
 * Topics whose deliveries are recognised by what is signed: Shopify's HMAC covers the body only, so a
 * captured body replayed under a new X-Shopify-Webhook-Id (and no or an old X-Shopify-Triggered-At)
 * would otherwise pass as new. Products and collections keep the id: their handlers only ask the
 * catalogue to fetch what Shopify serves now (a replay changes nothing), and two genuine updates within
 * one second carry the same body (`include_fields`: id, gid, updated_at to the second).
 */
export const BODY_KEYED_TOPICS: ReadonlySet<string> = new Set([
  'app/uninstalled',
  'app/scopes_update',
  'shop/update',
  'app_subscriptions/update',
  'customers/data_request',
  'customers/redact',
  'shop/redact',
]);

/**
 * Topics whose genuine body repeats word for word in a later install of the same shop (the Shop resource
 * when nothing about the shop changed; `{shop_id, shop_domain}`): their key also names the install
 * (`installedAt`, changed by every reinstall), so the uninstall after a reinstall is not mistaken for a
 * replay of the one before.
 */
export const PER_INSTALL_TOPICS: ReadonlySet<string> = new Set(['app/uninstalled', 'shop/redact']);

/** The processed_webhooks key of body-keyed deliveries starts with this (Shopify's ids are UUIDs). */
export const BODY_KEY_PREFIX = 'body:';

/**
 * The key a delivery is recorded under: for BODY_KEYED_TOPICS a keyed hash (HMAC with the app secret, so
 * the record says nothing about the shop) of the topic, the shop, the install and the exact signed bytes;
 * otherwise the webhook id.
 */
export async function deliveryKey(
  secret: string,
  d: { topic: string; shopDomain: string; webhookId: string },
  rawBody: Uint8Array,
  shop: Pick<ShopRow, 'installedAt'> | undefined,
): Promise<string> {
  if (!BODY_KEYED_TOPICS.has(d.topic)) return d.webhookId;
  const install = PER_INSTALL_TOPICS.has(d.topic) ? String(shop?.installedAt ?? '-') : '';
  const head = new TextEncoder().encode(`webhook-delivery\n${d.topic}\n${d.shopDomain}\n${install}\n`);
  const message = new Uint8Array(head.length + rawBody.length);
  message.set(head);
  message.set(rawBody, head.length);
  return BODY_KEY_PREFIX + toHex(await hmacSha256(secret, message));
}

/** A body-keyed record keeps no shop domain: it may outlive the shop's data (shop/redact). */
export function recordedShop(key: string, shopDomain: string): string {
  return key.startsWith(BODY_KEY_PREFIX) ? '' : shopDomain;
}
