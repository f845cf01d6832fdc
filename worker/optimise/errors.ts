// Messages the merchant sees from the optimisation calls, and the split between failures a retry can
// fix (throttling, 5xx, Shopify's file processing) and failures it cannot (bad bytes, a deleted image).

/** image-optimisation.md section 8: the plan-limit banner text. */
export const planLimitMessage = (n: number) => `There are ${n} images that can be optimized.`;
/** Section 5: bulk restore / re-optimise with nothing selectable. */
export const MSG_SELECT_CORRECT_STATE = 'Select the correct state of the image operation';
export const msgSelectCorrectStateOf = (tab: 'product' | 'collection' | 'blog') => `Select the correct state of the ${tab} image operation`;
/** Section 9 and decisions.md: originals are kept 30 days; afterwards no restore or re-optimise. */
export const MSG_EXPIRED = 'This image has expired: originals are kept for 30 days, so it can no longer be restored or re-optimized.';
export const MSG_DELETED = 'This image has been deleted and cannot be restored or re-optimized.';
export const MSG_NOTHING_TO_OPTIMISE = 'There are no images to optimize.';
/** Section 5: upload rules (the first one verbatim). */
export const MSG_UPLOAD_TYPE = 'is not supported. File type must be .jpg, .png.';
export const MSG_UPLOAD_NONE = "haven't uploaded any image";
// The upload limits are numbers of worker/lib/limits.ts; re-exported for the upload rules beside them.
import { UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_FILES, UPLOAD_MAX_REQUEST_BYTES } from '../lib/limits';
export { UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_FILES, UPLOAD_MAX_REQUEST_BYTES };
export const MSG_UPLOAD_FILE_TOO_LARGE = 'is too large. Each image must be 5 MB or smaller.';
/** Declared pixels above Shopify's 25 MP (see worker/images/declared-size.ts). */
export const MSG_UPLOAD_TOO_MANY_PIXELS = 'is too large. Images can be at most 25 megapixels.';
export const MSG_UPLOAD_TOO_MANY = `Upload at most ${UPLOAD_MAX_FILES} images at a time.`;
export const MSG_UPLOAD_REQUEST_TOO_LARGE = 'Upload at most 20 MB of images at a time.';

/** A failure no retry will fix: the image is marked failed at once with this reason. */
export class PermanentImageError extends Error {
  override name = 'PermanentImageError';
}

/** Shopify processed the new file and reported FAILED: worth retrying with backoff (issue 6). */
function isFileProcessingFailure(err: Error): boolean {
  const codes = (err as { codes?: unknown }).codes;
  return Array.isArray(codes) && codes.includes('FILE_FAILED');
}

/**
 * Whether a failure is worth another delivery. Typed errors are recognised by name so this module does
 * not depend on every producer: the codec's ImageDecodeError, Shopify's userErrors (except FAILED file
 * processing), a revoked token, and 4xx answers other than 429 are permanent; the rest is temporary.
 */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof Error)) return true;
  if (err instanceof PermanentImageError) return false;
  if (isFileProcessingFailure(err)) return true;
  switch (err.name) {
    case 'ImageDecodeError':
    case 'ShopifyUserError':
    case 'ShopifyUnauthorizedError':
    case 'ShopifyReauthRequiredError':
    case 'ShopifyGraphqlError':
      return false;
    case 'ShopifyHttpError':
      return (err as { retryable?: boolean }).retryable !== false;
    default:
      return true;
  }
}

export function reasonOf(err: unknown): string {
  const text = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  return text.slice(0, 500);
}
