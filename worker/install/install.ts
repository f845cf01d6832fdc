// Install and re-authorisation: the landing's decision, the OAuth callback, and what an install does
// (encrypted token, shop info, default rows, first catalogue sync).
import { languageFromShopLocale } from '../../shared/languages';
import { quotaCycleOnInstall } from '../billing/cycle';
import { discountOfferEndsAt } from '../billing/discount';
import { updateShopBilling } from '../db/shop-billing';
import type { Db } from '../db/client';
import { createOAuthState, consumeOAuthState, markSignedOAuthStateUsed } from '../db/oauth-states';
import { ensureShopDefaultRows } from '../db/catalogue-syncs';
import { findRedactedShop, restoreRedactedUsage } from '../db/redacted-shops';
import { findShopByDomain, updateShopInfo, upsertInstalledShop, type ShopInfoFields, type ShopRow } from '../db/shops';
import { apiError, ValidationError } from '../lib/errors';
import type { Logger } from '../lib/log';
import { hmacSha256, randomToken, timingSafeEqual, toHex } from '../lib/crypto';
import { shopifyHostUrl } from '../shopify/api-version';
import { ShopifyHttpError } from '../shopify/errors';
import { createAdminClient } from '../shopify/graphql-client';
import { decodeHost, UNIFIED_ADMIN_HOST } from './host';
import { buildAuthorizeUrl, isFreshTimestamp, missingScopes, verifyQueryHmac, type AuthorizeEnv } from './oauth';
import { getShopInfo } from '../shopify/operations/shop';
import { enqueueSync } from '../messages/catalogue-sync';
import { isShopDomain, sessionTokenForShop } from '../auth/session-token';
import {
  exchangeAuthorizationCode,
  exchangeSessionToken,
  toStoredTokens,
  type TokenEnv,
  type TokenResponse,
} from '../shopify/tokens';

export type InstallEnv = TokenEnv & AuthorizeEnv & Pick<Env, 'SYNC_QUEUE'>;

const STATE_TTL_MS = 10 * 60_000;

/** Checks a Shopify-signed query (install landing, callback): shop domain, fresh timestamp, HMAC. */
export async function verifySignedQuery(params: URLSearchParams, secret: string, now = Date.now()): Promise<string> {
  const shop = (params.get('shop') ?? '').toLowerCase();
  if (!isShopDomain(shop)) throw new ValidationError('server.auth.invalidShopDomain');
  if (!(await verifyQueryHmac(params, secret))) throw apiError(401, 'server.auth.hmacFailed');
  if (!isFreshTimestamp(params.get('timestamp'), now)) throw apiError(401, 'server.auth.requestExpired');
  return shop;
}

const LOCALE = /^[A-Za-z]{2,3}([-_][A-Za-z]{2,4})?$/;

/**
 * A fresh authorize URL with a stored single-use state. The merchant's admin locale from the install
 * query rides along in the state (`<nonce>.<locale>`), so the callback can pick the interface language.
 */
export async function authorizeRedirect(env: InstallEnv, db: Db, shopDomain: string, locale?: string | null): Promise<string> {
  const state = locale && LOCALE.test(locale) ? `${randomToken(24)}.${locale}` : randomToken(24);
  await createOAuthState(db, state, shopDomain, Date.now() + STATE_TTL_MS);
  return buildAuthorizeUrl(env, shopDomain, state);
}

/**
 * A state that needs no row (issue 25, item 3): `<nonce>~<expiry ms>~<hex HMAC-SHA256 of shop, nonce and
 * expiry with the app secret>`. /shopify/reShopifyAuthor answers anyone who names a known shop, so it must
 * write nothing: with stored states, five anonymous calls evicted the merchant's pending one (the shop
 * keeps MAX_STATES_PER_SHOP) and the merchant's callback answered "Invalid OAuth state". The callback
 * accepts such a state once (markSignedOAuthStateUsed records it then, after Shopify's HMAC was checked).
 */
export async function signedOAuthState(
  env: Pick<Env, 'SHOPIFY_API_SECRET'>,
  shopDomain: string,
  now = Date.now(),
): Promise<string> {
  const nonce = randomToken(18);
  const exp = now + STATE_TTL_MS;
  return `${nonce}~${exp}~${await signedStateMac(env.SHOPIFY_API_SECRET, shopDomain, nonce, exp)}`;
}

const SIGNED_STATE = /^([A-Za-z0-9_-]{16,64})~(\d{1,15})~([0-9a-f]{64})$/;

async function signedStateMac(secret: string, shopDomain: string, nonce: string, exp: number): Promise<string> {
  return toHex(await hmacSha256(secret, `oauth-state:${shopDomain}:${nonce}:${exp}`));
}

