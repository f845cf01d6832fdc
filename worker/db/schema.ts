// The D1 schema for both product areas. Times are unix milliseconds (integer) unless named *_day.
// Column names follow the documented API fields where one exists; property names say what a column holds
// (`originalKey` for before_file_path, `expired` for is_overdue, 0/1 flags as booleans), and the views map
// them back to the documented names at the edge.
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
/**
 * A 0/1 column read and written as a boolean. The default stays the number the migrations created
 * (DEFAULT 0 / 1): with `default(false)` drizzle-kit would see a changed default and rebuild the table.
 */
const flag = (column: string, initial: 0 | 1) =>
  integer(column, { mode: 'boolean' })
    .notNull()
    .default(initial as unknown as boolean);

const timestamps = {
  createdAt: integer('created_at').notNull().default(now),
  updatedAt: integer('updated_at').notNull().default(now),
};

/** One row per shop that ever installed the app. Tokens are AES-GCM ciphertexts, never plain. */
export const shops = sqliteTable(
  'shops',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    domain: text('domain').notNull(), // xyz.myshopify.com (the documents' shop_owner)
    name: text('name').notNull().default(''), // shop name shown to the merchant
    ownerName: text('owner_name').notNull().default(''),
    email: text('email').notNull().default(''),
    primaryDomain: text('primary_domain').notNull().default(''), // storefront URL for page-speed checks
    currencyCode: text('currency_code').notNull().default('USD'),
    shopifyPlan: text('shopify_plan').notNull().default(''), // shopify_level
    isDevelopmentStore: flag('is_development_store', 0),
    // true once Shopify refused a real charge ("The shop cannot accept the provided charge."): a store that can
    // only make test charges (app review, staff stores); its test subscriptions count as paid plans.
    testChargesOnly: flag('test_charges_only', 0),
    planLevel: integer('plan_level').notNull().default(0), // shop_level: 0 free, 1-6 paid
    language: text('language').notNull().default('en'),
    showReviewRequest: flag('review_tips', 1), // review_tips
    reviewScore: integer('review_score'), // last score given (0 = dismissed)
    setupGuidePending: flag('new_guide_status', 1), // new_guide_status: the set-up wizard is not completed
    oldInstall: flag('is_old', 0), // is_old: flagged as an installation that lacks scopes (worker/install/old-install.ts)
    overageEnabled: flag('is_over_quota', 0), // is_over_quota: the merchant switched overcharge on
    hasUsageCap: flag('is_capped', 0), // is_capped: the subscription has a usage line (capped amount)
    cappedAmountCents: integer('capped_amount_cents').notNull().default(0),
    subscriptionId: text('subscription_id'),
    subscriptionStatus: text('subscription_status'),
    usageLineItemId: text('usage_line_item_id'),
    pendingPlanLevel: integer('pending_plan_level'),
    billingCycleDay: integer('billing_cycle_day').notNull().default(1), // 1-28, day of month the quota resets
    quotaPeriodStart: integer('quota_period_start').notNull().default(now),
    discountExpiresAt: integer('discount_expires_at'), // new-user discount end (rebate_info.expired_time)
    // The active subscription's discount as Shopify billed it: the price per 30 days while it lasts (cents;
    // null: no discount) and when its last discounted interval ends (null: indefinitely).
    subscriptionDiscountCents: integer('subscription_discount_cents'),
    subscriptionDiscountUntil: integer('subscription_discount_until'),
    scopes: text('scopes').notNull().default(''),
    accessTokenEnc: text('access_token_enc'),
    accessTokenExpiresAt: integer('access_token_expires_at'),
    refreshTokenEnc: text('refresh_token_enc'),
    refreshTokenExpiresAt: integer('refresh_token_expires_at'),
    // Lease on the access-token refresh: D1 decides which request refreshes, since isolates share no memory.
    tokenRefreshLeaseId: text('token_refresh_lease_id'),
    tokenRefreshLeaseUntil: integer('token_refresh_lease_until'),
    adminTokenHash: text('admin_token_hash'), // no longer used: admin tokens live in admin_tokens (moved by migration)
    adminTokenCreatedAt: integer('admin_token_created_at'),
    installedAt: integer('installed_at'),
    uninstalledAt: integer('uninstalled_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('shops_domain_uq').on(t.domain), index('shops_admin_token_idx').on(t.adminTokenHash)],
);

/** Image settings in their documented shape; the nested objects are stored as validated JSON. */
export const imageSettings = sqliteTable('image_settings', {
  shopId: integer('shop_id')
    .primaryKey()
    .references(() => shops.id, { onDelete: 'cascade' }),
  usingDefaults: flag('is_default', 1), // is_default: never saved by the merchant
  autoOptimise: flag('auto_switch', 0), // auto_switch
  imageOpt: text('image_opt', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  altText: text('alt_text', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  fileName: text('file_name', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  watermarkKey: text('watermark_key'), // R2 key under watermarks/, served at /imageAddWatermark/<name>
  backupConsent: flag('day_backup', 0), // day_backup: the wizard's consent to keep originals 30 days
  ...timestamps,
});

/**
 * History rows: one per product, collection, blog article or upload batch. data_type: 1 product,
 * 2 collection, 3 blog, 4 other (upload). resourceId is Shopify's numeric id (prod_id / coll_id / art_id).
 */
export const items = sqliteTable(
  'items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    dataType: integer('data_type').notNull(),
    resourceId: text('resource_id').notNull(), // numeric Shopify id, or an upload batch id
    blogId: text('blog_id'), // articles only
    title: text('title').notNull().default(''),
    handle: text('handle').notNull().default(''),
    thumbnailUrl: text('image').notNull().default(''),
    vendor: text('vendor').notNull().default(''),
    productType: text('product_type').notNull().default(''),
    price: text('price').notNull().default(''),
    variant: text('variant').notNull().default(''),
    blogTitle: text('blog_title').notNull().default(''),
    resourceStatus: text('resource_status').notNull().default(''), // ACTIVE / DRAFT / ARCHIVED
    published: flag('is_published', 1),
    deleted: flag('is_delete', 0), // is_delete: gone from Shopify
    optStatus: integer('opt_status').notNull().default(0), // 0 none, 1 running, 2 optimised, 3 restored
    status: text('status').notNull().default(''), // history status: finished, implement, monitor, restored, deleted
    pattern: text('pattern').notNull().default(''), // automatic, manual, upload
    savedPercent: real('comp_ratio').notNull().default(0), // comp_ratio, shown with 2 decimals
    imageCount: integer('image_count').notNull().default(0),
    optimisedAt: integer('optimised_at'),
    resourceUpdatedAt: text('resource_updated_at'),
    syncedAt: integer('synced_at'), // last catalogue sync that saw it on Shopify; older ones are swept as deleted
    ...timestamps,
  },
  (t) => [
    uniqueIndex('items_shop_type_resource_uq').on(t.shopId, t.dataType, t.resourceId),
    index('items_shop_type_updated_idx').on(t.shopId, t.dataType, t.updatedAt),
    index('items_shop_type_title_idx').on(t.shopId, t.dataType, t.title),
    // History pages walk this in order and stop after the page (bench:api, 10,000 items).
    index('items_shop_type_optimised_idx').on(t.shopId, t.dataType, t.optimisedAt),
  ],
);

/** Image rows: every field of the documented image row, plus what the pipeline needs to be idempotent. */
export const images = sqliteTable(
  'images',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    itemId: integer('opt_id') // opt_id: the history row (item) this image belongs to
      .notNull()
      .references(() => items.id, { onDelete: 'cascade' }),
    imgId: text('img_id').notNull(), // Shopify GID of the media / image, or upload file id
    position: integer('position').notNull().default(0),
    src: text('src').notNull().default(''),
    alt: text('alt').notNull().default(''),
    fileName: text('file_name').notNull().default(''),
    fileType: text('file_type').notNull().default(''), // jpg, png, gif, webp
    width: integer('width').notNull().default(0),
    height: integer('height').notNull().default(0),
    // The original's pixel size when the engine made the result (width/height then hold the result's):
    // the history shows "before -> after" when a resize on request changed it. 0: not known.
    originalWidth: integer('orig_width').notNull().default(0),
    originalHeight: integer('orig_height').notNull().default(0),
    originalSize: integer('img_size').notNull().default(0), // img_size: bytes of the original
    optimisedSize: integer('comp_size').notNull().default(0), // comp_size: bytes after optimisation (the original's without a result)
    savedPercent: real('comp_ratio').notNull().default(0), // comp_ratio
    originalKey: text('before_file_path'), // R2 key of the original (originals/...)
    resultKey: text('after_file_path'), // R2 key of the result (results/...)
    originalSha256: text('original_sha256'),
    resultSha256: text('result_sha256'), // recognises our own output in products/update webhooks
    originalAlt: text('original_alt'),
    originalFileName: text('original_file_name'),
    // is_compress: our smaller result replaced the image on Shopify (still true after a restore). Whether
    // the image was charged is the ledger's to say (usage_ledger, `charged` in worker/db/images.ts).
    compressed: flag('is_compress', 0),
    convertedToJpg: flag('is_to_jpg', 0),
    altEdited: flag('is_edit_alt', 0),
    fileNameEdited: flag('is_edit_name', 0),
    watermarked: flag('is_watermark', 0),
    restored: flag('is_restore', 0),
    expired: flag('is_overdue', 0), // is_overdue: the 30 days are over, the original is gone
    deleted: flag('is_delete', 0),
    downloaded: flag('is_download', 0),
    // pending, queued, processing, compressed, optimal (not smaller), restored, failed, skipped
    status: text('status').notNull().default('pending'),
    failReason: text('fail_reason'),
    step: text('step'), // last pipeline step reached, so a retry resumes instead of repeating
    // Processing lease (worker/optimise/lease.ts): a conditional UPDATE takes it, so two deliveries never
    // work one image. lock_token names the one delivery holding it (two deliveries of one message share
    // the job id); lock_expires_at is renewed at every step.
    lockJobId: text('lock_job_id'),
    lockExpiresAt: integer('lock_expires_at'),
    lockToken: text('lock_token'),
    optimisedAt: integer('optimised_at'),
    // When the original now in R2 was written: R2's lifecycle rule deletes it 30 days later, so expiresAt
    // (the restore date the admin shows) is this + 30 days, never the time of a later step.
    originalStoredAt: integer('original_stored_at'),
    expiresAt: integer('expires_at'), // originalStoredAt + 30 days: the original is deleted then
    // The catalogue saw a different URL than the one we last wrote or saw for an image we changed: what
    // Shopify serves must be compared with our files before anything trusts the row (worker/optimise/served.ts).
    checkServed: flag('check_served', 0),
    // A note the row carries for the merchant: a message key of shared/messages.ts and its params
    // (e.g. restored under another file name, or changed in Shopify after it was optimized).
    noteKey: text('note_key'),
    noteParams: text('note_params', { mode: 'json' }).$type<Record<string, string>>(),
    syncedAt: integer('synced_at'), // last catalogue sync that saw it on Shopify; older ones are swept as deleted
    ...timestamps,
  },
  (t) => [
    uniqueIndex('images_shop_img_uq').on(t.shopId, t.imgId),
    index('images_shop_opt_idx').on(t.shopId, t.itemId, t.position),
    index('images_shop_status_idx').on(t.shopId, t.status),
    index('images_expires_idx').on(t.expiresAt),
    // Covering indexes for getImgOptTotal and the manual list at 40,000 images (bench:api).
    index('images_shop_saved_idx').on(t.shopId, t.compressed, t.restored, t.originalSize, t.optimisedSize),
    index('images_shop_candidate_idx').on(t.shopId, t.status, t.deleted, t.expired, t.itemId),
  ],
);

/**
 * Earlier versions of an image: when Shopify serves a picture the product did not write (the merchant
 * replaced it, or another app did), the row moves on to the new picture and its old original/result pair
 * is kept here, for the record and until the expiry sweep deletes the files, but never put back.
 */
export const imageVersions = sqliteTable(
  'image_versions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    imageId: integer('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    src: text('src').notNull().default(''),
    status: text('status').notNull(),
    originalKey: text('before_file_path'),
    resultKey: text('after_file_path'),
    originalSha256: text('original_sha256'),
    resultSha256: text('result_sha256'),
    originalSize: integer('img_size').notNull().default(0),
    optimisedSize: integer('comp_size').notNull().default(0),
    optimisedAt: integer('optimised_at'),
    expiresAt: integer('expires_at'),
    retiredAt: integer('retired_at').notNull(),
    servedSha256: text('served_sha256'), // what Shopify served instead
  },
  (t) => [index('image_versions_image_idx').on(t.shopId, t.imageId), index('image_versions_expires_idx').on(t.expiresAt)],
);

/** A queued unit of work: optimise, re-optimise, restore or upload, for one shop and tab. */
export const jobs = sqliteTable(
  'jobs',
  {
    id: text('id').primaryKey(), // uuid
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    dataType: integer('data_type').notNull(),
    processType: text('process_type').notNull(), // optimize, reoptimize, restore, upload, auto
    pageType: integer('page_type').notNull().default(0), // 0 history, 1 detail / manual
    pattern: text('pattern').notNull().default('manual'),
    status: text('status').notNull().default('queued'), // queued, running, done, stopped
    total: integer('total').notNull().default(0),
    ...timestamps,
    finishedAt: integer('finished_at'),
  },
  (t) => [index('jobs_shop_status_idx').on(t.shopId, t.status, t.createdAt)],
);

/** Progress of each image in a job; opt_in / opt_total per item are counted from here, never kept as counters. */
export const jobImages = sqliteTable(
  'job_images',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    imageId: integer('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    itemId: integer('opt_id').notNull(),
    shopId: integer('shop_id').notNull(),
    status: text('status').notNull().default('queued'), // queued, done, failed, skipped, stopped
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.jobId, t.imageId] }), index('job_images_shop_status_idx').on(t.shopId, t.status)],
);

