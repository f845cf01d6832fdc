// Offline access tokens: authorization-code grant, token exchange (from an App Bridge session token)
// and refresh, all as EXPIRING tokens (about 60 minutes, with a refresh token). Stored encrypted.
// A refresh happens once per shop even when requests race: D1 arbitrates with a lease on the shop row
// (isolates share no memory), and inside one isolate concurrent callers share one promise.
import type { Db } from '../db/client';
import {
  findShopById,
  releaseTokenRefreshLease,
  saveRefreshedTokens,
  tryAcquireTokenRefreshLease,
  type ShopRow,
  type StoredTokens,
} from '../db/shops';
import { decryptSecret, encryptSecret } from '../lib/crypto';
import { accessTokenUrl } from './api-version';
import { ShopifyGrantRefusedError, ShopifyHttpError, ShopifyReauthRequiredError } from './errors';
import type { AccessTokenSource } from './graphql-client';
import { realClock, type Clock } from './throttle';

export type TokenEnv = Pick<Env, 'SHOPIFY_ORIGIN' | 'SHOPIFY_API_KEY' | 'SHOPIFY_API_SECRET' | 'TOKEN_ENCRYPTION_KEY'>;

/** Shopify's token endpoint answer. expires_in / refresh_token are present for expiring tokens. */
export type TokenResponse = {
  access_token: string;
  scope: string;
  expires_in?: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
};

/** Refresh this long before expiry, so a token never dies mid-job. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** How long a refresher may hold the lease before others may take over (it crashed). */
const LEASE_TTL_MS = 15_000;
const LEASE_POLL_MS = 100;

async function postTokenEndpoint(env: TokenEnv, shopDomain: string, grant: Record<string, string>): Promise<TokenResponse> {
  let lastError: Error | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    let res: Response;
    try {
      res = await fetch(accessTokenUrl(env, shopDomain), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ client_id: env.SHOPIFY_API_KEY, client_secret: env.SHOPIFY_API_SECRET, ...grant }),
      });
    } catch (err) {
      lastError = err as Error;
      await realClock.sleep(300 * 2 ** attempt);
      continue;
    }
    if (res.status >= 500 || res.status === 429) {
      await res.body?.cancel();
      lastError = new ShopifyHttpError(res.status, `token endpoint answered ${res.status}`, true);
      await realClock.sleep(300 * 2 ** attempt);
      continue;
    }
    const text = await res.text();
    if (!res.ok) throw new ShopifyHttpError(res.status, `token endpoint answered ${res.status}: ${text.slice(0, 200)}`, false);
    const body = JSON.parse(text) as Partial<TokenResponse>;
    if (!body.access_token) throw new ShopifyHttpError(res.status, 'token endpoint answered without access_token', false);
    return { scope: '', ...body } as TokenResponse;
  }
  throw lastError ?? new Error('token endpoint unreachable');
}

/** OAuth callback: the authorization code for an expiring offline token. */
export function exchangeAuthorizationCode(env: TokenEnv, shopDomain: string, code: string): Promise<TokenResponse> {
  return postTokenEndpoint(env, shopDomain, { code, expiring: '1' });
}

/** Embedded install / recovery: an App Bridge session token (id token) for an expiring offline token. */
export function exchangeSessionToken(env: TokenEnv, shopDomain: string, sessionToken: string): Promise<TokenResponse> {
  return postTokenEndpoint(env, shopDomain, {
    grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
    subject_token: sessionToken,
    subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
    requested_token_type: 'urn:shopify:params:oauth:token-type:offline-access-token',
    expiring: '1',
  });
}

