// Scheduled upkeep of the webhook delivery records (registered in worker/jobs/scheduled.ts).
import { createDb } from '../db/client';
import { pruneProcessedWebhooks } from '../db/processed-webhooks';

/** Shopify retries a webhook for up to 48 hours; dedupe ids are kept a little longer. */
const WEBHOOK_ID_RETENTION_MS = 72 * 60 * 60_000;

/** Daily: forget webhook ids past Shopify's retry window. */
export async function pruneWebhookIdsTask(_controller: ScheduledController, env: Env): Promise<void> {
  await pruneProcessedWebhooks(createDb(env.DB), Date.now() - WEBHOOK_ID_RETENTION_MS);
}
