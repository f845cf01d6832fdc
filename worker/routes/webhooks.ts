import { Hono, type Context } from 'hono';
import { verbatim } from '../../shared/messages';
import { ApiError, apiError } from '../lib/errors';
import { processWebhook, validWebhookHeaders, verifyWebhookHmac } from '../webhooks/receive';
import { checkFreshness, checkSignedPayload } from '../webhooks/trust';
import type { AppEnv } from '../types';

// /webhooks/*: Shopify webhooks (HMAC-checked raw body, headers checked against the signed payload,
// exactly once per delivery, by id or by signed body: worker/webhooks/keys.ts). Refusals other than the HMAC one are read by Shopify's delivery
// system only, never by a merchant: their texts go verbatim (shared/messages.ts). shopify.app.toml subscribes every topic to /webhooks/shopify;
// plain /webhooks is accepted as well.
export const webhooksRoutes = new Hono<AppEnv>();

async function receive(c: Context<AppEnv>) {
  // The HMAC covers the exact bytes: read the raw body before anything parses it.
  const raw = new Uint8Array(await c.req.arrayBuffer());
  if (!(await verifyWebhookHmac(raw, c.req.header('X-Shopify-Hmac-Sha256'), c.env.SHOPIFY_API_SECRET))) {
    throw apiError(401, 'server.auth.hmacFailed');
  }
  const topic = c.req.header('X-Shopify-Topic')?.toLowerCase();
  const shopDomain = c.req.header('X-Shopify-Shop-Domain')?.toLowerCase();
  const webhookId = c.req.header('X-Shopify-Webhook-Id');
  if (!validWebhookHeaders(topic, shopDomain, webhookId)) throw new ApiError(400, verbatim('Missing or invalid webhook headers'));
  const fresh = checkFreshness(c.req.header('X-Shopify-Triggered-At'));
  if (!fresh.ok) throw new ApiError(401, verbatim(fresh.reason));
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(new TextDecoder().decode(raw)) as Record<string, unknown>;
  } catch {
    throw new ApiError(400, verbatim('Webhook body is not valid JSON'));
  }
  const signed = checkSignedPayload(topic!, shopDomain!, payload);
  if (!signed.ok) throw new ApiError(401, verbatim(signed.reason));
  const log = c.get('log').child({ topic, shop: shopDomain, webhookId });
  const outcome = await processWebhook(
    c.env,
    c.get('db'),
    { topic: topic!, shopDomain: shopDomain!, webhookId: webhookId!, payload },
    raw,
    log,
  );
  // Another attempt of this delivery is mid-way: Shopify retries later and then gets 'duplicate'.
  if (outcome === 'in_progress') return c.json({ ok: false, outcome }, 503, { 'Retry-After': '60' });
  return c.json({ ok: true, outcome });
}

webhooksRoutes.post('/webhooks', receive);
webhooksRoutes.post('/webhooks/:topic{.+}', receive);
