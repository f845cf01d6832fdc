import type { Db } from '../db/client';
import { createAdminClient, type AdminClient, type AdminClientOptions } from './graphql-client';
import { storedTokenSource, type TokenEnv } from './tokens';

/**
 * The Admin client for an installed shop: its stored (encrypted) token, refreshed ahead of expiry
 * and once more if Shopify rejects it. This is what routes and queue consumers call.
 */
export function shopifyClientFor(
  env: TokenEnv,
  db: Db,
  shop: { id: number; domain: string },
  options: Pick<AdminClientOptions, 'retryBaseMs' | 'maxAttempts' | 'maxThrottledAttempts'> = {},
): AdminClient {
  return createAdminClient({ env, shopDomain: shop.domain, token: storedTokenSource(env, db, shop.id), ...options });
}
