import { ShopifyHttpError, ShopifyReauthRequiredError, ShopifyThrottledError, ShopifyUnauthorizedError } from '../shopify/errors';
import { msg } from '../../shared/messages';
import { ApiError } from '../lib/errors';

/**
 * What the merchant sees when a Shopify call fails under a request. A missing or revoked access token
 * is not an outage: the admin is told to re-authorise (Shopify's reauthorize headers point App Bridge at
 * our re-authorisation path). Throttling and retryable HTTP failures are "try again later" (503).
 * Anything else is not a Shopify failure we can explain, and stays for the generic handler.
 */
export function apiErrorFromShopify(err: unknown): ApiError | null {
  if (err instanceof ShopifyReauthRequiredError || err instanceof ShopifyUnauthorizedError) {
    const q = new URLSearchParams();
    if (err instanceof ShopifyReauthRequiredError) {
      q.set('shop', err.shopDomain);
      if (err.sessionToken) q.set('id_token', err.sessionToken);
    }
    const query = q.toString();
    return new ApiError(401, msg('server.auth.reauthorise'), {
      'X-Shopify-API-Request-Failure-Reauthorize': '1',
      'X-Shopify-API-Request-Failure-Reauthorize-Url': `/shopify/reShopifyAuthor${query ? `?${query}` : ''}`,
    });
  }
  if (err instanceof ShopifyThrottledError || (err instanceof ShopifyHttpError && err.retryable)) {
    return new ApiError(503, msg('server.common.shopifyBusy'), { 'Retry-After': '30' });
  }
  return null;
}
