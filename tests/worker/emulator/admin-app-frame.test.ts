// After OAuth and after a billing decision the app sends the browser to its page inside Shopify's admin
// (`<SHOPIFY_ORIGIN>/admin.shopify.com/store/<store>/apps/<api key>/<path>`, or the shop's
// `/admin/apps/...`). The unified form forwards to `${APP_URL}/<path>?<query>` (the standalone admin);
// the shop's form opens the emulator's admin page that frames the app, query kept.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { encryptSecret } from '../../../worker/lib/crypto';
import { createEmulatorShop, emulatorOrigin } from '../emulator-client';
import { call, createShop, sessionHeadersFor } from '../helpers';

const get = (url: string) => fetch(url, { redirect: 'manual' });

describe('emulator: the app page inside the Shopify admin', () => {
  it('forwards admin.shopify.com/store/<store>/apps/<api key>/<path> to the app’s own page, query kept', async () => {
    const shop = await createEmulatorShop({ seed: 'empty' });
    const store = shop.domain.replace('.myshopify.com', '');
    const res = await get(
      `${emulatorOrigin()}/admin.shopify.com/store/${store}/apps/${env.SHOPIFY_API_KEY}/pricing?billing=approved&x=1`,
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe(`${env.APP_URL}/pricing?billing=approved&x=1`);
    expect(
      (await get(`${emulatorOrigin()}/admin.shopify.com/store/${store}/apps/${env.SHOPIFY_API_KEY}`)).headers.get('Location'),
    ).toBe(`${env.APP_URL}/`);
    expect((await get(`${shop.base}/admin/apps/${env.SHOPIFY_API_KEY}/details?prodId=3`)).headers.get('Location')).toBe(
      `${emulatorOrigin()}/store/${store}/apps/${env.SHOPIFY_API_KEY}/details?prodId=3`,
    );
    expect((await get(`${shop.base}/admin/apps/someone-else/details`)).status).toBe(404);
    // Another app or an unknown store is not ours to forward.
    expect((await get(`${emulatorOrigin()}/admin.shopify.com/store/${store}/apps/someone-else/pricing`)).status).toBe(404);
    expect(
      (await get(`${emulatorOrigin()}/admin.shopify.com/store/no-such-store-x1/apps/${env.SHOPIFY_API_KEY}/pricing`)).status,
    ).toBe(404);
  });

  it('after OAuth the browser lands on the app', async () => {
    const shop = await createEmulatorShop({ install: false, seed: 'empty' });
    const { url } = await (await call(await shop.launchUrl('/shopify/app'))).json<{ url: string }>();
    const authorize = await get(url);
    const callback = await call(authorize.headers.get('Location')!, { redirect: 'manual' });
    const adminPage = callback.headers.get('Location')!;
    expect(adminPage).toContain('/admin.shopify.com/store/');
    const landed = await get(adminPage);
    expect(landed.status).toBe(302);
    expect(landed.headers.get('Location')).toBe(`${env.APP_URL}/`);
  });

  it('after approving a plan the browser lands on the app’s /pricing page inside the admin', async () => {
    const emu = await createEmulatorShop({ seed: 'empty', install: true });
    const t = emu.tokens!;
    const enc = (s: string) => encryptSecret(env.TOKEN_ENCRYPTION_KEY, s);
    const { headers } = await createShop({
      domain: emu.domain,
      accessTokenEnc: await enc(t.access_token),
      accessTokenExpiresAt: Date.now() + (t.expires_in ?? 3600) * 1000,
      refreshTokenEnc: t.refresh_token ? await enc(t.refresh_token) : null,
      refreshTokenExpiresAt: t.refresh_token_expires_in ? Date.now() + t.refresh_token_expires_in * 1000 : null,
    });
    const plan = await (
      await call('/api/v1/changePlans', { method: 'POST', headers: await sessionHeadersFor(headers), form: { newLevel: '1' } })
    ).json<{ url: string }>();
    const pressed = await fetch(plan.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'decision=approve',
      redirect: 'manual',
    });
    const returnUrl = new URL(pressed.headers.get('Location')!);
    const back = await call(returnUrl.pathname + returnUrl.search, { redirect: 'manual' });
    expect(back.status).toBe(302);
    const landed = await get(back.headers.get('Location')!);
    expect(landed.status).toBe(302);
    const store = emu.domain.replace('.myshopify.com', '');
    expect(landed.headers.get('Location')).toBe(
      `${emulatorOrigin()}/store/${store}/apps/${env.SHOPIFY_API_KEY}/pricing?billing=approved&kind=plan`,
    );
    // The admin page frames the app's /pricing with Shopify's signed launch query and the result.
    const page = await (await fetch(landed.headers.get('Location')!)).text();
    const src = new URL(/<iframe[^>]*\ssrc="([^"]+)"/.exec(page)![1]!.replace(/&#38;/g, '&'));
    expect(src.origin + src.pathname).toBe(`${env.APP_URL}/pricing`);
    expect(Object.fromEntries(src.searchParams)).toMatchObject({
      billing: 'approved',
      kind: 'plan',
      shop: emu.domain,
      embedded: '1',
    });
    expect(src.searchParams.get('hmac')).toMatch(/^[0-9a-f]{64}$/);
  });
});
