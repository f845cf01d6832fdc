// The webhook queue (`shopify-webhooks`, binding WEBHOOK_QUEUE): the work of heavy topics
// (QUEUED_TOPICS) runs here, after the request has answered Shopify. The queue delivers at least once
// and the request may have enqueued twice (a retry after a timeout), so the consumer claims the
// delivery's row first (worker/db/processed-webhooks.ts): the work runs once per X-Shopify-Webhook-Id.
import { z } from 'zod';
import { createDb, type Db } from '../db/client';
import { advanceDelivery, claimWebhookWork, findDelivery, requeueWebhookWork } from '../db/processed-webhooks';
import { findShopByDomain } from '../db/shops';
import { ACK, queueConsumer, retryIn, type Backoff } from '../lib/queue-consumer';
import type { Logger } from '../lib/log';
import type { WebhookWorkMessage } from '../messages/shopify-webhook';
import { handlers, type WebhookDelivery, type WebhookEnv } from './handlers';

export const WEBHOOK_QUEUE_NAME = 'shopify-webhooks';

export async function enqueueWebhookWork(queue: Queue, d: WebhookDelivery): Promise<void> {
  const message: WebhookWorkMessage = {
    type: 'webhook',
    webhookId: d.webhookId,
    topic: d.topic,
    shopDomain: d.shopDomain,
    payload: d.payload,
  };
  await queue.send(message, { contentType: 'json' });
}

const workMessageSchema: z.ZodType<WebhookWorkMessage> = z.object({
  type: z.literal('webhook'),
  webhookId: z.string(),
  topic: z.string(),
  shopDomain: z.string(),
  payload: z.record(z.string(), z.unknown()),
});

export type WorkOutcome = 'done' | 'already_done' | 'busy';

/** Runs one delivery's work unless it is done or held by another consumer. Throws when the handler fails. */
export async function runWebhookWork(
  env: WebhookEnv,
  db: Db,
  m: WebhookWorkMessage,
  log: Logger,
  now = Date.now(),
): Promise<WorkOutcome> {
  const handler = handlers[m.topic];
  if (!handler) return 'already_done'; // a topic no longer handled: nothing to do
  if (!(await claimWebhookWork(db, m, now))) {
    return (await findDelivery(db, m.webhookId))?.status === 'done' ? 'already_done' : 'busy';
  }
  try {
    await handler(env, db, await findShopByDomain(db, m.shopDomain), m, log);
  } catch (err) {
    await requeueWebhookWork(db, m.webhookId);
    throw err;
  }
  await advanceDelivery(db, m.webhookId, 'running', 'done');
  return 'done';
}

/** wrangler.toml `max_retries` of the shopify-webhooks consumer: the last delivery is attempt 11. */
export const WEBHOOK_QUEUE_MAX_RETRIES = 10;

/** A busy delivery is looked at again once its holder should have finished. */
const BUSY_RETRY_SECONDS = 60;
/** After a failed handler: 15 s, 30 s, 60 s ... up to 10 minutes. */
export const WEBHOOK_BACKOFF: Backoff = { baseSeconds: 15, maxSeconds: 600 };

/** After the last retry Cloudflare drops the message: its `webhook_work_gave_up` line is the record of lost work. */
export const handleWebhookBatch = queueConsumer({
  name: 'webhook_work',
  schema: workMessageSchema,
  context: (m) => ({ topic: m.topic, shop: m.shopDomain, webhookId: m.webhookId }),
  setup: (env: Env) => ({ env, db: createDb(env.DB) }),
  async process({ env, db }, m, _delivery, log) {
    const outcome = await runWebhookWork(env, db, m, log);
    if (outcome === 'busy') return retryIn(BUSY_RETRY_SECONDS);
    log.info('webhook_work_done', { outcome });
    return ACK;
  },
  backoff: WEBHOOK_BACKOFF,
  maxRetries: WEBHOOK_QUEUE_MAX_RETRIES,
  parallel: false,
});
