import { Hono } from 'hono';
import { v1 } from '../lib/envelope';
import { ValidationError } from '../lib/errors';
import { authenticate } from '../middleware/authenticate';
import { issueAdminToken, revokeAdminToken } from '../shopify/admin-token';
import { authorizeRedirect, handleOAuthCallback, installLanding } from '../shopify/install';
import { isShopDomain } from '../shopify/session-token';
import type { AppEnv } from '../types';

// /shopify/*: install landing, OAuth callback, re-authorisation; plus the admin-token calls.
export const shopifyRoutes = new Hono<AppEnv>();

const query = (url: string) => new URL(url).searchParams;

/** Install and auth landing: {code: 301, url: authorize URL} or {code: 302, url: in-app route}. */
shopifyRoutes.get('/shopify/app', async (c) => c.json(await installLanding(c.env, c.get('db'), query(c.req.url))));

/** OAuth redirect_uri: verifies state and HMAC, exchanges the code, stores the grant, goes to the app. */
shopifyRoutes.get('/shopify/callback', async (c) => c.redirect(await handleOAuthCallback(c.env, c.get('db'), query(c.req.url), c.get('log')), 302));

/** Re-authorisation for old installs (the "Authorise app" action): straight to Shopify's authorize page. */
shopifyRoutes.get('/shopify/reShopifyAuthor', async (c) => {
  const shop = (c.req.query('shop') ?? '').trim().toLowerCase();
  const domain = shop.includes('.') ? shop : `${shop}.myshopify.com`;
  if (!isShopDomain(domain)) throw new ValidationError('Invalid shop domain');
  return c.redirect(await authorizeRedirect(c.env, c.get('db'), domain), 302);
});

// The standalone admin token (authToken) for use outside the admin frame. Issuing needs the embedded
// session (the merchant inside Shopify); revoking works with either credential. These /api paths are
// registered before app.ts's /api/* authentication, so they authenticate here.
shopifyRoutes.post('/api/v1/adminToken', authenticate({ sessionTokenOnly: true }), async (c) => {
  const authToken = await issueAdminToken(c.get('db'), c.get('shop').id);
  c.header('Cache-Control', 'no-store');
  return v1(c, { authToken });
});

shopifyRoutes.delete('/api/v1/adminToken', authenticate(), async (c) => {
  await revokeAdminToken(c.get('db'), c.get('shop').id);
  return v1(c);
});
