import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { findShopById } from '../../../worker/db/shops';
import { decryptSecret, encryptSecret } from '../../../worker/lib/crypto';
import { shopifyClientFor } from '../../../worker/shopify/client';
import { ShopifyReauthRequiredError } from '../../../worker/shopify/errors';
import { getAccessToken, refreshWithLease } from '../../../worker/shopify/tokens';
import { createShop, db } from '../helpers';
import { installFakeShopify } from './fake-shopify';

let fake: ReturnType<typeof installFakeShopify> | undefined;
afterEach(() => fake?.restore());

async function shopWithExpiredToken(expiresInMs = -60_000) {
  const { shop } = await createShop({
    accessTokenEnc: await encryptSecret(env.TOKEN_ENCRYPTION_KEY, 'shpat_old'),
    accessTokenExpiresAt: Date.now() + expiresInMs,
    refreshTokenEnc: await encryptSecret(env.TOKEN_ENCRYPTION_KEY, 'shprt_old'),
    refreshTokenExpiresAt: Date.now() + 86_400_000,
    scopes: env.SHOPIFY_SCOPES,
  });
  return shop;
}

describe('expiring offline tokens', () => {
  it('concurrent requests with an expired token cause exactly one refresh (in-isolate)', async () => {
    fake = installFakeShopify({ tokenDelayMs: 150 });
    const shop = await shopWithExpiredToken();
    const tokens = await Promise.all(Array.from({ length: 20 }, () => getAccessToken(env, db(), shop.id)));
    expect(fake.stats.refresh).toBe(1);
    expect(new Set(tokens).size).toBe(1);
    expect(fake.tokenBodies[0]).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: 'shprt_old',
      client_id: env.SHOPIFY_API_KEY,
    });
    const row = await findShopById(db(), shop.id);
    expect(row!.accessTokenEnc).not.toContain('shpat');
    expect(await decryptSecret(env.TOKEN_ENCRYPTION_KEY, row!.accessTokenEnc!)).toBe(tokens[0]);
    expect(row!.accessTokenExpiresAt!).toBeGreaterThan(Date.now() + 3_000_000);
    expect(row!.tokenRefreshLeaseId).toBeNull();
  });

  it('racers that share no memory (as separate isolates) still refresh once: D1 holds the lease', async () => {
    fake = installFakeShopify({ tokenDelayMs: 200 });
    const shop = await shopWithExpiredToken();
    // refreshWithLease is the cross-isolate path, called directly so no in-memory promise is shared.
    const tokens = await Promise.all(
      Array.from({ length: 8 }, () => refreshWithLease(env, db(), shop.id, shop.accessTokenExpiresAt)),
    );
    expect(fake.stats.refresh).toBe(1);
    expect(new Set(tokens).size).toBe(1);
  });

  it('a request that read the row before someone else refreshed does not refresh again', async () => {
    fake = installFakeShopify();
    const shop = await shopWithExpiredToken();
    const first = await refreshWithLease(env, db(), shop.id, shop.accessTokenExpiresAt);
    const late = await refreshWithLease(env, db(), shop.id, shop.accessTokenExpiresAt);
    expect(late).toBe(first);
    expect(fake.stats.refresh).toBe(1);
  });

  it('a token still valid beyond the margin is used as is', async () => {
    fake = installFakeShopify();
    const shop = await shopWithExpiredToken(30 * 60_000);
    expect(await getAccessToken(env, db(), shop.id)).toBe('shpat_old');
    expect(fake.stats.refresh).toBe(0);
  });

  it('the client refreshes before calling Shopify and sends the fresh token', async () => {
    fake = installFakeShopify({ graphql: ({ token }) => ({ data: { token } }) });
    const shop = await shopWithExpiredToken();
    const c = shopifyClientFor(env, db(), shop);
    const results = await Promise.all(Array.from({ length: 5 }, () => c.request<{ token: string }>('query { token }')));
    expect(fake.stats.refresh).toBe(1);
    expect(fake.validTokens.has(results[0]!.token)).toBe(true);
  });

  it('a shop without a grant needs re-authorisation', async () => {
    const { shop } = await createShop();
    await expect(getAccessToken(env, db(), shop.id)).rejects.toBeInstanceOf(ShopifyReauthRequiredError);
  });
});
