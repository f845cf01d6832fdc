// A webhook delivery as Shopify sends it (headers, base64 HMAC of the raw body with the app secret),
// posted into the in-process Worker; options forge or age it for the trust tests.
import { env } from 'cloudflare:test';
import { hmacSha256, toBase64 } from '../../../worker/lib/crypto';
import { deliveryKey } from '../../../worker/webhooks/keys';
import { call } from '../helpers';

export type DeliveryOptions = {
  id?: string;
  secret?: string;
  path?: string;
  /** Alters the body after signing. */
  tamper?: boolean;
  /** X-Shopify-Triggered-At; null leaves the header out. Default: now. */
  triggeredAt?: string | null;
  /** More request headers (e.g. CF-Connecting-IP, the client Cloudflare saw). */
  headers?: Record<string, string>;
};

export async function deliverWebhook(topic: string, shopDomain: string, payload: unknown, opts: DeliveryOptions = {}) {
  const body = JSON.stringify(payload);
  const hmac = toBase64(await hmacSha256(opts.secret ?? env.SHOPIFY_API_SECRET, body));
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Shopify-Topic': topic,
    'X-Shopify-Shop-Domain': shopDomain,
    'X-Shopify-Webhook-Id': opts.id ?? crypto.randomUUID(),
    'X-Shopify-Hmac-Sha256': hmac,
    'X-Shopify-API-Version': '2026-10',
    ...opts.headers,
  };
  const triggeredAt = opts.triggeredAt === undefined ? new Date().toISOString() : opts.triggeredAt;
  if (triggeredAt !== null) headers['X-Shopify-Triggered-At'] = triggeredAt;
  return call(opts.path ?? '/webhooks/shopify', {
    method: 'POST',
    headers,
    body: opts.tamper ? body.replace('}', ',"x":1}') : body,
  });
}

/** The `outcome` the Worker answered (processed, queued, duplicate, in_progress, ignored). */
export async function outcomeOf(res: Response | Promise<Response>): Promise<string> {
  return (await (await res).json<{ outcome: string }>()).outcome;
}

/**
 * The key the Worker records a delivery under (worker/webhooks/keys.ts): the id, or for body-keyed topics
 * a keyed hash of the body deliverWebhook signs. `installedAt`: the shop row's, for app/uninstalled and
 * shop/redact.
 */
export async function recordKeyOf(
  topic: string,
  shopDomain: string,
  payload: unknown,
  id: string,
  installedAt?: number | null,
): Promise<string> {
  return deliveryKey(
    env.SHOPIFY_API_SECRET,
    { topic, shopDomain, webhookId: id },
    new TextEncoder().encode(JSON.stringify(payload)),
    installedAt === undefined ? undefined : { installedAt },
  );
}
