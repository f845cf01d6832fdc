// Signed, expiring, shop-bound links to the before (original) and after (result) file of one image.
// The admin shows them in <img> and download links, which cannot carry the session token, so the
// link itself is the credential: HMAC over shop, image, side and expiry with a key derived from the app
// secret. An image row is looked up by (shop, id), so a link never opens another shop's file.
import { hmacSha256, timingSafeEqual, toBase64Url } from '../lib/crypto';

export type FileSide = 'before' | 'after';
/** Links live one hour: long enough for a compare view or a download, short enough not to leak for long. */
export const LINK_TTL_MS = 60 * 60 * 1000;

const payload = (shopId: number, imageId: number, side: FileSide, exp: number) => `files|${shopId}|${imageId}|${side}|${exp}`;

async function signature(secret: string, shopId: number, imageId: number, side: FileSide, exp: number): Promise<string> {
  return toBase64Url(await hmacSha256(`download-links:${secret}`, payload(shopId, imageId, side, exp)));
}

/** The documents' rule for downloads: an http URL becomes https (loopback hosts stay as configured). */
export function forceHttps(url: string): string {
  return /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:|\/|$)/.test(url) ? url : url.replace(/^http:\/\//, 'https://');
}

export async function signedFileUrl(
  env: Pick<Env, 'APP_URL' | 'SHOPIFY_API_SECRET'>,
  shopId: number,
  imageId: number,
  side: FileSide,
  now = Date.now(),
): Promise<string> {
  // Expiry rounded up to the next minute so repeated page loads yield the same cacheable URL.
  const exp = Math.ceil((now + LINK_TTL_MS) / 60_000) * 60_000;
  const sig = await signature(env.SHOPIFY_API_SECRET, shopId, imageId, side, exp);
  return forceHttps(`${env.APP_URL.replace(/\/+$/, '')}/files/${shopId}/${imageId}/${side}?exp=${exp}&sig=${sig}`);
}

/** True when the link is authentic and not expired. */
export async function verifyFileLink(
  secret: string,
  shopId: number,
  imageId: number,
  side: FileSide,
  exp: number,
  sig: string,
  now = Date.now(),
): Promise<boolean> {
  if (!Number.isFinite(exp) || exp < now) return false;
  return timingSafeEqual(sig, await signature(secret, shopId, imageId, side, exp));
}
