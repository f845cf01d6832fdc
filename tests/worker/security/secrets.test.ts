// Secrets never leave the Worker: not in responses, not in logs (console output captured across an
// OAuth install, API calls, a token refresh, Shopify failures and an unhandled error); access tokens are
// unreadable in D1 without the key; /files download links expire and are bound to their shop.
import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as s from '../../../worker/db/schema';
import { findShopByDomain } from '../../../worker/db/shops';
import { decryptSecret, encryptSecret } from '../../../worker/lib/crypto';
import { r2Key } from '../../../worker/lib/r2-keys';
import { LINK_TTL_MS, signedFileUrl } from '../../../worker/files/download-links';
import { createEmulatorShop } from '../emulator-client';
import { call, createShop, db, sessionHeadersFor } from '../helpers';
import { apiRoutes } from './fuzz-support';

afterEach(() => vi.restoreAllMocks());

/** Everything written to the console while `fn` runs, as one string. */
async function captureConsole(fn: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(
        args
          .map((a) => (typeof a === 'string' ? a : a instanceof Error ? `${a.message} ${a.stack}` : JSON.stringify(a)))
          .join(' '),
      );
    });
  }
  await fn();
  return lines.join('\n');
}

describe('secrets', { timeout: 120_000 }, () => {
  it('never appear in responses or logs, across install, every GET route, a token refresh and failures', async () => {
    const emu = await createEmulatorShop({ install: false });
    let bodies = '';
    let adminToken = '';
    const logs = await captureConsole(async () => {
      const landing = await call(await emu.launchUrl('/shopify/app'));
      bodies += await landing.clone().text();
      const { url } = await landing.json<{ url: string }>();
      const authorize = await fetch(url, { redirect: 'manual' });
      const cb = await call(authorize.headers.get('Location')!, { redirect: 'manual' });
      bodies += `${cb.headers.get('Location')} ${await cb.text()}`;
      const bought = await call('/api/v1/adminToken', {
        method: 'POST',
        headers: { Authorization: `Bearer ${await emu.sessionToken()}` },
      });
      const boughtText = await bought.text();
      bodies += boughtText;
      adminToken = /"(?:token|authToken|admin_token)"\s*:\s*"([^"]+)"/.exec(boughtText)?.[1] ?? '';
      expect(adminToken, boughtText.slice(0, 200)).not.toBe('');
      const headers = { Authorization: `Bearer ${adminToken}` };
      for (const r of apiRoutes.filter((x) => x.method === 'GET')) bodies += await (await call(r.path, { headers })).text();
      // Shopify refuses the token (expired): the Worker refreshes it and logs the refresh.
      await emu.expireTokens();
      bodies += await (await call('/api/v2/home/checkThemeAppExtension', { headers })).text();
      // Shopify fails hard: 5xx and throttling on every call.
      await emu.injectFault({ target: 'all', status: 503, times: -1 });
      bodies += await (await call('/api/v2/home/checkThemeAppExtension', { headers })).text();
      bodies += await (
        await call('/api/v1/changePlans', { method: 'POST', headers: await sessionHeadersFor(headers), json: { newLevel: 1 } })
      ).text();
      await emu.clearFaults();
      // An unhandled error (D1 binding broken for one call) reaches onError, which logs it.
      vi.spyOn(env.DB, 'prepare').mockImplementationOnce(() => {
        throw new Error(`boom with the secret nearby`);
      });
      bodies += await (await call('/api/v1/getUserSelectData', { headers })).text();
    });
    const row = (await findShopByDomain(db(), emu.domain))!;
    const accessToken = await decryptSecret(env.TOKEN_ENCRYPTION_KEY, row.accessTokenEnc!);
    const refreshToken = row.refreshTokenEnc ? await decryptSecret(env.TOKEN_ENCRYPTION_KEY, row.refreshTokenEnc) : '';
    expect(logs.length, 'the run logged nothing: the capture is broken').toBeGreaterThan(100);
    const secrets: [string, string][] = [
      ['SHOPIFY_API_SECRET', env.SHOPIFY_API_SECRET],
      ['TOKEN_ENCRYPTION_KEY', env.TOKEN_ENCRYPTION_KEY],
      ['PAGESPEED_API_KEY', env.PAGESPEED_API_KEY],
      ['access token', accessToken],
      ['admin token', adminToken],
      ...(refreshToken ? [['refresh token', refreshToken] as [string, string]] : []),
    ];
    for (const [name, value] of secrets) {
      expect(value.length, name).toBeGreaterThan(8);
      expect(logs.includes(value), `${name} in the logs`).toBe(false);
      // The admin token is the answer of adminToken itself; every other secret never leaves.
      if (name !== 'admin token') expect(bodies.includes(value), `${name} in a response`).toBe(false);
    }
  });

  it('access tokens in D1 are ciphertext that only the key opens', async () => {
    const emu = await createEmulatorShop({ install: false });
    await call('/api/v1/adminToken', { method: 'POST', headers: { Authorization: `Bearer ${await emu.sessionToken()}` } });
    const raw = await env.DB.prepare('SELECT * FROM shops WHERE domain = ?').bind(emu.domain).first<Record<string, unknown>>();
    const row = (await findShopByDomain(db(), emu.domain))!;
    const token = await decryptSecret(env.TOKEN_ENCRYPTION_KEY, row.accessTokenEnc!);
    const dump = JSON.stringify(raw);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(btoa(token));
    const otherKey = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
    await expect(decryptSecret(otherKey, row.accessTokenEnc!)).rejects.toThrow();
    // Two encryptions of one token differ (random IV), so equal tokens are not recognisable either.
    expect(await encryptSecret(env.TOKEN_ENCRYPTION_KEY, token)).not.toBe(await encryptSecret(env.TOKEN_ENCRYPTION_KEY, token));
  });
});

