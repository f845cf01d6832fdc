// The catalogue-sync queue consumer: the install-time full sync and the webhook-driven updates
// (worker/messages/catalogue-sync.ts). Delivery is at least once; every message is idempotent.
import { createDb } from '../db/client';
import { endSync, markItemDeleted } from '../db/catalogue';
import { findShopById } from '../db/shops';
import { createLogger } from '../lib/log';
import { onCatalogueChanged } from '../optimise/auto';
import { planDeps } from '../optimise/deps';
import type { SyncQueueMessage } from '../messages/catalogue-sync';
import { ShopifyReauthRequiredError, ShopifyUnauthorizedError, shopifyClientFor } from '../shopify';
import { runFullSync, syncOneResource } from './sync';

const KINDS = {
  product_changed: 'product',
  product_deleted: 'product',
  collection_changed: 'collection',
  collection_deleted: 'collection',
} as const;

function isSyncMessage(body: unknown): body is SyncQueueMessage {
  if (typeof body !== 'object' || body === null) return false;
  const m = body as Record<string, unknown>;
  if (typeof m.shopId !== 'number') return false;
  if (m.type === 'sync') return true;
  return typeof m.type === 'string' && m.type in KINDS && typeof m.resourceId === 'string' && typeof m.gid === 'string';
}

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
  // New or changed images of a product/collection go straight to the optimiser in automatic mode. Our own
  // replacements also arrive here as products/update; they are no longer pending, so nothing is queued.
  await onCatalogueChanged(planDeps(env, db, log), shop.id);
  return outcome;
}

export async function catalogueSyncConsumer(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  for (const msg of batch.messages) {
    const log = createLogger({ queue: batch.queue, messageId: msg.id, attempt: msg.attempts });
    if (!isSyncMessage(msg.body)) {
      // A malformed message can never succeed: log it and drop it instead of retrying forever.
      log.error('catalogue_sync_bad_message', { body: msg.body });
      msg.ack();
      continue;
    }
    try {
      const outcome = await handleSyncMessage(msg.body, env);
      log.info('catalogue_sync_message_done', { type: msg.body.type, shopId: msg.body.shopId, outcome });
      msg.ack();
    } catch (err) {
      if (isPermanent(err)) {
        const reason = `${err instanceof ShopifyReauthRequiredError ? 'reauth_required' : 'unauthorized'}: ${err.message}`.slice(0, 500);
        log.error('catalogue_sync_failed_permanently', { type: msg.body.type, shopId: msg.body.shopId, reason, error: err });
        // The status row says why nothing moves (also for a webhook update: the catalogue is stale).
        await endSync(createDb(env.DB), msg.body.shopId, { status: 'failed', error: reason });
        msg.ack();
      } else {
        log.warn('catalogue_sync_retry', { type: msg.body.type, shopId: msg.body.shopId, error: err as Error });
        msg.retry({ delaySeconds: Math.min(300, 10 * 2 ** Math.min(msg.attempts, 5)) });
      }
    }
  }
}
