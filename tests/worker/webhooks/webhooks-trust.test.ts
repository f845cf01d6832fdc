// Webhooks trust only what is signed (issue 17). Shopify's HMAC covers the body, not the headers: a
// signed body replayed under another shop or topic, or long after it was sent, must change nothing.
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { items, shops } from '../../../worker/db/schema';
import { findShopById } from '../../../worker/db/shops';
import { WEBHOOK_FRESHNESS_MS } from '../../../worker/webhooks/trust';
import { createShop, db } from '../helpers';
import { recordSyncQueueSends } from '../shopify/fake-shopify';
import { deliverWebhook as deliver, outcomeOf } from './webhook-delivery';
import { recordWebhookQueue } from './webhook-queue';

const sent = recordSyncQueueSends();
const queue = recordWebhookQueue();
afterEach(() => vi.restoreAllMocks());

const HOUR = 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const shopResource = (domain: string) => ({ id: 1, name: 'Shop', domain, myshopify_domain: domain });

describe('shop and topic headers are checked against the signed payload', () => {
  it("a shop's signed app/uninstalled body posted for another shop uninstalls neither", async () => {
    const { shop: a } = await createShop({ accessTokenEnc: 'enc' });
    const { shop: b } = await createShop({ accessTokenEnc: 'enc' });
    const res = await deliver('app/uninstalled', b.domain, shopResource(a.domain));
    expect(res.status).toBe(401);
    for (const s of [a, b]) expect((await findShopById(db(), s.id))!.uninstalledAt).toBeNull();
  });

  it('a signed body of another topic (a product) posted as app/uninstalled or shop/update is refused', async () => {
    const { shop } = await createShop({ accessTokenEnc: 'enc', name: 'Kept' });
    const productBody = { id: 7, admin_graphql_api_id: 'gid://shopify/Product/7', updated_at: '2026-11-21T08:00:00Z' };
    expect((await deliver('app/uninstalled', shop.domain, productBody)).status).toBe(401);
    expect((await deliver('shop/update', shop.domain, { ...productBody, name: 'Hijacked' })).status).toBe(401);
    expect(await findShopById(db(), shop.id)).toMatchObject({ uninstalledAt: null, name: 'Kept' });
  });

  it('shop/redact: a body naming another shop, or a customers/redact body, is refused; nothing is queued or deleted', async () => {
    const { shop: victim } = await createShop({ uninstalledAt: Date.now() - 48 * HOUR });
    const { shop: other } = await createShop({ uninstalledAt: Date.now() - 48 * HOUR });
    expect((await deliver('shop/redact', victim.domain, { shop_id: 2, shop_domain: other.domain })).status).toBe(401);
    expect(
      (
        await deliver('shop/redact', victim.domain, {
          shop_id: 1,
          shop_domain: victim.domain,
          customer: { id: 1 },
          orders_to_redact: [],
        })
      ).status,
    ).toBe(401);
    expect(queue.sent).toHaveLength(0);
    await queue.drain();
    expect(await findShopById(db(), victim.id)).toBeTruthy();
  });

  it('compliance payloads must name the shop of the header; products must carry their own kind of id', async () => {
    const { shop } = await createShop();
    expect(
      (
        await deliver('customers/redact', shop.domain, {
          shop_id: 1,
          shop_domain: 'elsewhere.myshopify.com',
          customer: { id: 1 },
        })
      ).status,
    ).toBe(401);
    expect(
      (await deliver('customers/data_request', shop.domain, { shop_id: 1, shop_domain: shop.domain, customer: { id: 1 } }))
        .status,
    ).toBe(401);
    expect(
      (await deliver('products/update', shop.domain, { id: 9, admin_graphql_api_id: 'gid://shopify/Collection/9' })).status,
    ).toBe(401);
    expect((await deliver('app_subscriptions/update', shop.domain, { id: 9 })).status).toBe(401);
    expect((await deliver('app/scopes_update', shop.domain, { id: 9 })).status).toBe(401);
    expect(sent).toHaveLength(0);
  });

  it('the same deliveries, consistent with their headers, are accepted (domain case does not matter)', async () => {
    const { shop } = await createShop({ uninstalledAt: Date.now() - 48 * HOUR });
    expect(await outcomeOf(deliver('shop/redact', shop.domain.toUpperCase(), { shop_id: 1, shop_domain: shop.domain }))).toBe(
      'queued',
    );
    const { shop: live } = await createShop();
    expect(
      await outcomeOf(deliver('shop/update', live.domain, { ...shopResource(live.domain.toUpperCase()), name: 'Renamed' })),
    ).toBe('processed');
    expect((await findShopById(db(), live.id))!.name).toBe('Renamed');
  });
});

describe('shop/redact acts only for an uninstalled shop', () => {
  it('an installed shop keeps every row and object, even with a well-formed signed request', async () => {
    const { shop } = await createShop({ accessTokenEnc: 'enc' });
    await db().insert(items).values({ shopId: shop.id, dataType: 1, resourceId: '1', title: 'P' });
    await env.BUCKET.put(`originals/${shop.id}/a.jpg`, 'bytes');
    expect(await outcomeOf(deliver('shop/redact', shop.domain, { shop_id: 1, shop_domain: shop.domain }))).toBe('queued');
    await queue.drain();
    expect(await db().select().from(shops).where(eq(shops.id, shop.id)).get()).toBeTruthy();
    expect(await db().select().from(items).where(eq(items.shopId, shop.id)).all()).toHaveLength(1);
    expect((await env.BUCKET.list({ prefix: `originals/${shop.id}/` })).objects).toHaveLength(1);
  });
});

describe('freshness (X-Shopify-Triggered-At)', () => {
  it('a delivery older than the window is refused; a retry within it (Shopify retries for 4 hours) is accepted', async () => {
    const { shop } = await createShop();
    const body = { id: 7, admin_graphql_api_id: 'gid://shopify/Product/7' };
    expect(WEBHOOK_FRESHNESS_MS).toBeGreaterThan(4 * HOUR);
    expect(
      (await deliver('products/update', shop.domain, body, { triggeredAt: ago(WEBHOOK_FRESHNESS_MS + 60_000) })).status,
    ).toBe(401);
    expect((await deliver('products/update', shop.domain, body, { triggeredAt: ago(-HOUR) })).status).toBe(401); // an hour in the future
    expect((await deliver('products/update', shop.domain, body, { triggeredAt: 'yesterday' })).status).toBe(401);
    expect(sent).toHaveLength(0);
    expect(await outcomeOf(deliver('products/update', shop.domain, body, { triggeredAt: ago(4 * HOUR) }))).toBe('processed');
    expect(sent).toHaveLength(1);
  });

  it('a stale app/uninstalled changes nothing', async () => {
    const { shop } = await createShop({ accessTokenEnc: 'enc' });
    expect(
      (await deliver('app/uninstalled', shop.domain, shopResource(shop.domain), { triggeredAt: ago(2 * 24 * HOUR) })).status,
    ).toBe(401);
    expect((await findShopById(db(), shop.id))!.uninstalledAt).toBeNull();
  });
});