describe('download links', () => {
  async function shopWithFile() {
    const { shop, headers } = await createShop();
    const item = await db()
      .insert(s.items)
      .values({ shopId: shop.id, dataType: 1, resourceId: '1', title: 'x', optStatus: 2 })
      .returning()
      .get();
    const key = r2Key('originals', shop.id, `${crypto.randomUUID()}.jpg`);
    await env.BUCKET.put(key, new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]));
    const image = await db()
      .insert(s.images)
      .values({
        shopId: shop.id,
        itemId: item.id,
        imgId: 'gid://shopify/MediaImage/1',
        src: 'https://cdn.example/x.jpg',
        status: 'compressed',
        originalKey: key,
        fileName: 'x.jpg',
        fileType: 'jpg',
      })
      .returning()
      .get();
    return { shop, headers, image };
  }
  const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

  it('open while fresh, refuse once expired, tampered or moved to another shop', async () => {
    const a = await shopWithFile();
    const b = await shopWithFile();
    const fresh = path(await signedFileUrl(env, a.shop.id, a.image.id, 'before'));
    expect((await call(fresh)).status).toBe(200);

    const old = path(await signedFileUrl(env, a.shop.id, a.image.id, 'before', Date.now() - LINK_TTL_MS - 120_000));
    expect((await call(old)).status).toBe(403);
    // The expiry is part of the signature: pushing it forward breaks the link.
    const extended = old.replace(/exp=\d+/, `exp=${Date.now() + LINK_TTL_MS}`);
    expect((await call(extended)).status).toBe(403);
    expect((await call(fresh.replace(/sig=[^&]+/, 'sig=AAAA'))).status).toBe(403);
    expect((await call(fresh.replace('/before', '/after'))).status).toBe(403);
    // A's signature with B's shop id in the path, and B's own valid link pointing at A's image.
    expect((await call(fresh.replace(`/files/${a.shop.id}/`, `/files/${b.shop.id}/`))).status).toBe(403);
    const crossed = path(await signedFileUrl(env, b.shop.id, a.image.id, 'before'));
    expect((await call(crossed)).status).toBe(404);
  });
});
