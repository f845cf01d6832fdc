import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdminClient } from '../../../worker/shopify/graphql-client';
import {
  ShopifyGraphqlError,
  ShopifyHttpError,
  ShopifyUnauthorizedError,
  ShopifyUserError,
} from '../../../worker/shopify/errors';
import { updateFile } from '../../../worker/shopify/operations/files';
import { CostBucket, refilled, waitFor } from '../../../worker/shopify/throttle';
import { installFakeShopify } from './fake-shopify';

let fake: ReturnType<typeof installFakeShopify> | undefined;
afterEach(() => fake?.restore());

const shopDomain = () => `client-${crypto.randomUUID().slice(0, 8)}.myshopify.com`;
const client = (token = 'shpat_x', extra: Partial<Parameters<typeof createAdminClient>[0]> = {}) =>
  createAdminClient({ env, shopDomain: shopDomain(), token, retryBaseMs: 20, bucket: new CostBucket(), ...extra });

describe('throttle arithmetic', () => {
  it('refills at the restore rate up to the maximum', () => {
    const s = { maximumAvailable: 1000, currentlyAvailable: 100, restoreRate: 50 };
    expect(refilled(s, 0, 2000)).toBe(200);
    expect(refilled(s, 0, 60_000)).toBe(1000);
  });
  it('waits exactly for the shortfall, counting reserved points', () => {
    expect(waitFor(100, 150, 0, 100)).toBe(0);
    expect(waitFor(100, 150, 100, 100)).toBe(500);
    expect(waitFor(100, 0, 0, 50)).toBe(2000);
  });
});

describe('Admin GraphQL client', () => {
  it('a burst of 200 calls against a small bucket never overdraws it and no THROTTLED reaches the caller', async () => {
    // 200 calls x 10 points = 2,000 points against a 100-point bucket restoring 1,000/s: the client
    // must pace itself (about 2 s) instead of spending what is not there.
    fake = installFakeShopify({ maximumAvailable: 100, restoreRate: 1000, cost: 10 });
    const c = client();
    const results = await Promise.all(
      Array.from({ length: 200 }, () => c.request<{ shop: { name: string } }>('query { shop { name } }')),
    );
    expect(results).toHaveLength(200);
    expect(fake.stats.graphql).toBe(200);
    expect(fake.stats.throttled).toBeLessThanOrEqual(1); // at most the first probe before any status is known
    expect(fake.stats.minAvailable).toBeGreaterThanOrEqual(0);
  }, 30_000);

  it('waits and retries when another consumer drained the bucket (THROTTLED answer)', async () => {
    fake = installFakeShopify({ maximumAvailable: 100, restoreRate: 500, cost: 50 });
    const c = client();
    await c.request('query { shop { name } }');
    fake.drain();
    const data = await c.request<{ shop: { name: string } }>('query { shop { name } }');
    expect(data.shop.name).toBe('Fake');
    expect(fake.stats.throttled).toBeGreaterThanOrEqual(1);
  });

  it('retries 5xx and 429 with backoff, then succeeds', async () => {
    fake = installFakeShopify();
    fake.failNext(503, 2);
    fake.failNext(429, 1, { 'Retry-After': '0' });
    const data = await client().request<{ shop: { name: string } }>('query { shop { name } }');
    expect(data.shop.name).toBe('Fake');
  });

  it('gives up after the attempts with a retryable typed error', async () => {
    fake = installFakeShopify();
    fake.failNext(502, 10);
    const err = await client('t', { maxAttempts: 3 })
      .request('query { shop { name } }')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ShopifyHttpError);
    expect((err as ShopifyHttpError).retryable).toBe(true);
  });

  it('turns userErrors into ShopifyUserError and GraphQL errors into ShopifyGraphqlError', async () => {
    fake = installFakeShopify({
      graphql: ({ query }) =>
        query.includes('fileUpdate')
          ? {
              data: {
                fileUpdate: {
                  files: null,
                  userErrors: [
                    {
                      field: ['files', '0', 'filename'],
                      message: 'Filename extension must match',
                      code: 'INVALID_FILENAME_EXTENSION',
                    },
                  ],
                },
              },
            }
          : { errors: [{ message: "Field 'nope' doesn't exist on type 'Shop'", extensions: { code: 'undefinedField' } }] },
    });
    const c = client();
    const userErr = await updateFile(c, { id: 'gid://shopify/MediaImage/1', filename: 'a.png' }).catch((e: unknown) => e);
    expect(userErr).toBeInstanceOf(ShopifyUserError);
    expect((userErr as ShopifyUserError).codes).toEqual(['INVALID_FILENAME_EXTENSION']);
    const gqlErr = await c.request('query { shop { nope } }').catch((e: unknown) => e);
    expect(gqlErr).toBeInstanceOf(ShopifyGraphqlError);
  });

  it('on 401 renews the token once and retries with the new one; a second 401 is a typed error', async () => {
    fake = installFakeShopify({
      graphql: ({ token }) =>
        token === 'good' ? { data: { ok: true } } : { status: 401, data: { errors: '[API] Invalid API key or access token' } },
    });
    let renewals = 0;
    const ok = createAdminClient({
      env,
      shopDomain: shopDomain(),
      bucket: new CostBucket(),
      token: { get: async () => 'stale', renew: async () => (renewals++, 'good') },
    });
    expect(await ok.request('query { ok }')).toEqual({ ok: true });
    expect(renewals).toBe(1);
    const bad = createAdminClient({
      env,
      shopDomain: shopDomain(),
      bucket: new CostBucket(),
      token: { get: async () => 'stale', renew: async () => 'still-bad' },
    });
    await expect(bad.request('query { ok }')).rejects.toBeInstanceOf(ShopifyUnauthorizedError);
  });
});

describe('Admin GraphQL client, malformed answers', () => {
  it('a 200 that is not JSON is retried and does not leak a reservation', async () => {
    let n = 0;
    fake = installFakeShopify({
      graphql: () => (++n === 1 ? { status: 200, raw: '<html>proxy</html>' } : { data: { ok: true } }),
    });
    const bucket = new CostBucket();
    const c = createAdminClient({ env, shopDomain: shopDomain(), token: 't', bucket, retryBaseMs: 10 });
    expect(await c.request('query { ok }')).toEqual({ ok: true });
    expect(bucket.estimate()).toBeGreaterThan(1980); // 2,000 minus the one 10-point call; a leaked reservation would show 50 less
  });
});