/**
 * The quota ledger. One row per charged image; the unique charge key (shop + image) makes a retry or a
 * duplicate queue delivery a no-op, so an image is charged once however often its job runs.
 */
export const usageLedger = sqliteTable(
  'usage_ledger',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    chargeKey: text('charge_key').notNull(),
    imageId: integer('image_id'),
    jobId: text('job_id'),
    periodStart: integer('period_start').notNull(), // quota period the charge counts against
    overage: flag('is_overage', 0), // is_overage: beyond the plan's images
    createdAt: integer('created_at').notNull().default(now),
  },
  (t) => [
    uniqueIndex('usage_ledger_charge_uq').on(t.shopId, t.chargeKey),
    index('usage_ledger_period_idx').on(t.shopId, t.periodStart),
  ],
);

/** Overage usage records sent to Shopify ($4.99 per 1,000 images), idempotent by key. */
export const usageCharges = sqliteTable(
  'usage_charges',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    periodStart: integer('period_start').notNull(),
    imageCount: integer('image_count').notNull(),
    amountCents: integer('amount_cents').notNull(),
    usageRecordId: text('usage_record_id'),
    status: text('status').notNull().default('pending'), // pending, recorded, failed
    createdAt: integer('created_at').notNull().default(now),
  },
  (t) => [uniqueIndex('usage_charges_key_uq').on(t.shopId, t.idempotencyKey)],
);