export function refreshAccessToken(env: TokenEnv, shopDomain: string, refreshToken: string): Promise<TokenResponse> {
  return postTokenEndpoint(env, shopDomain, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

/** Encrypts a token answer into the stored columns. */
export async function toStoredTokens(env: TokenEnv, t: TokenResponse, now = Date.now()): Promise<StoredTokens> {
  return {
    accessTokenEnc: await encryptSecret(env.TOKEN_ENCRYPTION_KEY, t.access_token),
    accessTokenExpiresAt: t.expires_in ? now + t.expires_in * 1000 : null,
    refreshTokenEnc: t.refresh_token ? await encryptSecret(env.TOKEN_ENCRYPTION_KEY, t.refresh_token) : null,
    refreshTokenExpiresAt: t.refresh_token_expires_in ? now + t.refresh_token_expires_in * 1000 : null,
    scopes: t.scope,
  };
}

function needsRefresh(shop: ShopRow, now: number): boolean {
  return shop.accessTokenExpiresAt != null && shop.accessTokenExpiresAt - now < REFRESH_MARGIN_MS;
}

const inFlight = new Map<number, Promise<string>>();

/** A usable access token for the shop, refreshed first when it is (about to be) expired. */
export async function getAccessToken(env: TokenEnv, db: Db, shopId: number): Promise<string> {
  const shop = await findShopById(db, shopId);
  if (!shop || shop.uninstalledAt || !shop.accessTokenEnc)
    throw new ShopifyReauthRequiredError(shop?.domain ?? String(shopId), 'no access token');
  if (!needsRefresh(shop, Date.now())) return decryptSecret(env.TOKEN_ENCRYPTION_KEY, shop.accessTokenEnc);
  return refreshOnce(env, db, shop);
}

/** Called when Shopify rejected `rejected` with 401: refresh unless someone already replaced it. */
export async function renewRejectedToken(env: TokenEnv, db: Db, shopId: number, rejected: string): Promise<string> {
  const shop = await findShopById(db, shopId);
  if (!shop || shop.uninstalledAt || !shop.accessTokenEnc)
    throw new ShopifyReauthRequiredError(shop?.domain ?? String(shopId), 'no access token');
  const current = await decryptSecret(env.TOKEN_ENCRYPTION_KEY, shop.accessTokenEnc);
  if (current !== rejected) return current;
  if (!shop.refreshTokenEnc) throw new ShopifyGrantRefusedError(shop.domain, 'token rejected and no refresh token');
  return refreshOnce(env, db, shop);
}

/** In-isolate de-duplication on top of the D1 lease. */
function refreshOnce(env: TokenEnv, db: Db, shop: ShopRow): Promise<string> {
  const running = inFlight.get(shop.id);
  if (running) return running;
  const p = refreshWithLease(env, db, shop.id, shop.accessTokenExpiresAt).finally(() => inFlight.delete(shop.id));
  inFlight.set(shop.id, p);
  return p;
}

/**
 * The cross-isolate part: whoever wins the lease refreshes; the others poll the row until the new
 * token lands (or the lease lapses, then they compete again). Exported for the race test.
 */
export async function refreshWithLease(
  env: TokenEnv,
  db: Db,
  shopId: number,
  seenExpiresAt: number | null,
  clock: Clock = realClock,
): Promise<string> {
  const deadline = clock.now() + LEASE_TTL_MS * 2;
  while (clock.now() < deadline) {
    const shop = await findShopById(db, shopId);
    if (!shop || shop.uninstalledAt || !shop.accessTokenEnc)
      throw new ShopifyReauthRequiredError(shop?.domain ?? String(shopId), 'no access token');
    if (shop.accessTokenExpiresAt !== seenExpiresAt) return decryptSecret(env.TOKEN_ENCRYPTION_KEY, shop.accessTokenEnc);
    if (!shop.refreshTokenEnc || (shop.refreshTokenExpiresAt != null && shop.refreshTokenExpiresAt <= clock.now())) {
      throw new ShopifyReauthRequiredError(shop.domain, 'refresh token missing or expired');
    }
    const leaseId = crypto.randomUUID();
    if (await tryAcquireTokenRefreshLease(db, shopId, leaseId, seenExpiresAt, clock.now(), LEASE_TTL_MS)) {
      try {
        const refreshToken = await decryptSecret(env.TOKEN_ENCRYPTION_KEY, shop.refreshTokenEnc);
        const fresh = await refreshAccessToken(env, shop.domain, refreshToken);
        const stored = await toStoredTokens(env, fresh);
        // Shopify keeps the scopes of the grant; an empty scope in the answer must not wipe ours.
        if (!stored.scopes) stored.scopes = shop.scopes;
        await saveRefreshedTokens(db, shopId, leaseId, stored);
        return fresh.access_token;
      } catch (err) {
        await releaseTokenRefreshLease(db, shopId, leaseId);
        if (err instanceof ShopifyHttpError && !err.retryable && (err.status === 400 || err.status === 401)) {
          // 400 (invalid_grant): Shopify refuses the refresh token itself, as after an uninstall. 401
          // (invalid_client) is about the app's own credentials, not the shop's grant.
          const E = err.status === 400 ? ShopifyGrantRefusedError : ShopifyReauthRequiredError;
          throw new E(shop.domain, err.message);
        }
        throw err;
      }
    }
    await clock.sleep(LEASE_POLL_MS);
  }
  throw new ShopifyHttpError(0, 'timed out waiting for a token refresh by another request', true);
}

/** The token source a client uses for a stored shop: refresh ahead of expiry, renew once on 401. */
export function storedTokenSource(env: TokenEnv, db: Db, shopId: number): AccessTokenSource {
  return {
    get: () => getAccessToken(env, db, shopId),
    renew: (rejected) => renewRejectedToken(env, db, shopId, rejected),
  };
}
