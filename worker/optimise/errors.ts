// Upload limits, the English of the optimisation texts stored with jobs and images (their keys are in
// shared/messages.ts), and the split between failures a retry can fix (throttling, 5xx, Shopify's file
// processing) and failures it cannot (bad bytes, a deleted image).
import { english } from '../../shared/messages';

/** The plan-limit banner text (getOptSchedule's plan_limit_message). */
export const planLimitMessage = (n: number) => english('server.optimise.planLimit', { count: n });
/** Originals are kept 30 days; afterwards no restore or re-optimise. */
export const MSG_EXPIRED = english('server.optimise.expired');
export const MSG_DELETED = english('server.optimise.deleted');
/** Upload limits (the texts: server.upload.* in shared/messages.ts). */
// The upload limits are numbers of worker/lib/limits.ts; re-exported for the upload rules beside them.
import { UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_FILES, UPLOAD_MAX_REQUEST_BYTES } from '../lib/limits';
export { UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_FILES, UPLOAD_MAX_REQUEST_BYTES };
export const MSG_UPLOAD_REQUEST_TOO_LARGE = english('server.upload.requestTooLarge');

/** A failure no retry will fix: the image is marked failed at once with this reason. */
export class PermanentImageError extends Error {
  override name = 'PermanentImageError';
}

/** The picture changed in Shopify again while a run started over from its last change: a retry comes later. */
export class PictureChangingError extends Error {
  override name = 'PictureChangingError';
  constructor() {
    super('The picture changed in Shopify while it was optimised; trying again later');
  }
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
