// The emulator's embedded admin page (emulator/http/admin-embedded.ts), which the embedded browser
// journey stands on: it frames `${APP_URL}/<path>` with the launch query Shopify's admin adds, signed as
// Shopify signs it, and mints session tokens as App Bridge receives them. The Worker accepts that launch
// and installs a new shop by token exchange, with no redirect out of the admin.
import { env } from 'cloudflare:test';
import { jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createEmulatorShop, emulatorOrigin } from '../emulator-client';
import { call } from '../helpers';

async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return [...new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(message)))]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
}

/** The iframe's src on the admin page. */
async function framedUrl(res: Response): Promise<URL> {
  const html = await res.text();
  const src = /<iframe id="app-iframe"[^>]*\ssrc="([^"]+)"/.exec(html)?.[1];
  if (!src) throw new Error(`no app iframe in ${html.slice(0, 300)}`);
  return new URL(src.replace(/&#38;/g, '&'));
}

async function expectSessionToken(token: string, shop: string) {
  const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(env.SHOPIFY_API_SECRET), {
    algorithms: ['HS256'],
    audience: env.SHOPIFY_API_KEY,
  });
  expect(protectedHeader.alg).toBe('HS256');
  expect(payload).toMatchObject({ iss: `https://${shop}/admin`, dest: `https://${shop}` });
  for (const claim of ['sub', 'exp', 'nbf', 'iat', 'jti', 'sid']) expect(payload[claim], claim).toBeDefined();
  expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(60);
}

describe('emulator: Shopify’s admin page framing the embedded app', () => {
  it('frames application_url + path with a launch query signed with the app secret and a valid id_token', async () => {
    const shop = await createEmulatorShop({ seed: 'empty', install: false });
    const store = shop.domain.replace('.myshopify.com', '');
    const res = await fetch(`${emulatorOrigin()}/store/${store}/apps/${env.SHOPIFY_API_KEY}/image_optimisation`);
    expect(res.status).toBe(200);
    const src = await framedUrl(res);
    expect(`${src.origin}${src.pathname}`).toBe(`${env.APP_URL}/image_optimisation`);
    const q = Object.fromEntries(src.searchParams);
    expect(Object.keys(q).sort()).toEqual(['embedded', 'hmac', 'host', 'id_token', 'locale', 'session', 'shop', 'timestamp']);
    expect(q).toMatchObject({
      embedded: '1',
      shop: shop.domain,
      host: btoa(`admin.shopify.com/store/${store}`).replace(/=+$/, ''),
    });
    const message = Object.keys(q)
      .filter((k) => k !== 'hmac')
      .sort()
      .map((k) => `${k}=${q[k]}`)
      .join('&');
    expect(q.hmac).toBe(await hmacHex(env.SHOPIFY_API_SECRET, message));
    await expectSessionToken(q.id_token!, shop.domain);

    // The app root for the bare app URL; the app's handle works like its key; others are not this app.
    expect((await framedUrl(await fetch(`${emulatorOrigin()}/store/${store}/apps/${env.SHOPIFY_APP_HANDLE}`))).pathname).toBe(
      '/',
    );
    expect((await fetch(`${emulatorOrigin()}/store/${store}/apps/someone-else`)).status).toBe(404);
    expect((await fetch(`${emulatorOrigin()}/store/no-such-store-x9/apps/${env.SHOPIFY_API_KEY}`)).status).toBe(404);
  });

  it('answers App Bridge: session tokens and fresh launch URLs for a path', async () => {
    const shop = await createEmulatorShop({ seed: 'empty', install: false });
    const store = shop.domain.replace('.myshopify.com', '');
    const { token } = await (
      await fetch(`${emulatorOrigin()}/store/${store}/app-bridge/id-token`, { method: 'POST' })
    ).json<{ token: string }>();
    await expectSessionToken(token, shop.domain);
    const { url } = await (
      await fetch(`${emulatorOrigin()}/store/${store}/app-bridge/launch?path=${encodeURIComponent('/setting')}`)
    ).json<{ url: string }>();
    expect(new URL(url).pathname).toBe('/setting');
    expect(new URL(url).searchParams.get('shop')).toBe(shop.domain);
  });

  it('the Worker installs a new shop from that launch by token exchange, staying in the admin', async () => {
    const shop = await createEmulatorShop({ seed: 'empty', install: false });
    const store = shop.domain.replace('.myshopify.com', '');
    const src = await framedUrl(await fetch(`${emulatorOrigin()}/store/${store}/apps/${env.SHOPIFY_API_KEY}`));
    const landing = await (await call(`/shopify/app${src.search}`)).json<{ code: number; url: string }>();
    expect(landing.code).toBe(302); // a path inside the app, not Shopify's authorize page (301)
    expect(landing.url.startsWith('/')).toBe(true);
    const after = await (
      await fetch(`${emulatorOrigin()}/__emulator/shops/${shop.domain}`)
    ).json<{ installed: boolean; stats: { tokenExchanges: number; authorizationCodes: number } }>();
    expect(after.installed).toBe(true);
    expect(after.stats.tokenExchanges).toBeGreaterThan(0);
    expect(after.stats.authorizationCodes).toBe(0);
  });
});
