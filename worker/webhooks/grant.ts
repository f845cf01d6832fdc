// Whether Shopify still honours a shop's grant: app/uninstalled is acted on only when Shopify itself
// refuses the shop's token, never on the word of a webhook body (which can be replayed: the HMAC covers
// the body only, and an app/uninstalled body stays validly signed forever).
import type { Db } from '../db/client';
import type { ShopRow } from '../db/shops';
import {
  getShopId,
  shopifyClientFor,
  ShopifyGrantRefusedError,
  ShopifyGraphqlError,
  ShopifyHttpError,
  ShopifyReauthRequiredError,
  ShopifyUnauthorizedError,
} from '../shopify';
import type { TokenEnv } from '../shopify/tokens';

/**
 * refused: Shopify answered 401 ("[API] Invalid API key or access token") to the stored token and refused
 * its refresh token (or there was none): the grant is gone. accepted: Shopify answered with data (the
 * token works, possibly after a refresh). unknown: the app cannot ask (no token stored, the refresh token
 * lapsed on our side) or Shopify answered a non-retryable status that is not about the token (402 frozen,
 * 403, 404, 423 locked).
 * Transient failures (429, 5xx, network, THROTTLED after the client's own retries) are thrown: the caller
 * (the webhook queue) retries later, they are neither answer.
 */
export type GrantAnswer = { grant: 'refused' } | { grant: 'accepted' } | { grant: 'unknown'; reason: string };

export async function askShopifyForGrant(
  env: TokenEnv,
  db: Db,
  shop: Pick<ShopRow, 'id' | 'domain' | 'accessTokenEnc'>,
  options: { retryBaseMs?: number; maxAttempts?: number } = {},
): Promise<GrantAnswer> {
  if (!shop.accessTokenEnc) return { grant: 'unknown', reason: 'no access token stored' };
  try {
    // Few attempts inside the consumer: the webhook queue's own backoff retries a longer outage.
    await getShopId(shopifyClientFor(env, db, shop, { maxAttempts: 3, ...options }));
    return { grant: 'accepted' };
  } catch (err) {
    // 401 after the stored token was renewed once, or Shopify refused the refresh token (invalid_grant).
    if (err instanceof ShopifyUnauthorizedError || err instanceof ShopifyGrantRefusedError) return { grant: 'refused' };
    // No usable token on our side (the refresh token lapsed, the row changed meanwhile): Shopify was not asked.
    if (err instanceof ShopifyReauthRequiredError) return { grant: 'unknown', reason: err.message };
    // The token authenticated; the query itself was answered with errors.
    if (err instanceof ShopifyGraphqlError) return { grant: 'accepted' };
    if (err instanceof ShopifyHttpError && !err.retryable) return { grant: 'unknown', reason: err.message };
    throw err;
  }
}
