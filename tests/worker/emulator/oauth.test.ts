// The emulator's OAuth and token endpoint behave like Shopify's: signed redirects, one-time codes,
// token exchange only for valid session tokens, rotating refresh tokens, 401 for expired tokens.
import { env } from 'cloudflare:test';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { hmacSha256, toHex } from '../../../worker/lib/crypto';
import { createEmulatorShop, type EmulatorShop } from '../emulator-client';

let shop: EmulatorShop;
beforeAll(async () => {
  shop = await createEmulatorShop({ seed: 'empty' });
});

const tokenRequest = (body: Record<string, unknown>) =>
  fetch(`${shop.base}/admin/oauth/access_token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ client_id: env.SHOPIFY_API_KEY, client_secret: env.SHOPIFY_API_SECRET, ...body }),
  });

const shopQuery = (token: string) =>
  fetch(`${shop.base}/admin/api/2026-10/graphql.json`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': token },
    body: JSON.stringify({ query: '{ shop { myshopifyDomain } }' }),
  });

async function sessionToken(domain: string, secret = env.SHOPIFY_API_SECRET, aud = env.SHOPIFY_API_KEY) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: `https://${domain}/admin`, dest: `https://${domain}`, sid: 's1' })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience(aud)
    .setSubject('42')
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + 60)
    .sign(new TextEncoder().encode(secret));
}

describe('emulator OAuth', () => {
  it('authorize redirects to the app with a code and a valid HMAC; the code works once', async () => {
    const res = await fetch(
      `${shop.base}/admin/oauth/authorize?client_id=${env.SHOPIFY_API_KEY}&scope=read_products,write_files&redirect_uri=${encodeURIComponent(`${env.APP_URL}/shopify/callback`)}&state=nonce-1`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('Location')!);
    expect(back.origin + back.pathname).toBe(`${env.APP_URL}/shopify/callback`);
    const params = Object.fromEntries(back.searchParams);
    expect(params).toMatchObject({ shop: shop.domain, state: 'nonce-1' });
    const { hmac, ...rest } = params;
    const message = Object.keys(rest)
      .sort()
      .map((k) => `${k}=${rest[k]}`)
      .join('&');
    expect(hmac).toBe(toHex(await hmacSha256(env.SHOPIFY_API_SECRET, message)));

    const first = await tokenRequest({ code: params.code, expiring: 1 });
    expect(first.status).toBe(200);
    const tokens = await first.json<{ access_token: string; scope: string; expires_in: number; refresh_token: string }>();
    expect(tokens).toMatchObject({ scope: 'read_products,write_files', expires_in: 3600 });
    expect(tokens.refresh_token).toMatch(/^shprt_/);
    expect((await shopQuery(tokens.access_token)).status).toBe(200);
    expect((await tokenRequest({ code: params.code })).status).toBe(400);
  });

  it('refuses an unknown client id and a foreign redirect host', async () => {
    const bad = await fetch(
      `${shop.base}/admin/oauth/authorize?client_id=nope&scope=x&redirect_uri=${encodeURIComponent(`${env.APP_URL}/cb`)}`,
      { redirect: 'manual' },
    );
    expect(bad.status).toBe(400);
    const foreign = await fetch(
      `${shop.base}/admin/oauth/authorize?client_id=${env.SHOPIFY_API_KEY}&scope=x&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`,
      { redirect: 'manual' },
    );
    expect(foreign.status).toBe(400);
  });

  it('token exchange accepts only a session token signed for this app and shop', async () => {
    const exchange = async (subject: string) =>
      tokenRequest({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: subject,
        subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
        requested_token_type: 'urn:shopify:params:oauth:token-type:offline-access-token',
        expiring: '1',
      });
    expect((await exchange(await sessionToken(shop.domain, 'wrong-secret-0123456789abcdef'))).status).toBe(400);
    expect((await exchange(await sessionToken(shop.domain, env.SHOPIFY_API_SECRET, 'other-app'))).status).toBe(400);
    expect((await exchange(await sessionToken('another-shop.myshopify.com'))).status).toBe(400);
    const ok = await exchange(await sessionToken(shop.domain));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ expires_in: 3600, refresh_token_expires_in: 7776000 });
    expect((await shop.info()).stats.tokenExchanges).toBe(1);
  });

  it('refresh tokens rotate (each works once) and expired access tokens get 401', async () => {
    const first = await shop.install();
    await shop.expireTokens();
    const expired = await shopQuery(first.access_token);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toEqual({
      errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
    });

    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    const next = await refreshed.json<{ access_token: string; refresh_token: string }>();
    expect(next.refresh_token).not.toBe(first.refresh_token);
    expect((await shopQuery(next.access_token)).status).toBe(200);
    expect((await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).status).toBe(400);
    expect((await shop.info()).stats.tokenRefreshes).toBe(1);
  });

  it('uninstall revokes tokens and queues a signed app/uninstalled webhook', async () => {
    const tokens = await shop.install();
    const { webhook } = await shop.uninstall();
    expect(webhook?.topic).toBe('app/uninstalled');
    expect((await shopQuery(tokens.access_token)).status).toBe(401);
  });
});
