import { env } from 'cloudflare:test';
import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminTokens } from '../../../worker/db/schema';
import { findShopByDomain } from '../../../worker/db/shops';
import { sha256Hex } from '../../../worker/lib/crypto';
import { call, createShop, db, sessionToken } from '../helpers';
import { installFakeShopify, shopInfoReply } from '../shopify/fake-shopify';

let fake: ReturnType<typeof installFakeShopify> | undefined;
beforeEach(() => {
  vi.spyOn(env.SYNC_QUEUE, 'send').mockResolvedValue(undefined as never);
});
afterEach(() => {
  fake?.restore();
  vi.restoreAllMocks();
});

const issue = (token: string) => call('/api/v1/adminToken', { method: 'POST', headers: { Authorization: `Bearer ${token}` } });

/** A token with full control over every claim (the shared helper fixes aud/exp/nbf). */
async function mint(shop: string, o: { aud?: string; exp?: number; nbf?: number; iss?: string; secret?: string } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: o.iss ?? `https://${shop}/admin`,
    dest: `https://${shop}`,
    aud: o.aud ?? env.SHOPIFY_API_KEY,
    sub: '42',
    exp: o.exp ?? now + 60,
    nbf: o.nbf ?? now,
    iat: now,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(o.secret ?? env.SHOPIFY_API_SECRET));
}

async function expectRefused(token: string) {
  const res = await issue(token);
  expect(res.status).toBe(401);
  expect(res.headers.get('X-Shopify-Retry-Invalid-Session-Request')).toBe('1');
}

describe('App Bridge session tokens', () => {
  it('refuses forged, expired, not-yet-valid and wrong-audience tokens, and iss/dest disagreement', async () => {
    const { shop } = await createShop({ accessTokenEnc: 'x', scopes: env.SHOPIFY_SCOPES });
    const now = Math.floor(Date.now() / 1000);
    expect((await issue(await mint(shop.domain))).status).toBe(200); // the control: same shape, valid
    await expectRefused(await mint(shop.domain, { secret: 'not-the-app-secret' }));
    await expectRefused(await mint(shop.domain, { exp: now - 120 }));
    await expectRefused(await mint(shop.domain, { nbf: now + 120 }));
    await expectRefused(await mint(shop.domain, { aud: 'another-app' }));
    await expectRefused(await mint(shop.domain, { iss: 'https://other-shop.myshopify.com/admin' }));
    await expectRefused(await mint(shop.domain, { iss: `https://${shop.domain}/somewhere` }));
    await expectRefused(await mint('evil.example.com'));
    // alg none: an unsigned token must never pass.
    const unsigned = `${btoa(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${btoa(JSON.stringify({ dest: `https://${shop.domain}`, iss: `https://${shop.domain}/admin`, aud: env.SHOPIFY_API_KEY, exp: now + 60, nbf: now }))}.`;
    await expectRefused(unsigned);
  });

  it('accepts a valid token within the clock tolerance', async () => {
    const { shop } = await createShop({ accessTokenEnc: 'x', scopes: env.SHOPIFY_SCOPES });
    const now = Math.floor(Date.now() / 1000);
    const res = await issue(await mint(shop.domain, { nbf: now + 5, exp: now - 5 }));
    expect(res.status).toBe(200);
  });

  it('installs through token exchange when a valid session token names a shop without a grant', async () => {
    fake = installFakeShopify({ graphql: () => shopInfoReply({}, 'pt-BR') });
    const domain = `managed-${crypto.randomUUID().slice(0, 8)}.myshopify.com`;
    const token = await sessionToken(domain);
    const res = await issue(token);
    expect(res.status).toBe(200);
    expect(fake.stats.exchange).toBe(1);
    expect(fake.tokenBodies[0]).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: token,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      requested_token_type: 'urn:shopify:params:oauth:token-type:offline-access-token',
      expiring: '1',
    });
    const row = await findShopByDomain(db(), domain);
    expect(row?.accessTokenEnc).toBeTruthy();
    expect(row?.language).toBe('pt_BR');
  });
});

describe('token exchange failures', () => {
  it('a new shop whose token exchange is refused is not let in, is sent to re-authorise, and no row is created', async () => {
    // No fake here: the token endpoint (the emulator, which does not know this shop) refuses.
    const domain = `unknown-${crypto.randomUUID().slice(0, 8)}.myshopify.com`;
    const token = await sessionToken(domain);
    const res = await issue(token);
    expect(res.status).toBe(401);
    // The shop has no row: the URL carries the session token, without which re-authorisation refuses it.
    expect(res.headers.get('X-Shopify-API-Request-Failure-Reauthorize-Url')).toBe(
      `${env.APP_URL}/shopify/reShopifyAuthor?shop=${domain}&id_token=${token}`,
    );
    expect(await findShopByDomain(db(), domain)).toBeUndefined();
  });

  it('an installed shop keeps using the app while the exchange fails', async () => {
    const { shop } = await createShop();
    expect((await issue(await sessionToken(shop.domain))).status).toBe(200);
  });
});

describe('admin token (authToken outside the admin)', () => {
  it('is issued with a session token only, is at least 32 characters, stored hashed, rotates and revokes', async () => {
    const { shop } = await createShop({ accessTokenEnc: 'x', scopes: env.SHOPIFY_SCOPES });
    const st = await sessionToken(shop.domain);
    const first = (await (await issue(st)).json<{ data: { authToken: string } }>()).data.authToken;
    expect(first.length).toBeGreaterThanOrEqual(32);
    const stored = await db().select().from(adminTokens).where(eq(adminTokens.shopId, shop.id)).all();
    expect(stored.map((t) => t.tokenHash)).toEqual([await sha256Hex(first)]);
    expect(stored[0]!.userId).toBe('42'); // the session token's sub

    // An admin token cannot mint another one.
    expect((await issue(first)).status).toBe(401);

    const second = (await (await issue(st)).json<{ data: { authToken: string } }>()).data.authToken;
    expect(second).not.toBe(first);
    const revokeWithOld = await call('/api/v1/adminToken', { method: 'DELETE', headers: { Authorization: `Bearer ${first}` } });
    expect(revokeWithOld.status).toBe(401);
    const revoke = await call('/api/v1/adminToken', { method: 'DELETE', headers: { Authorization: `Bearer ${second}` } });
    expect(revoke.status).toBe(200);
    expect(await db().select().from(adminTokens).where(eq(adminTokens.shopId, shop.id)).all()).toEqual([]);
    expect((await call('/api/v1/adminToken', { method: 'DELETE', headers: { Authorization: `Bearer ${second}` } })).status).toBe(
      401,
    );
  });

  it('refuses tokens shorter than 32 characters', async () => {
    const res = await call('/api/v1/adminToken', { method: 'DELETE', headers: { Authorization: 'Bearer short-token' } });
    expect(res.status).toBe(401);
  });
});
