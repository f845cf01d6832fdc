import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../lib/errors';
import { MSG_TOO_MANY_REQUESTS, RATE_LIMITS } from '../lib/limits';
import type { AppEnv } from '../types';

type LimiterBinding = 'SHOPIFY_RATE_LIMITER' | 'WEBHOOK_RATE_LIMITER';

/**
 * Per-client rate limit on the unauthenticated entry points (/shopify/*, /webhooks), through the Workers
 * rate-limiting binding (wrangler.toml [[ratelimits]]; Miniflare runs the same binding locally and in
 * tests). The client is the address Cloudflare puts in CF-Connecting-IP; a request without one did not
 * come through Cloudflare's edge (in-process tests), so there is no client to count.
 */
export const rateLimit = (binding: LimiterBinding): MiddlewareHandler<AppEnv> =>
  async function rateLimit(c, next) {
    const limiter = c.env[binding] as RateLimit | undefined;
    const client = c.req.header('CF-Connecting-IP');
    if (limiter && client) {
      const { success } = await limiter.limit({ key: client });
      if (!success) {
        const period = binding === 'SHOPIFY_RATE_LIMITER' ? RATE_LIMITS.shopify.periodSeconds : RATE_LIMITS.webhooks.periodSeconds;
        throw new ApiError(429, MSG_TOO_MANY_REQUESTS, { 'Retry-After': String(period) });
      }
    }
    await next();
  };