/** PageSpeed Insights results, kept as a history; the newest row is the current score. */
export const pagespeedScores = sqliteTable(
  'pagespeed_scores',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    url: text('url').notNull().default(''),
    status: integer('status').notNull().default(2), // 2 in progress, 1 ready, 3 failed
    desktop: integer('desktop'),
    mobile: integer('mobile'),
    error: text('error'),
    requestedAt: integer('requested_at').notNull().default(now),
    completedAt: integer('completed_at'),
  },
  (t) => [index('pagespeed_shop_requested_idx').on(t.shopId, t.requestedAt)],
);

/** App switches (the documented name, st, at, exp), e.g. extra_adver. */
export const appSwitches = sqliteTable(
  'app_switches',
  {
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    state: integer('st').notNull().default(0),
    savedAt: integer('at').notNull().default(now),
    expiry: integer('exp').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.name] })],
);

/** Contact form, feedback and quota-increase requests. kind: contact, feedback, quota_request. */
export const contactMessages = sqliteTable(
  'contact_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull().default('contact'),
    name: text('name').notNull().default(''),
    email: text('email').notNull().default(''),
    title: text('title').notNull().default(''),
    description: text('description').notNull().default(''),
    path: text('path').notNull().default(''),
    createdAt: integer('created_at').notNull().default(now),
  },
  (t) => [index('contact_shop_idx').on(t.shopId, t.createdAt)],
);

