// OAuth: authorize (auto-approved, redirects back with code/hmac/host/shop/state/timestamp) and the
// token endpoint (authorization code, token exchange with a session token, refresh), with expiring
// offline tokens like Shopify's.
import { createHmac, randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import { jwtVerify } from 'jose';
import type { Emulator } from '../store/registry';
import type { ShopState } from '../store/shop-state';
import { enqueueWebhook } from '../webhooks';
import { applyFault } from './faults';

export const SHOP_PARAM = ':shop{[a-z0-9][a-z0-9-]*\\.myshopify\\.com}';

/** Shopify's query HMAC: hex HMAC-SHA256 over the other parameters sorted and joined as k=v&k=v. */
export function signQuery(secret: string, params: Record<string, string>): string {
  const message = Object.keys(params)
    .filter((k) => k !== 'hmac' && k !== 'signature')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  return createHmac('sha256', secret).update(message).digest('hex');
}

/** The `host` parameter: base64 (unpadded) of admin.shopify.com/store/<name>. */
export function hostParam(shopDomain: string): string {
  return Buffer.from(`admin.shopify.com/store/${shopDomain.replace(/\.myshopify\.com$/, '')}`)
    .toString('base64')
    .replace(/=+$/, '');
}

export function issueTokens(emu: Emulator, shop: ShopState, scopes: string[], expiring: boolean) {
  const access = `shpat_${randomBytes(16).toString('hex')}`;
  const ttl = shop.settings.accessTokenTtlSeconds;
  emu.accessTokens.set(access, {
    token: access,
    shop: shop.domain,
    scopes,
    expiresAt: expiring ? Date.now() + ttl * 1000 : null,
    kind: 'offline',
  });
  if (!expiring) return { access_token: access, scope: scopes.join(',') };
  const refresh = `shprt_${randomBytes(16).toString('hex')}`;
  const refreshTtl = shop.settings.refreshTokenTtlSeconds;
  emu.refreshTokens.set(refresh, { token: refresh, shop: shop.domain, scopes, expiresAt: Date.now() + refreshTtl * 1000 });
  return {
    access_token: access,
    scope: scopes.join(','),
    expires_in: ttl,
    refresh_token: refresh,
    refresh_token_expires_in: refreshTtl,
  };
}

function oauthError(error: string, description: string, status = 400): Response {
  return Response.json({ error, error_description: description }, { status });
}

async function readParams(req: Request): Promise<Record<string, string>> {
  const type = req.headers.get('content-type') ?? '';
  const text = await req.text();
  if (type.includes('application/json')) {
    const json = JSON.parse(text || '{}') as Record<string, unknown>;
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, String(v)]));
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** Records the grant. A grant that changes an installed app's scopes makes Shopify send app/scopes_update. */
export function installShop(shop: ShopState, scopes: string[], emu?: Emulator): void {
  const previous = shop.scopes;
  const changed = shop.installed && [...previous].sort().join(',') !== [...scopes].sort().join(',');
  shop.installed = true;
  shop.scopes = scopes;
  if (changed && emu)
    enqueueWebhook(emu, shop, 'app/scopes_update', {
      id: shop.shopNumber,
      previous,
      current: scopes,
      updated_at: new Date().toISOString(),
    });
}

