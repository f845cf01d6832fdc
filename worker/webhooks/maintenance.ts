// Scheduled upkeep of the webhook delivery records (registered in worker/jobs/scheduled.ts).
import { createDb } from '../db/client';
import { pruneProcessedWebhooks } from '../db/processed-webhooks';
import { BODY_KEY_PREFIX } from './keys';

/** Shopify retries a webhook for up to 4 hours (48 before September 2024); dedupe ids are kept a little longer. */
const WEBHOOK_ID_RETENTION_MS = 72 * 60 * 60_000;

/**
 * Body keys (the signed body of shop/update, app/scopes_update ... , receive.ts) are what stops a replay
 * under a new id, so they are kept far longer than Shopify's retry window. Replays of app/uninstalled and
 * shop/redact change nothing at any age (Shopify is asked; 48 hours after a confirmed uninstall); a
 * shop/update or app/scopes_update body replayed after this long would write year-old shop details.
 */
export const WEBHOOK_BODY_KEY_RETENTION_MS = 400 * 24 * 60 * 60_000;

/** Daily: forget webhook ids past Shopify's retry window, and body keys past theirs. */
export async function pruneWebhookIdsTask(_controller: ScheduledController, env: Env): Promise<void> {
  const now = Date.now();
  await pruneProcessedWebhooks(createDb(env.DB), now - WEBHOOK_ID_RETENTION_MS, {
    keyPrefix: BODY_KEY_PREFIX,
    before: now - WEBHOOK_BODY_KEY_RETENTION_MS,
  });
}