/** The expiry of a signed state that names this shop and is still live; null otherwise. */
async function verifySignedOAuthState(secret: string, state: string, shopDomain: string, now: number): Promise<number | null> {
  const m = SIGNED_STATE.exec(state);
  if (!m) return null;
  const exp = Number(m[2]);
  if (!(exp > now && exp <= now + STATE_TTL_MS)) return null;
  return timingSafeEqual(await signedStateMac(secret, shopDomain, m[1]!, exp), m[3]!) ? exp : null;
}

/** The callback's state check: a stored single-use state, or a signed one (used once). */
async function acceptOAuthState(
  env: Pick<Env, 'SHOPIFY_API_SECRET'>,
  db: Db,
  state: string,
  shopDomain: string,
): Promise<boolean> {
  const now = Date.now();
  if (!state.includes('~')) return consumeOAuthState(db, state, shopDomain, now);
  const exp = await verifySignedOAuthState(env.SHOPIFY_API_SECRET, state, shopDomain, now);
  return exp !== null && (await markSignedOAuthStateUsed(db, state, shopDomain, exp));
}

/** A fresh authorize URL with a signed state (nothing stored): for requests anyone can make. */
export async function signedAuthorizeRedirect(env: InstallEnv, shopDomain: string): Promise<string> {
  return buildAuthorizeUrl(env, shopDomain, await signedOAuthState(env, shopDomain));
}

/** No usable grant: never installed, uninstalled, token gone, or expired with no way to renew it. */
export function lacksGrant(shop: ShopRow | undefined, now = Date.now()): boolean {
  if (!shop || shop.uninstalledAt != null || !shop.accessTokenEnc) return true;
  const expired = shop.accessTokenExpiresAt != null && shop.accessTokenExpiresAt <= now;
  const unrenewable = !shop.refreshTokenEnc || (shop.refreshTokenExpiresAt != null && shop.refreshTokenExpiresAt <= now);
  return expired && unrenewable;
}

/** The install landing sends the merchant through OAuth: no usable grant, or scopes added since. */
export function needsAuthorisation(shop: ShopRow | undefined, requiredScopes: string, now = Date.now()): boolean {
  return lacksGrant(shop, now) || missingScopes(shop!.scopes, requiredScopes).length > 0;
}

export type LandingOptions = {
  log: Logger;
  /** The Authorization bearer of the landing request (App Bridge's session token). */ bearer?: string | null;
};

/**
 * GET /shopify/app, the launch Shopify's admin opens (the query arrives verbatim from the admin's launch
 * screen). A shop without a usable grant is installed right here by token exchange when the launch
 * carries a session token for that shop (`id_token`, or App Bridge's bearer): Shopify's managed
 * installation, no redirect out of the admin. Only without a session token (standalone) or when the
 * exchanged grant still lacks a scope does the answer send the browser through OAuth (301 + authorize
 * URL). Otherwise 302 + the in-app route.
 */
export async function installLanding(
  env: InstallEnv,
  db: Db,
  params: URLSearchParams,
  opts: LandingOptions,
): Promise<{ code: 301 | 302; url: string }> {
  const shopDomain = await verifySignedQuery(params, env.SHOPIFY_API_SECRET);
  let shop = await findShopByDomain(db, shopDomain);
  if (needsAuthorisation(shop, env.SHOPIFY_SCOPES)) {
    const sessionToken = await sessionTokenForShop(env, shopDomain, [params.get('id_token'), opts.bearer]);
    if (sessionToken) {
      try {
        const grant = await exchangeSessionToken(env, shopDomain, sessionToken);
        shop = await completeInstall(env, db, shopDomain, grant, opts.log, params.get('locale'));
      } catch (err) {
        // Shopify refused the exchange: OAuth below is the way left. An outage stays an outage.
        if (!(err instanceof ShopifyHttpError) || err.retryable) throw err;
        opts.log.warn('launch_token_exchange_refused', { shop: shopDomain, error: err });
      }
    }
    if (needsAuthorisation(shop, env.SHOPIFY_SCOPES))
      return { code: 301, url: await authorizeRedirect(env, db, shopDomain, params.get('locale')) };
  }
  const route = shop!.setupGuidePending ? '/guidance' : '/main';
  const keep = new URLSearchParams({ shop: shopDomain });
  const host = params.get('host');
  if (host) keep.set('host', host);
  return { code: 302, url: `${route}?${keep.toString()}` };
}

/**
 * Stores the grant and brings the shop row up to date. On a fresh install (or reinstall) the shop's
 * language comes from its primary locale and the first catalogue sync is queued.
 */
