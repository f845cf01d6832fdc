// The catalogue-sync queue consumer: the install-time full sync and the webhook-driven updates
// (worker/messages/catalogue-sync.ts). Delivery is at least once; every message is idempotent.
import { z } from 'zod';
import { createDb } from '../db/client';
import { endSync } from '../db/catalogue-syncs';
import { markItemDeleted } from '../db/items-sync';
import { findShopById } from '../db/shops';
import { ACK, queueConsumer, type Backoff, type Verdict } from '../lib/queue-consumer';
import { createLogger, type Logger } from '../lib/log';
import { onCatalogueChanged } from '../optimise/auto';
import { pipelineDeps, planDeps } from '../optimise/deps';
import { followServedPictures } from '../optimise/served';
import type { SyncQueueMessage } from '../messages/catalogue-sync';
import { ShopifyReauthRequiredError, ShopifyUnauthorizedError, shopifyClientFor } from '../shopify';
import { runFullSync, syncOneResource } from './sync';

const KINDS = {
  product_changed: 'product',
  product_deleted: 'product',
  collection_changed: 'collection',
  collection_deleted: 'collection',
} as const;

const syncMessageSchema: z.ZodType<SyncQueueMessage> = z.union([
  z.object({ type: z.literal('sync'), shopId: z.number() }),
  z.object({
    type: z.enum(['product_changed', 'product_deleted', 'collection_changed', 'collection_deleted']),
    shopId: z.number(),
    resourceId: z.string(),
    gid: z.string(),
    updatedAt: z.string().nullable(),
    webhookId: z.string(),
  }),
]);

/** 20 s, 40 s, 80 s, 160 s, then 5 minutes (a bulk operation or Shopify's throttle may need a while). */
export const SYNC_BACKOFF: Backoff = { baseSeconds: 20, maxSeconds: 300 };
/** wrangler.toml max_retries of catalogue-sync. */
const SYNC_MAX_RETRIES = 5;

/**
 * Final: a rejected token (app uninstalled or access revoked: the uninstall webhook follows) and no
 * usable grant (refresh token lapsed or refused): no retry can succeed until the merchant opens the
 * app again, which queues a fresh sync. Everything else (throttling, 5xx, network, a bulk operation
 * still running) is retried with backoff; the sync status row records the failure meanwhile.
 */
function isPermanent(err: unknown): err is ShopifyUnauthorizedError | ShopifyReauthRequiredError {
  return err instanceof ShopifyUnauthorizedError || err instanceof ShopifyReauthRequiredError;
}

export async function handleSyncMessage(body: SyncQueueMessage, env: Env): Promise<string> {
  const db = createDb(env.DB);
  const log = createLogger({ queue: 'catalogue-sync', type: body.type, shopId: body.shopId });
  const shop = await findShopById(db, body.shopId);
  if (!shop || shop.uninstalledAt || !shop.accessTokenEnc) return 'skipped_not_installed';
  const deps = { db, client: shopifyClientFor(env, db, shop), shopId: shop.id, log };
  if (body.type === 'sync') {
    const r = await runFullSync(deps);
    // Pictures changed in Shopify since we optimised them become new originals before anything else runs.
    await followServedPictures(pipelineDeps(env, log), shop);
    // Automatic mode picks up what the sync found at once instead of at the next half-hourly sweep.
    await onCatalogueChanged(planDeps(env, db, log), shop.id);
    return `synced_${r.images}`;
  }
  const kind = KINDS[body.type];
  if (body.type.endsWith('_deleted')) {
    await markItemDeleted(db, shop.id, kind === 'product' ? 1 : 2, body.resourceId);
    return 'deleted';
  }
  const outcome = await syncOneResource(deps, kind, body.gid, body.resourceId);
  await followServedPictures(pipelineDeps(env, log), shop);
  // New or changed images of a product/collection go straight to the optimiser in automatic mode. Our own
  // replacements also arrive here as products/update; they are no longer pending, so nothing is queued.
  await onCatalogueChanged(planDeps(env, db, log), shop.id);
  return outcome;
}

/** One message: the sync or update, or, when no retry can succeed, the failure recorded and the message acked. */
async function processSync(env: Env, body: SyncQueueMessage, log: Logger): Promise<Verdict> {
  try {
    const outcome = await handleSyncMessage(body, env);
    log.info('catalogue_sync_message_done', { outcome });
    return ACK;
  } catch (err) {
    if (!isPermanent(err)) throw err; // retried with SYNC_BACKOFF; the sync status row records the failure meanwhile
    const reason = `${err instanceof ShopifyReauthRequiredError ? 'reauth_required' : 'unauthorized'}: ${err.message}`.slice(
      0,
      500,
    );
    log.error('catalogue_sync_failed_permanently', { reason, error: err });
    // The status row says why nothing moves (also for a webhook update: the catalogue is stale).
    await endSync(createDb(env.DB), body.shopId, { status: 'failed', error: reason });
    return ACK;
  }
}

/** Messages one after the other (max_batch_size 1): a full sync is a shop's whole catalogue. */
export const catalogueSyncConsumer = queueConsumer({
  name: 'catalogue_sync',
  schema: syncMessageSchema,
  context: (m) => ({ type: m.type, shopId: m.shopId }),
  setup: (env: Env) => env,
  process: (env, body, _delivery, log) => processSync(env, body, log),
  backoff: SYNC_BACKOFF,
  maxRetries: SYNC_MAX_RETRIES,
  parallel: false,
});
