import type { MiddlewareHandler } from 'hono';
import { findLiveAdminToken } from '../db/admin-tokens';
import { findShopByDomain } from '../db/shops';
import { sha256Hex } from '../lib/crypto';
import { AuthError } from '../lib/errors';
import { ShopifyHttpError, ShopifyReauthRequiredError } from '../shopify/errors';
import { completeInstall, lacksGrant } from '../install/install';
import { bearerToken, looksLikeJwt, verifySessionToken } from '../auth/session-token';
import { exchangeSessionToken } from '../shopify/tokens';
import type { AppEnv } from '../types';

/** The documents' rule: a standalone authToken counts only when it is at least 32 characters. */
export const MIN_ADMIN_TOKEN_LENGTH = 32;

export type AuthenticateOptions = {
  /** Only an App Bridge session token will do (e.g. issuing the admin token itself). */
  sessionTokenOnly?: boolean;
};

/**
 * Every /api call authenticates first. A JWT is an App Bridge session token (embedded admin); anything
 * else is the per-shop admin token used outside the admin frame, looked up by its SHA-256 hash.
 * A valid session token for a shop we hold no usable grant for (managed install, reinstall, lapsed
 * refresh token) is exchanged for an expiring offline token right here: Shopify's token-exchange flow.
 * New scopes go through the install landing's OAuth redirect instead (exchange cannot widen a grant).
 * Uninstalled shops with an admin token are refused.
 */
export const authenticate = (options: AuthenticateOptions = {}): MiddlewareHandler<AppEnv> =>
  async function authenticate(c, next) {
    const token = bearerToken(c.req.header('Authorization'));
    if (!token) throw new AuthError('server.auth.missingCredentials');

    const db = c.get('db');
    let shop;
    let auth: AppEnv['Variables']['auth'];
    if (looksLikeJwt(token)) {
      const claims = await verifySessionToken(token, c.env.SHOPIFY_API_KEY, c.env.SHOPIFY_API_SECRET);
      if (!claims) throw new AuthError('server.auth.invalidSessionToken');
      auth = { kind: 'session', userId: claims.userId ?? '' };
      shop = await findShopByDomain(db, claims.shopDomain);
      if (lacksGrant(shop)) {
        try {
          const grant = await exchangeSessionToken(c.env, claims.shopDomain, token);
          shop = await completeInstall(c.env, db, claims.shopDomain, grant, c.get('log'));
        } catch (err) {
          // A shop we know as installed keeps using the app's own data while Shopify's token endpoint
          // is failing; Shopify calls then fail on their own. A new or uninstalled shop cannot go on.
          // Shopify refused the exchange: OAuth is the way left (401 + absolute reauthorize URL header).
          // An outage (retryable) stays an outage.
          if (!shop || shop.uninstalledAt) {
            // A shop with no row yet: the reauthorize URL needs this token (see ShopifyReauthRequiredError).
            const refused = err instanceof ShopifyHttpError && !err.retryable;
            throw refused
              ? new ShopifyReauthRequiredError(
                  claims.shopDomain,
                  `token exchange refused: ${err.message}`,
                  shop ? undefined : token,
                )
              : err;
          }
          c.get('log').warn('token_exchange_failed', { shop: shop.domain, error: err });
        }
      }
    } else {
      if (options.sessionTokenOnly) throw new AuthError('server.auth.sessionTokenRequired');
      if (token.length < MIN_ADMIN_TOKEN_LENGTH) throw new AuthError('server.auth.invalidAdminToken');
      // Only a live token counts: expired ones are refused (and swept by the daily cron).
      const found = await findLiveAdminToken(db, await sha256Hex(token), Date.now());
      if (!found) throw new AuthError('server.auth.invalidAdminToken');
      shop = found.shop;
      auth = { kind: 'admin', tokenId: found.token.id, userId: found.token.userId };
    }
    if (!shop || shop.uninstalledAt) throw new AuthError('server.auth.shopNotInstalled');
    c.set('shop', shop);
    c.set('auth', auth);
    c.set('log', c.get('log').child({ shop: shop.domain }));
    await next();
  };

/**
 * For calls an admin token must not make (plan changes spend the merchant's money): only an App Bridge
 * session token, i.e. a merchant inside the Shopify admin, will do. Runs after authenticate().
 */
export const requireSessionToken = (): MiddlewareHandler<AppEnv> =>
  async function requireSessionToken(c, next) {
    if (c.get('auth')?.kind !== 'session') throw new AuthError('server.auth.sessionTokenRequired');
    await next();
  };
