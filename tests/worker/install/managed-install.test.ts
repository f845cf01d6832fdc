// Managed installation (issue 14 point 3): the first launch from Shopify's admin installs by token
// exchange with the launch's session token, never sending the browser out of the admin; OAuth only
// without a session token; re-authorisation answers an absolute reauthorize URL.
import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findShopByDomain } from '../../../worker/db/shops';
import { signQuery } from '../../../worker/install/oauth';
import { createEmulatorShop } from '../emulator-client';
import { call, db, sessionToken } from '../helpers';

beforeEach(() => {
  vi.spyOn(env.SYNC_QUEUE, 'send').mockResolvedValue(undefined as never);
});
afterEach(() => vi.restoreAllMocks());

type Landing = { code: number; url: string };

describe('the launch from Shopify’s admin', () => {
  it('installs a new shop by token exchange from the launch’s id_token: 302 into the app, no OAuth', async () => {
    const shop = await createEmulatorShop({ install: false });
    const launch = new URL(await shop.launchUrl('/', { idToken: true }));
    expect(launch.pathname).toBe('/');
    expect(launch.searchParams.get('id_token')).toBeTruthy();
    // The admin's launch screen forwards the query as it is to GET /shopify/app.
    const res = await call(`/shopify/app${launch.search}`);
    expect(res.status).toBe(200);
    const body = await res.json<Landing>();
    expect(body.code).toBe(302);
    expect(body.url).toMatch(/^\/guidance\?shop=/);
    const stats = (await shop.info()).stats;
    expect(stats.tokenExchanges).toBe(1);
    expect(stats.authorizationCodes).toBe(0);
    const row = (await findShopByDomain(db(), shop.domain))!;
    expect(row.accessTokenEnc).toBeTruthy();
    expect(row.refreshTokenEnc).toBeTruthy();
    expect(row.scopes.split(',').sort()).toEqual(env.SHOPIFY_SCOPES.split(',').sort());
    // The next launch finds the grant and exchanges nothing.
    const again = await (
      await call(`/shopify/app${new URL(await shop.launchUrl('/', { idToken: true })).search}`)
    ).json<Landing>();
    expect(again.code).toBe(302);
    expect((await shop.info()).stats.tokenExchanges).toBe(1);
  });

  it('installs with App Bridge’s session token on the landing call when the launch carries no id_token', async () => {
    const shop = await createEmulatorShop({ install: false });
    const launch = new URL(await shop.launchUrl('/'));
    const body = await (
      await call(`/shopify/app${launch.search}`, { headers: { Authorization: `Bearer ${await shop.sessionToken()}` } })
    ).json<Landing>();
    expect(body.code).toBe(302);
    expect((await shop.info()).stats.tokenExchanges).toBe(1);
  });

  it('keeps OAuth where token exchange cannot serve: no session token, or one for another shop', async () => {
    const shop = await createEmulatorShop({ install: false });
    const standalone = await (await call(`/shopify/app${new URL(await shop.launchUrl('/')).search}`)).json<Landing>();
    expect(standalone.code).toBe(301);
    expect(new URL(standalone.url).pathname).toMatch(/\/admin\/oauth\/authorize$/);
    const foreign = await (
      await call(`/shopify/app${new URL(await shop.launchUrl('/')).search}`, {
        headers: { Authorization: `Bearer ${await sessionToken('someone-else.myshopify.com')}` },
      })
    ).json<Landing>();
    expect(foreign.code).toBe(301);
    expect((await shop.info()).stats.tokenExchanges).toBe(0);
  });

  it('falls back to OAuth when Shopify refuses the token exchange', async () => {
    const shop = await createEmulatorShop({ install: false });
    const launch = new URL(await shop.launchUrl('/', { idToken: true }));
    await shop.injectFault({ target: 'oauth', status: 400, times: 1 });
    const body = await (await call(`/shopify/app${launch.search}`)).json<Landing>();
    await shop.clearFaults();
    expect(body.code).toBe(301);
    expect(new URL(body.url).pathname).toMatch(/\/admin\/oauth\/authorize$/);
    expect(await findShopByDomain(db(), shop.domain)).toBeUndefined();
  });

  it('verifies the HMAC over every parameter Shopify sent, including ones the app does not know', async () => {
    const { shop } = { shop: `launch-${crypto.randomUUID().slice(0, 8)}.myshopify.com` };
    const q = new URLSearchParams({
      embedded: '1',
      shop,
      timestamp: String(Math.floor(Date.now() / 1000)),
      brand_new_param: 'x',
      locale: 'fr',
    });
    q.set('hmac', await signQuery(q, env.SHOPIFY_API_SECRET));
    expect((await (await call(`/shopify/app?${q}`)).json<Landing>()).code).toBe(301);
    q.delete('brand_new_param'); // a landing that drops what Shopify signed fails the HMAC
    expect((await call(`/shopify/app?${q}`)).status).toBe(401);
  });
});

describe('re-authorisation answers', () => {
  it('a session token whose shop cannot be installed by token exchange gets 401 + an absolute reauthorize URL', async () => {
    const shop = await createEmulatorShop({ install: false });
    await shop.injectFault({ target: 'oauth', status: 400, times: 5 });
    const res = await call('/api/v1/getSettingInfo', { headers: { Authorization: `Bearer ${await shop.sessionToken()}` } });
    await shop.clearFaults();
    expect(res.status).toBe(401);
    const url = res.headers.get('X-Shopify-API-Request-Failure-Reauthorize-Url')!;
    expect(url.startsWith(`${env.APP_URL}/shopify/reShopifyAuthor?shop=${encodeURIComponent(shop.domain)}`), url).toBe(true);
    expect(res.headers.get('Access-Control-Expose-Headers')).toContain('X-Shopify-API-Request-Failure-Reauthorize-Url');
    // The admin opens it in the top frame (no Authorization header) for a shop the app has no row of yet:
    // it must still reach Shopify's authorize page, not the 401 that guards unknown shops.
    const followed = await call(new URL(url).pathname + new URL(url).search, { redirect: 'manual' });
    expect(followed.status).toBe(302);
    expect(new URL(followed.headers.get('Location')!).pathname).toMatch(/\/admin\/oauth\/authorize$/);
  });

  it('a session token that does not verify gets 401 + X-Shopify-Retry-Invalid-Session-Request so App Bridge retries with a fresh one', async () => {
    const res = await call('/api/v1/getSettingInfo', {
      headers: { Authorization: `Bearer ${await sessionToken('x.myshopify.com', {}, 'not-the-app-secret')}` },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('X-Shopify-Retry-Invalid-Session-Request')).toBe('1');
    expect(res.headers.get('X-Shopify-API-Request-Failure-Reauthorize-Url')).toBeNull();
  });
});
