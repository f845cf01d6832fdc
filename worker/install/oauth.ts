// Shopify's signed redirects (install landing, OAuth callback) and the authorize URL.
import { hmacSha256, timingSafeEqual, toHex } from '../lib/crypto';
import { authorizeUrl } from '../shopify/api-version';

/** A signed request older than this (or this far in the future) is refused. */
export const MAX_QUERY_AGE_SECONDS = 10 * 60;
const MAX_FUTURE_SKEW_SECONDS = 60;

/**
 * The message Shopify signs: every query parameter except hmac and signature, sorted by name, as
 * `name=value` joined with `&`; a repeated name (ids[]) becomes name=["a", "b"].
 */
export function signedQueryMessage(params: URLSearchParams): string {
  const grouped = new Map<string, string[]>();
  for (const [k, v] of params) {
    if (k === 'hmac' || k === 'signature') continue;
    const list = grouped.get(k) ?? [];
    list.push(v);
    grouped.set(k, list);
  }
  return [...grouped.keys()]
    .sort()
    .map((k) => {
      const values = grouped.get(k) ?? [];
      const key = k.endsWith('[]') ? k.slice(0, -2) : k;
      return values.length > 1 || k.endsWith('[]') ? `${key}=["${values.join('", "')}"]` : `${key}=${values[0] ?? ''}`;
    })
    .join('&');
}

/** Hex HMAC-SHA256 of the signed message with the app secret, compared in constant time. */
export async function verifyQueryHmac(params: URLSearchParams, secret: string): Promise<boolean> {
  const given = (params.get('hmac') ?? '').toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  const expected = toHex(await hmacSha256(secret, signedQueryMessage(params)));
  return timingSafeEqual(expected, given);
}

export async function signQuery(params: URLSearchParams, secret: string): Promise<string> {
  return toHex(await hmacSha256(secret, signedQueryMessage(params)));
}

export function isFreshTimestamp(timestamp: string | null | undefined, nowMs = Date.now()): boolean {
  if (!timestamp || !/^\d{9,11}$/.test(timestamp)) return false;
  const age = nowMs / 1000 - Number(timestamp);
  return age <= MAX_QUERY_AGE_SECONDS && age >= -MAX_FUTURE_SKEW_SECONDS;
}

/** Scopes still missing from a grant; write_x implies read_x as Shopify documents. */
export function missingScopes(granted: string, required: string): string[] {
  const have = new Set(
    granted
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  for (const s of [...have]) if (s.startsWith('write_')) have.add(`read_${s.slice(6)}`);
  return required
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && !have.has(s));
}

export type AuthorizeEnv = Pick<Env, 'SHOPIFY_ORIGIN' | 'SHOPIFY_API_KEY' | 'SHOPIFY_SCOPES' | 'APP_URL'>;

export function oauthRedirectUri(env: Pick<Env, 'APP_URL'>): string {
  return `${env.APP_URL.replace(/\/+$/, '')}/shopify/callback`;
}

/** Shopify's authorize URL for an offline grant (no grant_options[]=per-user). */
export function buildAuthorizeUrl(env: AuthorizeEnv, shopDomain: string, state: string): string {
  const q = new URLSearchParams({
    client_id: env.SHOPIFY_API_KEY,
    scope: env.SHOPIFY_SCOPES,
    redirect_uri: oauthRedirectUri(env),
    state,
  });
  return `${authorizeUrl(env, shopDomain)}?${q.toString()}`;
}
