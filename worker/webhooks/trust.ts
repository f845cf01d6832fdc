// What a webhook may be trusted for. Shopify's HMAC covers the body only: X-Shopify-Topic,
// X-Shopify-Shop-Domain, X-Shopify-Webhook-Id and X-Shopify-Triggered-At are not signed. So a signed body
// captured once could be replayed under another topic or shop (a shop/update body posted as
// app/uninstalled for a different shop would uninstall it). Where the signed payload names the shop or
// can only belong to certain topics, the headers must agree with it.

/** Shopify retries a failed delivery 8 times over 4 hours, with the original X-Shopify-Triggered-At. */
export const WEBHOOK_FRESHNESS_MS = 6 * 60 * 60 * 1000;
/** Clock skew tolerated for a Triggered-At in the future. */
export const WEBHOOK_FUTURE_SKEW_MS = 5 * 60 * 1000;

export type TrustVerdict = { ok: true } | { ok: false; reason: string };

const OK: TrustVerdict = { ok: true };
const refuse = (reason: string): TrustVerdict => ({ ok: false, reason });

/**
 * Older than the freshness window (or further in the future than clock skew explains): refused. A missing
 * header is accepted: it is not signed, so requiring it would keep out no forger, only a Shopify change.
 */
export function checkFreshness(triggeredAt: string | null | undefined, now = Date.now()): TrustVerdict {
  if (!triggeredAt) return OK;
  const at = Date.parse(triggeredAt);
  if (Number.isNaN(at)) return refuse('X-Shopify-Triggered-At is not a date');
  if (now - at > WEBHOOK_FRESHNESS_MS) return refuse('Webhook delivery is older than the freshness window');
  if (at - now > WEBHOOK_FUTURE_SKEW_MS) return refuse('X-Shopify-Triggered-At is in the future');
  return OK;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : undefined);

/** The signed payload must name this shop (`field`), and must name it. */
function namesShop(payload: Record<string, unknown>, field: string, shopDomain: string): TrustVerdict {
  const signed = lower(payload[field]);
  if (!signed) return refuse(`Signed payload carries no ${field}`);
  return signed === shopDomain ? OK : refuse(`Signed payload is for another shop`);
}

/** The gid the payload carries, when it has one, must be of the topic's resource type. */
function gidOfType(payload: Record<string, unknown>, type: string): TrustVerdict {
  if (payload.id == null) return refuse('Signed payload carries no id');
  const gid = payload.admin_graphql_api_id;
  if (gid == null) return OK; // delete payloads carry only the id
  return typeof gid === 'string' && gid.startsWith(`gid://shopify/${type}/`) ? OK : refuse(`Signed payload is not a ${type}`);
}

/** Compliance payloads: which keys each topic's body has (Shopify's documented shapes). */
function compliance(payload: Record<string, unknown>, shopDomain: string, has: string[], lacks: string[]): TrustVerdict {
  for (const k of has) if (!(k in payload)) return refuse(`Signed payload is not this topic's (no ${k})`);
  for (const k of lacks) if (k in payload) return refuse(`Signed payload is not this topic's (${k})`);
  return namesShop(payload, 'shop_domain', shopDomain);
}

const RULES: Record<string, (p: Record<string, unknown>, shopDomain: string) => TrustVerdict> = {
  // A Shop resource: it names the shop.
  'app/uninstalled': (p, shop) => namesShop(p, 'myshopify_domain', shop),
  'shop/update': (p, shop) => namesShop(p, 'myshopify_domain', shop),
  'app/scopes_update': (p) => (Array.isArray(p.current) ? OK : refuse('Signed payload is not a scopes update')),
  'app_subscriptions/update': (p) => (isObject(p.app_subscription) ? OK : refuse('Signed payload is not a subscription update')),
  'products/create': (p) => gidOfType(p, 'Product'),
  'products/update': (p) => gidOfType(p, 'Product'),
  'products/delete': (p) => gidOfType(p, 'Product'),
  'collections/create': (p) => gidOfType(p, 'Collection'),
  'collections/update': (p) => gidOfType(p, 'Collection'),
  'collections/delete': (p) => gidOfType(p, 'Collection'),
  'customers/data_request': (p, shop) => compliance(p, shop, ['data_request', 'customer'], []),
  'customers/redact': (p, shop) => compliance(p, shop, ['customer'], ['data_request']),
  'shop/redact': (p, shop) => compliance(p, shop, ['shop_id'], ['customer', 'data_request']),
};

/** The unsigned topic and shop headers checked against the signed payload. */
export function checkSignedPayload(topic: string, shopDomain: string, payload: unknown): TrustVerdict {
  if (!isObject(payload)) return refuse('Signed payload is not an object');
  const rule = RULES[topic];
  return rule ? rule(payload, shopDomain) : OK;
}
