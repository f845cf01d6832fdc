import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentPeriodStart, quotaCycleForInstall } from '../../../worker/billing/cycle';
import { catalogueSyncs, oauthStates } from '../../../worker/db/schema';
import { findShopByDomain } from '../../../worker/db/shops';
import { decryptSecret } from '../../../worker/lib/crypto';
import { shopifyHostUrl } from '../../../worker/shopify/api-version';
import { signQuery } from '../../../worker/install/oauth';
import { call, createShop, db } from '../helpers';
import { installFakeShopify, recordSyncQueueSends, shopInfoReply } from '../shopify/fake-shopify';

let fake: ReturnType<typeof installFakeShopify> | undefined;
const sent = recordSyncQueueSends();
afterEach(() => {
  fake?.restore();
  vi.restoreAllMocks();
});

const newDomain = () => `install-${crypto.randomUUID().slice(0, 8)}.myshopify.com`;

async function signed(params: Record<string, string>, secret = env.SHOPIFY_API_SECRET): Promise<string> {
  const q = new URLSearchParams(params);
  q.set('hmac', await signQuery(q, secret));
  return q.toString();
}

const nowTs = () => String(Math.floor(Date.now() / 1000));
const landing = (shop: string, extra: Record<string, string> = {}) => ({
  shop,
  host: btoa(`admin.shopify.com/store/${shop.split('.')[0]}`),
  locale: 'de',
  session: 'abc',
  timestamp: nowTs(),
  ...extra,
});

describe('GET /shopify/app (install landing)', () => {
  it('answers 301 with Shopify’s authorize URL for a new shop, with a stored single-use state', async () => {
    const shop = newDomain();
    const res = await call(`/shopify/app?${await signed(landing(shop))}`);
    expect(res.status).toBe(200);
    const body = await res.json<{ code: number; url: string }>();
    expect(body.code).toBe(301);
    const url = new URL(body.url);
    expect(url.pathname.endsWith('/admin/oauth/authorize')).toBe(true);
    expect(body.url).toContain(shop);
    expect(url.searchParams.get('client_id')).toBe(env.SHOPIFY_API_KEY);
    expect(url.searchParams.get('scope')).toBe(env.SHOPIFY_SCOPES);
    expect(url.searchParams.get('redirect_uri')).toBe(`${env.APP_URL}/shopify/callback`);
    const state = url.searchParams.get('state')!;
    expect(await db().select().from(oauthStates).where(eq(oauthStates.state, state)).get()).toMatchObject({ shopDomain: shop });
  });

  it('refuses a bad HMAC, a stale timestamp and a foreign shop domain', async () => {
    const shop = newDomain();
    const forged = await call(`/shopify/app?${await signed(landing(shop), 'wrong-secret')}`);
    expect(forged.status).toBe(401);
    const tampered = new URLSearchParams(await signed(landing(shop)));
    tampered.set('shop', newDomain());
    expect((await call(`/shopify/app?${tampered}`)).status).toBe(401);
    const stale = await call(
      `/shopify/app?${await signed(landing(shop, { timestamp: String(Math.floor(Date.now() / 1000) - 3600) }))}`,
    );
    expect(stale.status).toBe(401);
    expect((await stale.json<{ msg: string }>()).msg).toBe('Request expired');
    const foreign = await call(`/shopify/app?${await signed(landing('evil.example.com'))}`);
    expect(foreign.status).toBe(400);
  });

  it('answers 302 to /guidance until the wizard is done, then /main', async () => {
    const { shop } = await createShop({ accessTokenEnc: 'x', scopes: env.SHOPIFY_SCOPES });
    const first = await (await call(`/shopify/app?${await signed(landing(shop.domain))}`)).json<{ code: number; url: string }>();
    expect(first.code).toBe(302);
    expect(first.url.startsWith('/guidance?')).toBe(true);
    const { shop: done } = await createShop({ accessTokenEnc: 'x', scopes: env.SHOPIFY_SCOPES, setupGuidePending: false });
    const second = await (await call(`/shopify/app?${await signed(landing(done.domain))}`)).json<{ code: number; url: string }>();
    expect(second).toMatchObject({ code: 302 });
    expect(second.url.startsWith('/main?')).toBe(true);
  });

  it('sends uninstalled shops and shops missing a scope back through OAuth', async () => {
    const { shop: gone } = await createShop({ accessTokenEnc: 'x', scopes: env.SHOPIFY_SCOPES, uninstalledAt: Date.now() });
    const { shop: narrow } = await createShop({ accessTokenEnc: 'x', scopes: 'read_products' });
    for (const s of [gone, narrow]) {
      const body = await (await call(`/shopify/app?${await signed(landing(s.domain))}`)).json<{ code: number }>();
      expect(body.code).toBe(301);
    }
  });
});

