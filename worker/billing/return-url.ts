// Shopify's billing return URL, signed: the merchant's browser arrives there with no session, so the
// query says which shop and what kind of approval it was, and the signature (HMAC-SHA256 with the app
// secret over shop, kind and expiry) proves the app made that URL. A forged or expired return does
// nothing. Shopify reuses a subscription's return URL for later usage-cap approvals, so it must live
// as long as a subscription may be kept; the return only makes the app ask Shopify again.
import { hmacSha256, timingSafeEqual, toHex } from '../lib/crypto';

export const BILLING_RETURN_PATH = '/shopify/billing/return';
export const RETURN_URL_LIFETIME_MS = 400 * 86_400_000;

export type ReturnKind = 'plan' | 'cap';
type SignEnv = Pick<Env, 'APP_URL' | 'SHOPIFY_API_SECRET'>;

const signedText = (shop: string, kind: string, exp: string) => `billing-return\n${shop}\n${kind}\n${exp}`;

export async function billingReturnUrl(env: SignEnv, shopDomain: string, kind: ReturnKind, now = Date.now()): Promise<string> {
  const url = new URL(BILLING_RETURN_PATH, env.APP_URL);
  const exp = String(Math.floor((now + RETURN_URL_LIFETIME_MS) / 1000));
  url.searchParams.set('shop', shopDomain);
  url.searchParams.set('kind', kind);
  url.searchParams.set('exp', exp);
  url.searchParams.set('sig', toHex(await hmacSha256(env.SHOPIFY_API_SECRET, signedText(shopDomain, kind, exp))));
  return url.toString();
}

/** The shop and kind of a genuine, unexpired return; null for anything else. */
export async function verifyBillingReturn(
  env: Pick<Env, 'SHOPIFY_API_SECRET'>,
  q: URLSearchParams,
  now = Date.now(),
): Promise<{ shop: string; kind: ReturnKind } | null> {
  const shop = q.get('shop') ?? '';
  const kind = q.get('kind') ?? '';
  const exp = q.get('exp') ?? '';
  const sig = (q.get('sig') ?? '').toLowerCase();
  if ((kind !== 'plan' && kind !== 'cap') || !/^\d{1,12}$/.test(exp) || !/^[0-9a-f]{64}$/.test(sig)) return null;
  if (Number(exp) * 1000 < now) return null;
  const expected = toHex(await hmacSha256(env.SHOPIFY_API_SECRET, signedText(shop, kind, exp)));
  return timingSafeEqual(expected, sig) ? { shop, kind } : null;
}
