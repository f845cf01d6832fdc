import { Hono } from 'hono';
import { v1 } from '../lib/envelope';
import { AuthError, ValidationError } from '../lib/errors';
import { authenticate } from '../middleware/authenticate';
import { issueAdminToken, revokeAdminTokenById, revokeUserAdminTokens } from '../auth/admin-token';
import { handleOAuthCallback, installLanding, signedAuthorizeRedirect } from '../install/install';
import { bearerToken, isShopDomain, sessionTokenForShop } from '../auth/session-token';
import { findShopByDomain } from '../db/shops';
import type { AppEnv } from '../types';
import type { AdminTokenIssued, InstallLanding } from '../../shared/api/account';

// /shopify/*: install landing, OAuth callback, re-authorisation; plus the admin-token calls.
export const shopifyRoutes = new Hono<AppEnv>();

const query = (url: string) => new URL(url).searchParams;

/** Launch / install landing: {code: 302, url: in-app route} (installed by token exchange when needed) or {code: 301, url: authorize URL}. */
shopifyRoutes.get('/shopify/app', async (c) => {
  const bearer = bearerToken(c.req.header('Authorization')) || null;
  return c.json(
    (await installLanding(c.env, c.get('db'), query(c.req.url), { log: c.get('log'), bearer })) satisfies InstallLanding,
  );
});

/** OAuth redirect_uri: verifies state and HMAC, exchanges the code, stores the grant, goes to the app. */
shopifyRoutes.get('/shopify/callback', async (c) =>
  c.redirect(await handleOAuthCallback(c.env, c.get('db'), query(c.req.url), c.get('log')), 302),
);

/**
 * Re-authorisation for old installs (the "Authorise app" action): straight to Shopify's authorize page.
 * Only for a shop the app knows, or when the request carries a valid session token for the named shop
 * (header or Shopify's id_token query parameter); anything else is refused. The state is signed, not
 * stored (install.ts signedOAuthState): however often anyone calls this, it writes nothing, so it can
 * neither fill the table nor evict a merchant's pending state.
 */
shopifyRoutes.get('/shopify/reShopifyAuthor', async (c) => {
  const shop = (c.req.query('shop') ?? '').trim().toLowerCase();
  const domain = shop.includes('.') ? shop : `${shop}.myshopify.com`;
  if (!isShopDomain(domain)) throw new ValidationError('server.auth.invalidShopDomain');
  const known = !!(await findShopByDomain(c.get('db'), domain));
  if (
    !known &&
    !(await sessionTokenForShop(c.env, domain, [bearerToken(c.req.header('Authorization')), c.req.query('id_token')]))
  ) {
    throw new AuthError('server.auth.shopNotInstalled');
  }
  return c.redirect(await signedAuthorizeRedirect(c.env, domain), 302);
});

// The standalone admin token (authToken) for use outside the admin frame. Issuing needs the embedded
// session (the merchant inside Shopify); the token is tied to that Shopify user and expires. Revoking
// works with either credential: an admin token revokes itself, a session token the user's tokens.
// These /api paths are registered before app.ts's /api/* authentication, so they authenticate here.
shopifyRoutes.post('/api/v1/adminToken', authenticate({ sessionTokenOnly: true }), async (c) => {
  const { authToken, expiresAt } = await issueAdminToken(c.get('db'), c.get('shop').id, c.get('auth').userId);
  c.header('Cache-Control', 'no-store');
  return v1<AdminTokenIssued>(c, { authToken, expires_at: expiresAt });
});

shopifyRoutes.delete('/api/v1/adminToken', authenticate(), async (c) => {
  const auth = c.get('auth');
  if (auth.kind === 'admin') await revokeAdminTokenById(c.get('db'), c.get('shop').id, auth.tokenId);
  else await revokeUserAdminTokens(c.get('db'), c.get('shop').id, auth.userId);
  return v1(c);
});