describe('GET /shopify/callback', () => {
  async function startInstall(shop: string): Promise<string> {
    const body = await (await call(`/shopify/app?${await signed(landing(shop))}`)).json<{ url: string }>();
    return new URL(body.url).searchParams.get('state')!;
  }

  it('a valid install stores an encrypted expiring token, the shop info and queues the catalogue sync', async () => {
    // The storefront's primary locale is English; the merchant's admin (install query locale=de) wins.
    fake = installFakeShopify({ graphql: () => shopInfoReply({}, 'en') });
    const shop = newDomain();
    const state = await startInstall(shop);
    const res = await call(
      `/shopify/callback?${await signed({ code: 'auth-code-1', shop, state, host: btoa(`admin.shopify.com/store/${shop.split('.')[0]}`), timestamp: nowTs() })}`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(302);
    // Back into the Shopify admin, on the app's page (through SHOPIFY_ORIGIN like every Shopify host).
    expect(res.headers.get('Location')).toBe(
      `${shopifyHostUrl(env, `admin.shopify.com/store/${shop.split('.')[0]}`)}/apps/${env.SHOPIFY_API_KEY}`,
    );
    expect(fake.tokenBodies[0]).toMatchObject({
      code: 'auth-code-1',
      expiring: '1',
      client_id: env.SHOPIFY_API_KEY,
      client_secret: env.SHOPIFY_API_SECRET,
    });
    const row = (await findShopByDomain(db(), shop))!;
    const issued = [...fake.validTokens][0]!;
    expect(row.accessTokenEnc).toBeTruthy();
    expect(row.accessTokenEnc).not.toContain(issued);
    expect(await decryptSecret(env.TOKEN_ENCRYPTION_KEY, row.accessTokenEnc!)).toBe(issued);
    expect(row.refreshTokenEnc).toBeTruthy();
    expect(row.accessTokenExpiresAt).toBeGreaterThan(Date.now());
    expect(row).toMatchObject({
      name: 'Fake Store',
      email: 'owner@fake.example',
      ownerName: 'Fay Owner',
      primaryDomain: 'https://fake.example',
      shopifyPlan: 'Development',
      currencyCode: 'EUR',
      isDevelopmentStore: true,
      language: 'ge',
    });
    expect(row.installedAt).toBeTruthy();
    expect(await db().select().from(catalogueSyncs).where(eq(catalogueSyncs.shopId, row.id)).get()).toMatchObject({
      status: 'idle',
    });
    expect(sent).toEqual([{ type: 'sync', shopId: row.id }]);
  });

  it('a fresh install starts the quota cycle on the install day; a reinstall keeps the cycle day', async () => {
    fake = installFakeShopify({ graphql: () => shopInfoReply() });
    const shop = newDomain();
    const state = await startInstall(shop);
    expect(
      (
        await call(`/shopify/callback?${await signed({ code: 'c-cycle', shop, state, timestamp: nowTs() })}`, {
          redirect: 'manual',
        })
      ).status,
    ).toBe(302);
    const row = (await findShopByDomain(db(), shop))!;
    expect(row).toMatchObject(quotaCycleForInstall(row.installedAt!));
    expect(row.billingCycleDay).toBe(Math.min(new Date(row.installedAt!).getUTCDate(), 28));

    // A reinstall months later keeps the cycle day (5) and moves on to that day's current period (issue 17).
    const { shop: old } = await createShop({
      uninstalledAt: Date.now() - 86_400_000,
      installedAt: Date.UTC(2025, 0, 5),
      billingCycleDay: 5,
      quotaPeriodStart: Date.UTC(2025, 0, 5),
      accessTokenEnc: null,
    });
    const s2 = await startInstall(old.domain);
    expect(
      (
        await call(`/shopify/callback?${await signed({ code: 'c-cycle-2', shop: old.domain, state: s2, timestamp: nowTs() })}`, {
          redirect: 'manual',
        })
      ).status,
    ).toBe(302);
    const again = (await findShopByDomain(db(), old.domain))!;
    expect(again.uninstalledAt).toBeNull();
    expect(again).toMatchObject({ billingCycleDay: 5, quotaPeriodStart: currentPeriodStart(5, again.installedAt!) });
  });

  it('re-authorising an old install clears is_old and queues a fresh catalogue sync', async () => {
    fake = installFakeShopify({ graphql: () => shopInfoReply() });
    const { shop } = await createShop({ oldInstall: true, accessTokenEnc: 'x', scopes: 'read_products', language: 'fr' });
    const res = await call(`/shopify/reShopifyAuthor?shop=${shop.domain.split('.')[0]}`, { redirect: 'manual' });
    const state = new URL(res.headers.get('Location')!).searchParams.get('state')!;
    const cb = await call(`/shopify/callback?${await signed({ code: 'c2', shop: shop.domain, state, timestamp: nowTs() })}`, {
      redirect: 'manual',
    });
    expect(cb.status).toBe(302);
    const row = (await findShopByDomain(db(), shop.domain))!;
    expect(row).toMatchObject({ oldInstall: false, language: 'fr' }); // the merchant's chosen language stays
    expect(sent).toEqual([{ type: 'sync', shopId: shop.id }]);
  });

  it('refuses a replayed or foreign state and a bad HMAC', async () => {
    fake = installFakeShopify({ graphql: () => shopInfoReply() });
    const shop = newDomain();
    const state = await startInstall(shop);
    const ok = await call(`/shopify/callback?${await signed({ code: 'c', shop, state, timestamp: nowTs() })}`, {
      redirect: 'manual',
    });
    expect(ok.status).toBe(302);
    const replay = await call(`/shopify/callback?${await signed({ code: 'c', shop, state, timestamp: nowTs() })}`);
    expect(replay.status).toBe(401);
    const other = newDomain();
    const foreignState = await startInstall(other);
    expect(
      (await call(`/shopify/callback?${await signed({ code: 'c', shop, state: foreignState, timestamp: nowTs() })}`)).status,
    ).toBe(401);
    expect(
      (
        await call(
          `/shopify/callback?${await signed({ code: 'c', shop: other, state: foreignState, timestamp: nowTs() }, 'nope')}`,
        )
      ).status,
    ).toBe(401);
    expect(fake.stats.code).toBe(1);
  });
});

describe('GET /shopify/reShopifyAuthor', () => {
  it('redirects the browser to Shopify’s authorize page for the named shop', async () => {
    await createShop({ domain: 'old-store.myshopify.com', oldInstall: true }); // only a shop the app knows (issue 17)
    const res = await call('/shopify/reShopifyAuthor?shop=old-store', { redirect: 'manual' });
    expect(res.status).toBe(302);
    const url = new URL(res.headers.get('Location')!);
    expect(url.href).toContain('old-store.myshopify.com');
    expect(url.pathname.endsWith('/admin/oauth/authorize')).toBe(true);
    expect((await call('/shopify/reShopifyAuthor?shop=evil.example.com')).status).toBe(400);
  });
});