/** Every review score given (0 = Dismiss). */
export const reviewScores = sqliteTable(
  'review_scores',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    score: integer('score').notNull(),
    createdAt: integer('created_at').notNull().default(now),
  },
  (t) => [index('review_shop_idx').on(t.shopId)],
);

/** The merchant's UI choices and clicks (closed banners, video card, promo): getUserSelectData. */
export const userSelections = sqliteTable(
  'user_selections',
  {
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull().default(''),
    clicks: integer('clicks').notNull().default(0),
    updatedAt: integer('updated_at').notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.key] })],
);

/**
 * X-Shopify-Webhook-Id values seen: Shopify delivers at least once. `status` (worker/db/processed-webhooks.ts):
 * 'received' while a request holds it (until `lease_until`), 'queued' once its work is durably on the
 * webhook queue, 'running' while the queue consumer holds it, 'done' when the work is finished.
 */
export const processedWebhooks = sqliteTable(
  'processed_webhooks',
  {
    webhookId: text('webhook_id').primaryKey(),
    shopDomain: text('shop_domain').notNull(),
    topic: text('topic').notNull(),
    receivedAt: integer('received_at').notNull().default(now),
    status: text('status').notNull().default('done'),
    leaseUntil: integer('lease_until'),
  },
  (t) => [index('processed_webhooks_received_idx').on(t.receivedAt)],
);

