import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../lib/errors';
import { RATE_LIMITS } from '../lib/limits';
import { msg } from '../../shared/messages';
import type { AppEnv } from '../types';

/** Each binding (wrangler.toml [[ratelimits]]) and the numbers it is configured with (worker/lib/limits.ts). */
const LIMITERS = {
  SHOPIFY_RATE_LIMITER: RATE_LIMITS.shopify,
  WEBHOOK_RATE_LIMITER: RATE_LIMITS.webhooks,
} as const;

type LimiterBinding = keyof typeof LIMITERS;

/**
 * What counts against the limit: every request, or only the ones the route refused as unauthenticated
 * (401). The latter is for /webhooks: all of Shopify's deliveries come from a few sending addresses, and
 * a product import sends thousands a minute; a correctly signed delivery must never meet a 429 there.
 * Forged or replayed ones (HMAC or trust check failed: 401) are counted, and past the limit answered 429.
 */
export type RateLimitCounts = 'every' | 'refused';

/**
 * Per-client rate limit on the unauthenticated entry points (/shopify/*, /webhooks), through the Workers
 * rate-limiting binding (Miniflare runs the same binding locally and in tests). The client is the address
 * Cloudflare puts in CF-Connecting-IP; a request without one did not come through Cloudflare's edge
 * (in-process tests), so there is no client to count.
 */
export const rateLimit = (binding: LimiterBinding, counts: RateLimitCounts = 'every'): MiddlewareHandler<AppEnv> =>
  async function rateLimit(c, next) {
    const limiter = c.env[binding] as RateLimit | undefined;
    const client = c.req.header('CF-Connecting-IP');
    const overLimit = async () => !!limiter && !!client && !(await limiter.limit({ key: client })).success;
    const tooMany = () =>
      new ApiError(429, msg('server.limits.tooManyRequests'), { 'Retry-After': String(LIMITERS[binding].periodSeconds) });
    if (counts === 'every' && (await overLimit())) throw tooMany();
    await next();
    if (counts === 'refused' && c.res.status === 401 && (await overLimit())) throw tooMany();
  };
