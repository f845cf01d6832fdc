import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  appSwitches,
  catalogueSyncs,
  imageSettings,
  images,
  items,
  jobImages,
  jobs,
  oauthStates,
  processedWebhooks,
  shops,
  usageLedger,
} from '../../../worker/db/schema';
import { findShopById } from '../../../worker/db/shops';
import { encryptSecret } from '../../../worker/lib/crypto';
import { isOldInstall } from '../../../worker/install/old-install';
import { call, createShop, db } from '../helpers';
import { installFakeShopify, recordSyncQueueSends } from '../shopify/fake-shopify';
import { deliverWebhook as deliver, outcomeOf, recordKeyOf } from './webhook-delivery';
import { recordWebhookQueue } from './webhook-queue';

let fake: ReturnType<typeof installFakeShopify> | undefined;

const sent = recordSyncQueueSends();
const queue = recordWebhookQueue();
afterEach(() => {
  fake?.restore();
  fake = undefined;
  vi.restoreAllMocks();
});

describe('/webhooks', () => {
  it('refuses a bad HMAC (wrong secret or altered body) and processes nothing', async () => {
    const { shop } = await createShop();
    expect((await deliver('products/update', shop.domain, { id: 1 }, { secret: 'wrong' })).status).toBe(401);
    expect((await deliver('products/update', shop.domain, { id: 1 }, { tamper: true })).status).toBe(401);
    expect(sent).toHaveLength(0);
  });

  it('processes a duplicated delivery once', async () => {
    const { shop } = await createShop();
    const id = crypto.randomUUID();
    const payload = {
      id: 632910392,
      admin_graphql_api_id: 'gid://shopify/Product/632910392',
      updated_at: '2026-11-21T08:00:00Z',
    };
    expect(await outcomeOf(deliver('products/update', shop.domain, payload, { id }))).toBe('processed');
    expect(await outcomeOf(deliver('products/update', shop.domain, payload, { id, path: '/webhooks' }))).toBe('duplicate');
    expect(sent).toEqual([
      {
        type: 'product_changed',
        shopId: shop.id,
        resourceId: '632910392',
        gid: 'gid://shopify/Product/632910392',
        updatedAt: '2026-11-21T08:00:00Z',
        webhookId: id,
      },
    ]);
  });

  it('queues collection deletes with a GID built from the id', async () => {
    const { shop } = await createShop();
    await deliver('collections/delete', shop.domain, { id: 841564295 });
    expect(sent).toMatchObject([
      { type: 'collection_deleted', shopId: shop.id, resourceId: '841564295', gid: 'gid://shopify/Collection/841564295' },
    ]);
  });

  it('app/uninstalled, once Shopify refuses the token, revokes the tokens and stops queued and running jobs', async () => {
    // Shopify answers 401 to the token (the uninstall revoked it); there is no refresh token to try.
    fake = installFakeShopify({ graphql: () => ({ status: 401, data: { errors: '[API] Invalid API key or access token' } }) });
    const { shop, headers } = await createShop({
      accessTokenEnc: await encryptSecret(env.TOKEN_ENCRYPTION_KEY, 'shpat_revoked'),
      accessTokenExpiresAt: Date.now() + 3600_000,
      planLevel: 2,
    });
    await db()
      .insert(jobs)
      .values([
        { id: crypto.randomUUID(), shopId: shop.id, dataType: 1, processType: 'optimize', status: 'queued' },
        { id: crypto.randomUUID(), shopId: shop.id, dataType: 1, processType: 'optimize', status: 'running' },
        { id: crypto.randomUUID(), shopId: shop.id, dataType: 1, processType: 'optimize', status: 'done' },
      ]);
    expect(
      await outcomeOf(deliver('app/uninstalled', shop.domain, { id: 1, domain: shop.domain, myshopify_domain: shop.domain })),
    ).toBe('queued');
    expect((await findShopById(db(), shop.id))!.uninstalledAt).toBeNull(); // decided by Shopify's answer, in the queue
    await queue.drain();
    expect(fake.stats.graphql).toBe(1);
    const row = (await findShopById(db(), shop.id))!;
    expect(row).toMatchObject({ accessTokenEnc: null, refreshTokenEnc: null, adminTokenHash: null, planLevel: 0 });
    expect(row.uninstalledAt).toBeTruthy();
    const statuses = (await db().select().from(jobs).where(eq(jobs.shopId, shop.id)).all()).map((j) => j.status).sort();
    expect(statuses).toEqual(['done', 'stopped', 'stopped']);
    // The old admin token no longer opens the API.
    expect((await call('/api/v1/adminToken', { method: 'DELETE', headers })).status).toBe(401);
  });

  it('shop/update refreshes the shop details', async () => {
    const { shop } = await createShop();
    await deliver('shop/update', shop.domain, {
      myshopify_domain: shop.domain,
      name: 'Renamed',
      email: 'new@example.com',
      shop_owner: 'New Owner',
      domain: 'renamed.example',
      currency: 'CAD',
      plan_display_name: 'Basic',
      plan_name: 'basic',
    });
    expect(await findShopById(db(), shop.id)).toMatchObject({
      name: 'Renamed',
      email: 'new@example.com',
      ownerName: 'New Owner',
      primaryDomain: 'https://renamed.example',
      currencyCode: 'CAD',
      shopifyPlan: 'Basic',
      isDevelopmentStore: false,
    });
  });

  it('app/scopes_update keeps the stored scopes in step with the grant (and so the old-install flag)', async () => {
    const { shop } = await createShop({ accessTokenEnc: 'x', scopes: env.SHOPIFY_SCOPES });
    expect(isOldInstall((await findShopById(db(), shop.id))!, env.SHOPIFY_SCOPES)).toBe(0);
    const narrowed = ['read_products', 'write_products'];
    expect(
      await outcomeOf(
        deliver('app/scopes_update', shop.domain, {
          id: 1,
          previous: env.SHOPIFY_SCOPES.split(','),
          current: narrowed,
          updated_at: '2026-11-21T08:00:00Z',
        }),
      ),
    ).toBe('processed');
    const row = (await findShopById(db(), shop.id))!;
    expect(row.scopes).toBe('read_products,write_products');
    expect(isOldInstall(row, env.SHOPIFY_SCOPES)).toBe(1);
    await deliver('app/scopes_update', shop.domain, {
      id: 2,
      previous: narrowed,
      current: env.SHOPIFY_SCOPES.split(','),
      updated_at: '2026-11-21T09:00:00Z',
    });
    expect((await findShopById(db(), shop.id))!.scopes).toBe(env.SHOPIFY_SCOPES);
  });

  it('app_subscriptions/update answers at once and does its Shopify work in the webhook queue: a cancellation goes to free', async () => {
    const subId = 'gid://shopify/AppSubscription/1029266947';
    fake = installFakeShopify({
      graphql: ({ query }) =>
        query.includes('activeSubscriptions')
          ? { data: { currentAppInstallation: { id: 'gid://shopify/AppInstallation/1', activeSubscriptions: [] } } }
          : undefined,
    });
    const { shop } = await createShop({
      planLevel: 3,
      subscriptionId: subId,
      subscriptionStatus: 'ACTIVE',
      accessTokenEnc: await encryptSecret(env.TOKEN_ENCRYPTION_KEY, 'shpat_live'),
      scopes: env.SHOPIFY_SCOPES,
    });
    expect(
      await outcomeOf(
        deliver('app_subscriptions/update', shop.domain, {
          app_subscription: { admin_graphql_api_id: subId, name: 'Premium', status: 'CANCELLED' },
        }),
      ),
    ).toBe('queued');
    // Nothing asked of Shopify inside the request.
    expect(fake.stats.graphql).toBe(0);
    expect(await findShopById(db(), shop.id)).toMatchObject({ planLevel: 3 });
    expect((await queue.drain()).explicitAcks).toHaveLength(1);
    expect(await findShopById(db(), shop.id)).toMatchObject({
      planLevel: 0,
      subscriptionId: null,
      subscriptionStatus: 'CANCELLED',
    });
    expect(fake.stats.graphql).toBe(1);
  });

  it('customers/data_request and customers/redact are answered 200 (no customer data is stored)', async () => {
    const { shop } = await createShop();
    expect(
      (
        await deliver('customers/data_request', shop.domain, {
          shop_domain: shop.domain,
          customer: { id: 1 },
          data_request: { id: 9 },
        })
      ).status,
    ).toBe(200);
    expect((await deliver('customers/redact', shop.domain, { shop_domain: shop.domain, customer: { id: 1 } })).status).toBe(200);
  });

  it('shop/redact (queued) leaves no row and no R2 object of that uninstalled shop behind, and touches no other shop', async () => {
    const { shop } = await createShop({ uninstalledAt: Date.now() - 48 * 3600_000 });
    const { shop: other } = await createShop();
    for (const s of [shop, other]) {
      const item = await db().insert(items).values({ shopId: s.id, dataType: 1, resourceId: '1', title: 'P' }).returning().get();
      const image = await db()
        .insert(images)
        .values({ shopId: s.id, itemId: item.id, imgId: `gid://shopify/MediaImage/${s.id}` })
        .returning()
        .get();
      const jobId = crypto.randomUUID();
      await db().insert(jobs).values({ id: jobId, shopId: s.id, dataType: 1, processType: 'optimize' });
      await db().insert(jobImages).values({ jobId, imageId: image.id, itemId: item.id, shopId: s.id });
      await db()
        .insert(usageLedger)
        .values({ shopId: s.id, chargeKey: `img:${image.id}`, periodStart: 0 });
      await db().insert(appSwitches).values({ shopId: s.id, name: 'extra_adver' });
      await db().insert(catalogueSyncs).values({ shopId: s.id });
      await db().insert(imageSettings).values({ shopId: s.id, imageOpt: {}, altText: {}, fileName: {} });
      await db()
        .insert(oauthStates)
        .values({ state: crypto.randomUUID(), shopDomain: s.domain, expiresAt: Date.now() + 60_000 });
      for (const key of [
        `originals/${s.id}/a.jpg`,
        `results/${s.id}/a.jpg`,
        `uploads/${s.id}/b.png`,
        `watermarks/${s.id}/w.png`,
        `shops/${s.id}/misc.json`,
      ]) {
        await env.BUCKET.put(key, 'bytes');
      }
    }
    const res = await deliver('shop/redact', shop.domain, { shop_id: 1, shop_domain: shop.domain });
    expect(res.status).toBe(200);
    expect((await res.json<{ outcome: string }>()).outcome).toBe('queued');
    expect(await findShopById(db(), shop.id)).toBeTruthy(); // the work waits for the consumer
    await queue.drain();

    expect(await findShopById(db(), shop.id)).toBeUndefined();
    for (const table of [items, images, jobs, jobImages, usageLedger, appSwitches, catalogueSyncs, imageSettings]) {
      expect(await db().select().from(table).where(eq(table.shopId, shop.id)).all()).toHaveLength(0);
      expect(await db().select().from(table).where(eq(table.shopId, other.id)).all()).not.toHaveLength(0);
    }
    // Every table that has a shop_id column, including ones added after this test was written.
    // (D1 refuses pragma functions, so the CREATE statements are read instead.)
    const tables = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%`shop_id`%'").all<{
      name: string;
    }>();
    expect(tables.results.length).toBeGreaterThan(8);
    for (const { name } of tables.results) {
      const left = await env.DB.prepare(`SELECT COUNT(*) AS n FROM "${name}" WHERE shop_id = ?`)
        .bind(shop.id)
        .first<{ n: number }>();
      expect(left?.n, name).toBe(0);
    }
    expect(await db().select().from(oauthStates).where(eq(oauthStates.shopDomain, shop.domain)).all()).toHaveLength(0);
    for (const kind of ['originals', 'results', 'uploads', 'watermarks', 'shops']) {
      expect((await env.BUCKET.list({ prefix: `${kind}/${shop.id}/` })).objects).toHaveLength(0);
      expect((await env.BUCKET.list({ prefix: `${kind}/${other.id}/` })).objects).toHaveLength(1);
    }
    expect(await db().select().from(shops).where(eq(shops.id, other.id)).get()).toBeTruthy();
    // The dedupe record stays (a keyed hash of the body: no shop domain, no personal data), so a retried
    // redact is a duplicate.
    const key = await recordKeyOf('shop/redact', shop.domain, { shop_id: 1, shop_domain: shop.domain }, '', shop.installedAt);
    expect(await db().select().from(processedWebhooks).where(eq(processedWebhooks.webhookId, key)).all()).toMatchObject([
      { status: 'done', shopDomain: '' },
    ]);
    expect(await db().select().from(processedWebhooks).where(eq(processedWebhooks.shopDomain, shop.domain)).all()).toEqual([]);
  });

  it('a failing inline handler releases the claim so Shopify’s retry is processed', async () => {
    const { shop } = await createShop();
    vi.mocked(env.SYNC_QUEUE.send).mockRejectedValueOnce(new Error('queue down'));
    const id = crypto.randomUUID();
    expect((await deliver('products/create', shop.domain, { id: 5 }, { id })).status).toBe(500);
    expect(await outcomeOf(deliver('products/create', shop.domain, { id: 5 }, { id }))).toBe('processed');
  });
});
