import { jwtVerify } from 'jose';

/** Shopify allows a few seconds of clock skew between its servers and ours. */
const CLOCK_TOLERANCE_SECONDS = 10;

export type SessionClaims = { shopDomain: string; userId?: string };

/**
 * Verifies an App Bridge v4 session token: HS256 with the app secret, audience = API key, exp/nbf with
 * a small tolerance, and iss and dest naming the same shop. The shop is taken from `dest`.
 * Returns null for anything that does not verify.
 */
export async function verifySessionToken(token: string, apiKey: string, apiSecret: string): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(apiSecret), {
      algorithms: ['HS256'],
      audience: apiKey,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['exp', 'nbf', 'iss', 'dest'],
    });
    const dest = new URL(String(payload.dest));
    const iss = new URL(String(payload.iss));
    // Shopify mints iss = https://<shop>/admin and dest = https://<shop>; anything else is not its token.
    if (dest.protocol !== 'https:' || iss.protocol !== 'https:' || iss.pathname.replace(/\/$/, '') !== '/admin') return null;
    if (dest.hostname !== iss.hostname || !isShopDomain(dest.hostname)) return null;
    return { shopDomain: dest.hostname, userId: payload.sub };
  } catch {
    return null;
  }
}

/** The credential of an `Authorization: Bearer <token>` header ('' when there is none). */
export function bearerToken(header: string | null | undefined): string {
  return (header ?? '').replace(/^Bearer\s+/i, '').trim();
}

/** A JWT's shape (three dot-separated parts): a session token rather than the standalone admin token. */
export const looksLikeJwt = (token: string) => token.split('.').length === 3;

/**
 * The first candidate that verifies as a session token for this very shop, or null. Used where a
 * request may carry one without needing it (the launch's `id_token`, App Bridge's bearer).
 */
export async function sessionTokenForShop(
  env: Pick<Env, 'SHOPIFY_API_KEY' | 'SHOPIFY_API_SECRET'>,
  shopDomain: string,
  candidates: (string | null | undefined)[],
): Promise<string | null> {
  for (const token of candidates) {
    if (!token || !looksLikeJwt(token)) continue;
    const claims = await verifySessionToken(token, env.SHOPIFY_API_KEY, env.SHOPIFY_API_SECRET);
    if (claims?.shopDomain === shopDomain) return token;
  }
  return null;
}

export function isShopDomain(domain: string): boolean {
  return /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(domain);
}
