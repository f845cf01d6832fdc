// Signed webhook delivery, as Shopify does it: REST-shaped JSON body, X-Shopify-Hmac-Sha256 = base64
// HMAC-SHA256 of the raw body with the app secret. Every delivery is recorded on the shop with the URL
// Shopify would post it to: a webhookSubscriptionCreate callback, else the app's shopify.app.toml
// subscription resolved as Shopify CLI resolves it (app-toml.ts; emu.app.webhooks), with that
// subscription's include_fields applied to the payload. A topic the app subscribes nowhere gets no URL
// (Shopify would not send it). Deliveries are POSTed at once when the shop's settings say so
// (deliverWebhooks, or a webhookUrl override); otherwise they stay pending for a test to fetch and post
// into the in-process app itself, to `delivery.url`.
import { createHmac, randomUUID } from 'node:crypto';
import { applyIncludeFields } from './app-toml';
import { cdnPath, cdnUrl } from './store/factory';
import { isoNow, type Emulator } from './store/registry';
import type { ShopState } from './store/shop-state';
import type { CollectionRec, ProductRec, SubscriptionRec, WebhookDelivery } from './store/types';

export const WEBHOOK_API_VERSION = '2026-10';

export function signWebhookBody(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}

/** Where Shopify sends this topic for this shop, and the payload fields it keeps; null: not subscribed. */
function targetFor(
  emu: Emulator,
  shop: ShopState,
  topic: string,
): { url: string; includeFields?: string[]; viaApi?: boolean } | null {
  const graphqlTopic = topic.toUpperCase().replace(/\//g, '_');
  const api = shop.webhookSubscriptions.find((s) => s.topic === graphqlTopic);
  if (api) return { url: api.callbackUrl, viaApi: true };
  const app = emu.app.webhooks?.find((t) => t.topic === topic);
  return app ? { url: app.url, includeFields: app.includeFields } : null;
}

export function enqueueWebhook(
  emu: Emulator,
  shop: ShopState,
  topic: string,
  payload: unknown,
  opts: { evenIfUninstalled?: boolean } = {},
): WebhookDelivery | null {
  if (!shop.installed && !opts.evenIfUninstalled) return null; // Shopify only calls installed apps
  const target = targetFor(emu, shop, topic);
  const body = JSON.stringify(applyIncludeFields(payload, target?.includeFields));
  const id = randomUUID();
  const delivery: WebhookDelivery = {
    id,
    topic,
    url: shop.settings.webhookUrl || target?.url || '',
    body,
    headers: {
      'Content-Type': 'application/json',
      'X-Shopify-Topic': topic,
      'X-Shopify-Hmac-Sha256': signWebhookBody(emu.app.apiSecret, body),
      'X-Shopify-Shop-Domain': shop.domain,
      'X-Shopify-Webhook-Id': id,
      'X-Shopify-Event-Id': randomUUID(),
      'X-Shopify-API-Version': WEBHOOK_API_VERSION,
      'X-Shopify-Triggered-At': new Date().toISOString(),
    },
    createdAt: isoNow(),
    status: 'pending',
    attempts: 0,
    lastResponseStatus: null,
  };
  shop.webhooks.push(delivery);
  // Subscriptions made through the API are always called; the app's own ones when the settings say so.
  if (delivery.url && (target?.viaApi || shop.settings.webhookUrl || shop.settings.deliverWebhooks))
    void deliver(delivery, delivery.url);
  return delivery;
}

export async function deliver(d: WebhookDelivery, url: string): Promise<number> {
  d.attempts += 1;
  try {
    const res = await fetch(url, { method: 'POST', headers: d.headers, body: d.body, signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
    d.lastResponseStatus = res.status;
    d.status = res.ok ? 'delivered' : 'failed';
    return res.status;
  } catch {
    d.status = 'failed';
    d.lastResponseStatus = 0;
    return 0;
  }
}

/** Posts every undelivered delivery to `url`, or to its own URL; those with neither stay pending. */
export async function deliverPending(shop: ShopState, url: string): Promise<WebhookDelivery[]> {
  const pending = shop.webhooks.filter((d) => d.status !== 'delivered' && (url || d.url));
  for (const d of pending) await deliver(d, url || d.url);
  return pending;
}

export function productPayload(emu: Emulator, shop: ShopState, p: ProductRec): Record<string, unknown> {
  const files = p.mediaIds.map((id) => shop.files.get(id)).filter((f) => f !== undefined);
  const images = files.map((f, i) => ({
    id: f.imageId,
    product_id: p.id,
    position: i + 1,
    created_at: f.createdAt,
    updated_at: f.updatedAt,
    alt: f.alt || null,
    width: f.blob.width,
    height: f.blob.height,
    src: cdnUrl(emu, cdnPath(shop, 'files', f.filename), f.version),
    variant_ids: [],
    admin_graphql_api_id: `gid://shopify/ProductImage/${f.imageId}`,
  }));
  return {
    admin_graphql_api_id: `gid://shopify/Product/${p.id}`,
    id: p.id,
    title: p.title,
    body_html: p.descriptionHtml,
    vendor: p.vendor,
    product_type: p.productType,
    handle: p.handle,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    published_at: p.publishedAt,
    published_scope: 'web',
    template_suffix: null,
    status: p.status.toLowerCase(),
    tags: p.tags.join(', '),
    variants: p.variants.map((v, i) => ({
      id: v.id,
      product_id: p.id,
      title: v.title,
      price: v.price,
      sku: v.sku,
      position: i + 1,
      admin_graphql_api_id: `gid://shopify/ProductVariant/${v.id}`,
    })),
    options: [],
    images,
    image: images[0] ?? null,
    media: files.map((f, i) => ({
      id: f.id,
      product_id: p.id,
      position: i + 1,
      created_at: f.createdAt,
      updated_at: f.updatedAt,
      alt: f.alt || null,
      status: f.status,
      media_content_type: 'IMAGE',
      preview_image: {
        width: f.blob.width,
        height: f.blob.height,
        src: cdnUrl(emu, cdnPath(shop, 'files', f.filename), f.version),
        status: f.status,
      },
      variant_ids: [],
      admin_graphql_api_id: `gid://shopify/MediaImage/${f.id}`,
    })),
  };
}

export function collectionPayload(emu: Emulator, shop: ShopState, c: CollectionRec): Record<string, unknown> {
  return {
    admin_graphql_api_id: `gid://shopify/Collection/${c.id}`,
    id: c.id,
    handle: c.handle,
    title: c.title,
    updated_at: c.updatedAt,
    body_html: c.descriptionHtml,
    published_at: c.publishedAt,
    sort_order: 'best-selling',
    template_suffix: null,
    published_scope: 'web',
    image: c.image
      ? {
          created_at: c.updatedAt,
          alt: c.image.alt || null,
          width: c.image.blob.width,
          height: c.image.blob.height,
          src: cdnUrl(emu, cdnPath(shop, 'collections', c.image.filename), c.image.version),
        }
      : null,
  };
}

export function subscriptionPayload(shop: ShopState, s: SubscriptionRec): Record<string, unknown> {
  const usage = s.lineItems.find((l) => l.kind === 'usage');
  return {
    app_subscription: {
      admin_graphql_api_id: `gid://shopify/AppSubscription/${s.id}`,
      name: s.name,
      status: s.status,
      admin_graphql_api_shop_id: `gid://shopify/Shop/${shop.shopNumber}`,
      created_at: s.createdAt,
      updated_at: isoNow(),
      currency: 'USD',
      capped_amount: usage && usage.kind === 'usage' ? usage.cappedAmount.amount : null,
      price:
        s.lineItems.find((l) => l.kind === 'recurring')?.kind === 'recurring'
          ? (s.lineItems.find((l) => l.kind === 'recurring') as { price: { amount: string } }).price.amount
          : '0.00',
      interval: 'every_30_days',
      plan_handle: null,
    },
  };
}

export function shopPayload(shop: ShopState): Record<string, unknown> {
  return {
    id: shop.shopNumber,
    name: shop.name,
    email: shop.email,
    domain: shop.domain,
    myshopify_domain: shop.domain,
    shop_owner: shop.ownerName,
    currency: shop.currencyCode,
    iana_timezone: shop.ianaTimezone,
    plan_name: 'partner_test',
    plan_display_name: shop.planName,
    primary_locale: 'en',
    updated_at: shop.updatedAt,
  };
}
