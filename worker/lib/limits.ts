// Limits that keep money and shared capacity safe from any one shop or caller (issue 17). One place for
// the numbers: the README's Hardening section lists them, the abuse suite (tests/worker/security/abuse)
// checks each one.
import { english } from '../../shared/messages';
const MB = 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Uploads (uploadImagesOpt): per image, images per request, and image bytes per request. */
export const UPLOAD_MAX_FILE_BYTES = 5 * MB;
export const UPLOAD_MAX_FILES = 20;
export const UPLOAD_MAX_REQUEST_BYTES = 20 * MB;

/** UPLOAD_MAX_REQUEST_BYTES of images as base64 (4 characters per 3 bytes): the most upload data one request carries. */
export const UPLOAD_MAX_BASE64_CHARS = Math.ceil((UPLOAD_MAX_REQUEST_BYTES * 4) / 3);

/** Request bodies, refused by Content-Length before they are read (413). */
export const BODY_LIMITS = {
  /** Every JSON / form API call; a settings save with a 500 KB watermark in base64 fits. */
  json: 1 * MB,
  /** Shopify webhooks (the largest product payloads stay far below). */
  webhook: 2 * MB,
  /** uploadImagesOpt: 20 MB of images as base64 (4/3) plus the JSON around them. */
  upload: UPLOAD_MAX_BASE64_CHARS + 1 * MB,
} as const;
// The English texts of the refusals (shared/messages.ts); errors are thrown by key.
export const MSG_BODY_TOO_LARGE = english('server.limits.bodyTooLarge');

/** Image ids (and rows) one restore or re-optimise request may name, all rows together. */
export const MAX_IDS_PER_REQUEST = 1000;
export const MSG_TOO_MANY_IDS = english('server.limits.tooManyIds');

/** Admin tokens (authToken): each expires, each shop holds a few at most (the oldest go first). */
export const ADMIN_TOKEN_TTL_MS = 30 * DAY_MS;
export const MAX_ADMIN_TOKENS_PER_SHOP = 10;

/** Per-client request rates (Workers rate-limiting binding; wrangler.toml [[ratelimits]]). */
export const RATE_LIMITS = {
  shopify: { limit: 60, periodSeconds: 60 },
  webhooks: { limit: 600, periodSeconds: 60 },
} as const;
export const MSG_TOO_MANY_REQUESTS = english('server.limits.tooManyRequests');

/** Uploads: accepted files per shop per UTC day. */
export const UPLOADS_PER_DAY = 500;
export const MSG_UPLOAD_ALLOWANCE = english('server.limits.uploadAllowance');

/** PageSpeed: one recheck per shop per cooldown. */
export const PAGESPEED_COOLDOWN_MS = 5 * 60 * 1000;
export const MSG_PAGESPEED_COOLDOWN = english('server.limits.pagespeedCooldown');

/** Re-optimisation (free, so repeatable): images per shop per UTC day, and images waiting in the queue. */
export const REOPTIMISE_IMAGES_PER_DAY = 5000;
export const MAX_QUEUED_IMAGES_PER_SHOP = 5000;
export const MSG_REOPTIMISE_ALLOWANCE = english('server.limits.reoptimiseAllowance');
export const MSG_QUEUE_BUSY = english('server.limits.queueBusy');

/** Ended jobs and their per-image rows are kept this long, then the daily sweep deletes them. */
export const ENDED_JOBS_KEPT_MS = 14 * DAY_MS;

/** Retention of per-shop rows: the newest ones are kept. */
export const CONTACT_ROWS_KEPT = 100;
export const USER_SELECTIONS_KEPT = 100;
export const PAGESPEED_ROWS_KEPT = 50;