export async function completeInstall(
  env: InstallEnv,
  db: Db,
  shopDomain: string,
  grant: TokenResponse,
  log: Logger,
  adminLocale?: string | null,
): Promise<ShopRow> {
  const before = await findShopByDomain(db, shopDomain);
  const isNewRow = !before;
  // A re-authorised old install or a grant with new scopes sees more of the catalogue: sync it again.
  const widened = !!before && (before.oldInstall || missingScopes(before.scopes, grant.scope).length > 0);
  const { shop, freshInstall } = await upsertInstalledShop(db, shopDomain, await toStoredTokens(env, grant));
  const fields: ShopInfoFields = { oldInstall: false };
  if (isNewRow && adminLocale) fields.language = languageFromShopLocale(adminLocale);
  try {
    const info = await getShopInfo(createAdminClient({ env, shopDomain, token: grant.access_token }));
    Object.assign(fields, {
      name: info.name,
      email: info.email || info.contactEmail,
      ownerName: info.shopOwnerName,
      primaryDomain: info.primaryDomainUrl,
      shopifyPlan: info.planName,
      currencyCode: info.currencyCode,
      isDevelopmentStore: info.isDevelopmentStore,
      ...(isNewRow && !adminLocale ? { language: languageFromShopLocale(info.primaryLocale) } : {}),
    });
  } catch (err) {
    // The grant is stored either way; shop/update and the next install landing fill the details in.
    log.error('install_shop_info_failed', { shop: shopDomain, error: err });
  }
  await updateShopInfo(db, shop.id, fields);
  // A first install starts its quota cycle on the install day; a reinstall keeps the cycle day and the
  // current period's usage (worker/billing/cycle.ts quotaCycleOnInstall).
  // A domain that was redacted before (shop/redact) starts from what was kept of it: the free images it used
  // in its period and the offer it had (worker/db/redacted-shops.ts), never a fresh quota or a new offer.
  const redacted = isNewRow ? await findRedactedShop(db, env.TOKEN_ENCRYPTION_KEY, shopDomain) : undefined;
  if (freshInstall && shop.installedAt != null)
    await updateShopBilling(db, shop.id, {
      ...quotaCycleOnInstall(before ?? redacted ?? null, shop.installedAt),
      // The offer is made once: a reinstall keeps the end of the first install's offer.
      ...(before
        ? { discountExpiresAt: discountOfferEndsAt(before) }
        : redacted
          ? { discountExpiresAt: redacted.offerEndsAt }
          : {}),
    });
  if (redacted) await restoreRedactedUsage(db, shop.id, redacted);
  await ensureShopDefaultRows(db, shop.id);
  if (freshInstall || widened) await enqueueSync(env.SYNC_QUEUE, { type: 'sync', shopId: shop.id });
  log.info('shop_installed', { shop: shopDomain, freshInstall, expiring: grant.expires_in != null });
  return (await findShopByDomain(db, shopDomain)) ?? shop;
}

/** GET /shopify/callback: state, HMAC, timestamp; then the code exchange. Returns where to send the browser. */
export async function handleOAuthCallback(env: InstallEnv, db: Db, params: URLSearchParams, log: Logger): Promise<string> {
  const shopDomain = await verifySignedQuery(params, env.SHOPIFY_API_SECRET);
  const state = params.get('state') ?? '';
  if (!state || !(await acceptOAuthState(env, db, state, shopDomain))) throw apiError(401, 'server.auth.invalidOAuthState');
  const code = params.get('code');
  if (!code) throw new ValidationError('server.auth.missingAuthCode');
  const grant = await exchangeAuthorizationCode(env, shopDomain, code);
  const shop = await completeInstall(env, db, shopDomain, grant, log, state.includes('~') ? null : (state.split('.')[1] ?? null));
  return appHomeUrl(env, shop, params.get('host'));
}

/**
 * After OAuth the merchant goes back into the Shopify admin, to this app's embedded page, when `host`
 * names Shopify's admin; otherwise to the app's own route.
 */
export function appHomeUrl(
  env: Pick<Env, 'APP_URL' | 'SHOPIFY_API_KEY' | 'SHOPIFY_ORIGIN'>,
  shop: ShopRow,
  host: string | null,
): string {
  const decoded = decodeHost(host);
  if (UNIFIED_ADMIN_HOST.test(decoded)) return `${shopifyHostUrl(env, decoded)}/apps/${env.SHOPIFY_API_KEY}`;
  const route = shop.setupGuidePending ? '/guidance' : '/main';
  const q = new URLSearchParams({ shop: shop.domain, ...(host ? { host } : {}) });
  return `${env.APP_URL.replace(/\/+$/, '')}${route}?${q.toString()}`;
}