/** OAuth state nonces, single use, short lived; the half-hourly cron sweeps expired ones by expires_at. */
export const oauthStates = sqliteTable(
  'oauth_states',
  {
    state: text('state').primaryKey(),
    shopDomain: text('shop_domain').notNull(),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [index('oauth_states_expires_idx').on(t.expiresAt)],
);

/**
 * Standalone admin tokens (the documents' authToken), stored only as SHA-256. Each is tied to the
 * Shopify user who issued it (the session token's `sub`) and expires; Settings lists and revokes them.
 */
export const adminTokens = sqliteTable(
  'admin_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    userId: text('user_id').notNull().default(''), // `sub` of the session token that issued it
    createdAt: integer('created_at').notNull().default(now),
    expiresAt: integer('expires_at').notNull(),
  },
  (t) => [uniqueIndex('admin_tokens_hash_uq').on(t.tokenHash), index('admin_tokens_shop_idx').on(t.shopId, t.userId)],
);

/**
 * Per-shop allowances counted per window (e.g. uploads per UTC day, re-optimised images per day). One
 * conditional upsert takes from the allowance, so concurrent requests never overshoot it.
 */
export const shopAllowances = sqliteTable(
  'shop_allowances',
  {
    shopId: integer('shop_id')
      .notNull()
      .references(() => shops.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    windowStart: integer('window_start').notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.kind, t.windowStart] }), index('shop_allowances_window_idx').on(t.windowStart)],
);

/** Catalogue sync progress per shop (getImageSyncStatus). */
export const catalogueSyncs = sqliteTable('catalogue_syncs', {
  shopId: integer('shop_id')
    .primaryKey()
    .references(() => shops.id, { onDelete: 'cascade' }),
  status: text('status').notNull().default('idle'), // idle, running, done, failed
  imageCount: integer('image_count').notNull().default(0),
  bulkOperationId: text('bulk_operation_id'),
  error: text('error'),
  startedAt: integer('started_at'),
  finishedAt: integer('finished_at'),
});

/**
 * Messages that exhausted their queue's retries and reached its dead-letter queue (issue 22): the record
 * an operator reads (`npm run dead-letters -- list`) and replays. `status`: 'open' (recorded), 'replay'
 * (an operator asked; the 5-minute cron re-sends it), 'replayed' (re-sent to its queue), 'done' (retried
 * here until its work finished: work that must not be lost, e.g. shop/redact, is retried with backoff,
 * `next_retry_at`, for as long as it takes). worker/jobs/dead-letters.ts.
 */
export const deadLetters = sqliteTable(
  'dead_letters',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    queue: text('queue').notNull(), // the original queue's base name (shopify-webhooks, catalogue-sync, ...)
    messageId: text('message_id').notNull(),
    shop: text('shop'), // shop domain or id as the message names it
    kind: text('kind').notNull(), // the message's type, or the webhook topic
    body: text('body').notNull(), // the message body, JSON
    status: text('status').notNull().default('open'),
    mustComplete: flag('must_complete', 0),
    retries: integer('retries').notNull().default(0),
    nextRetryAt: integer('next_retry_at'),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull().default(now),
    updatedAt: integer('updated_at').notNull().default(now),
  },
  (t) => [
    uniqueIndex('dead_letters_message_uq').on(t.queue, t.messageId),
    index('dead_letters_status_idx').on(t.status, t.nextRetryAt),
  ],
);

/**
 * What survives shop/redact (decisions.md "Money shown is money charged"): a keyed hash of the shop domain
 * (HMAC-SHA256 with the app secret, worker/db/redacted-shops.ts), the free images used in the period the
 * shop was last in, that period's cycle, and when the new-user offer ended. Nothing else of the shop is
 * kept; a reinstall of the same domain starts from these numbers instead of a fresh quota and offer.
 */
export const redactedShops = sqliteTable('redacted_shops', {
  domainHash: text('domain_hash').primaryKey(),
  billingCycleDay: integer('billing_cycle_day').notNull(),
  quotaPeriodStart: integer('quota_period_start').notNull(),
  freeImagesUsed: integer('free_images_used').notNull(),
  offerEndsAt: integer('offer_ends_at').notNull(),
  redactedAt: integer('redacted_at').notNull(),
});