export function mountOAuth(app: Hono, emu: Emulator): void {
  app.get(`/${SHOP_PARAM}/admin/oauth/authorize`, async (c) => {
    const shop = emu.shops.get(c.req.param('shop'));
    if (!shop) return c.html('<h1>Sorry, this store is currently unavailable.</h1>', 404);
    const fault = await applyFault(shop, 'oauth');
    if (fault) return fault;
    const q = c.req.query();
    if (q.client_id !== emu.app.apiKey) return c.text('Oauth error invalid_request: The client_id is invalid or missing.', 400);
    let redirect: URL;
    try {
      redirect = new URL(q.redirect_uri ?? '');
    } catch {
      return c.text('Oauth error invalid_request: The redirect_uri is missing or not whitelisted.', 400);
    }
    if (new URL(emu.app.appUrl).host !== redirect.host)
      return c.text('Oauth error invalid_request: The redirect_uri is not whitelisted.', 400);
    const scopes = (q.scope ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const code = randomBytes(16).toString('hex');
    emu.authCodes.set(code, { code, shop: shop.domain, scopes, expiresAt: Date.now() + 10 * 60_000, used: false });
    installShop(shop, scopes, emu);
    const params: Record<string, string> = {
      code,
      host: hostParam(shop.domain),
      shop: shop.domain,
      state: q.state ?? '',
      timestamp: String(Math.floor(Date.now() / 1000)),
    };
    params.hmac = signQuery(emu.app.apiSecret, params);
    for (const [k, v] of Object.entries(params)) redirect.searchParams.set(k, v);
    return c.redirect(redirect.toString(), 302);
  });

  app.post(`/${SHOP_PARAM}/admin/oauth/access_token`, async (c) => {
    const shop = emu.shops.get(c.req.param('shop'));
    if (!shop) return c.json({ errors: 'Not Found' }, 404);
    const fault = await applyFault(shop, 'oauth');
    if (fault) return fault;
    let p: Record<string, string>;
    try {
      p = await readParams(c.req.raw);
    } catch {
      return oauthError('invalid_request', 'The request body could not be parsed.');
    }
    if (p.client_id !== emu.app.apiKey || p.client_secret !== emu.app.apiSecret)
      return oauthError('invalid_client', 'Client authentication failed.', 401);
    const expiring = p.expiring === '1' || p.expiring === 'true';

    if (p.grant_type === 'refresh_token') {
      const rt = emu.refreshTokens.get(p.refresh_token ?? '');
      if (!rt || rt.shop !== shop.domain || rt.expiresAt < Date.now())
        return oauthError('invalid_grant', 'The refresh token is invalid, expired or was already used.');
      emu.refreshTokens.delete(rt.token); // refresh tokens rotate: each one works once
      shop.stats.tokenRefreshes += 1;
      return c.json(issueTokens(emu, shop, rt.scopes, true));
    }

    if (p.grant_type === 'urn:ietf:params:oauth:grant-type:token-exchange') {
      if (p.subject_token_type !== 'urn:ietf:params:oauth:token-type:id_token')
        return oauthError('invalid_request', 'subject_token_type must be urn:ietf:params:oauth:token-type:id_token');
      try {
        const { payload } = await jwtVerify(p.subject_token ?? '', new TextEncoder().encode(emu.app.apiSecret), {
          algorithms: ['HS256'],
          audience: emu.app.apiKey,
          clockTolerance: 5,
        });
        if (new URL(String(payload.dest)).hostname !== shop.domain) throw new Error('dest names another shop');
      } catch (e) {
        return oauthError('invalid_subject_token', `The subject token is invalid: ${(e as Error).message}`);
      }
      const online = p.requested_token_type === 'urn:shopify:params:oauth:token-type:online-access-token';
      if (!online && p.requested_token_type !== 'urn:shopify:params:oauth:token-type:offline-access-token')
        return oauthError('invalid_request', 'requested_token_type is invalid');
      shop.stats.tokenExchanges += 1;
      if (!shop.installed) installShop(shop, emu.app.scopes);
      const tokens = issueTokens(emu, shop, shop.scopes, expiring && !online);
      if (online) {
        emu.accessTokens.get(tokens.access_token)!.kind = 'online';
        emu.accessTokens.get(tokens.access_token)!.expiresAt = Date.now() + 86_400_000;
        return c.json({
          ...tokens,
          expires_in: 86399,
          associated_user_scope: tokens.scope,
          associated_user: {
            id: 42,
            first_name: 'Alex',
            last_name: 'Merchant',
            email: shop.email,
            account_owner: true,
            locale: 'en',
            collaborator: false,
            email_verified: true,
          },
        });
      }
      return c.json(tokens);
    }

    const code = emu.authCodes.get(p.code ?? '');
    if (!code || code.shop !== shop.domain || code.used || code.expiresAt < Date.now())
      return oauthError('invalid_request', 'The authorization code was not found or was already used');
    code.used = true;
    shop.stats.authorizationCodes += 1;
    return c.json(issueTokens(emu, shop, code.scopes, expiring));
  });
}
