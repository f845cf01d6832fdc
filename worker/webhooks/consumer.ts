// The webhook queue (`shopify-webhooks`, binding WEBHOOK_QUEUE): the work of heavy topics
// (QUEUED_TOPICS) runs here, after the request has answered Shopify. The queue delivers at least once
// and the request may have enqueued twice (a retry after a timeout), so the consumer claims the
// delivery's row first (worker/db/processed-webhooks.ts): the work runs once per X-Shopify-Webhook-Id.
import { createDb, type Db } from '../db/client';
import { advanceDelivery, claimWebhookWork, findDelivery, requeueWebhookWork } from '../db/processed-webhooks';
import { findShopByDomain } from '../db/shops';
import { createLogger, type Logger } from '../lib/log';
import type { WebhookWorkMessage } from '../messages/shopify-webhook';
import { handlers, type WebhookDelivery, type WebhookEnv } from './handlers';

export const WEBHOOK_QUEUE_NAME = 'shopify-webhooks';

export async function enqueueWebhookWork(queue: Queue, d: WebhookDelivery): Promise<void> {
  const message: WebhookWorkMessage = { type: 'webhook', webhookId: d.webhookId, topic: d.topic, shopDomain: d.shopDomain, payload: d.payload };
  await queue.send(message, { contentType: 'json' });
}

function isWorkMessage(body: unknown): body is WebhookWorkMessage {
  if (typeof body !== 'object' || body === null) return false;
  const m = body as Record<string, unknown>;
  return m.type === 'webhook' && typeof m.webhookId === 'string' && typeof m.topic === 'string' && typeof m.shopDomain === 'string' && typeof m.payload === 'object' && m.payload !== null;
}

export type WorkOutcome = 'done' | 'already_done' | 'busy';

/** Runs one delivery's work unless it is done or held by another consumer. Throws when the handler fails. */
export async function runWebhookWork(env: WebhookEnv, db: Db, m: WebhookWorkMessage, log: Logger, now = Date.now()): Promise<WorkOutcome> {
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

/** Retry delay: a busy delivery is looked at again once its holder should have finished. */
const BUSY_RETRY_SECONDS = 60;
const failureDelay = (attempts: number) => Math.min(600, 15 * 2 ** Math.max(0, attempts - 1));

export async function handleWebhookBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const db = createDb(env.DB);
  for (const msg of batch.messages) {
    const log = createLogger({ queue: batch.queue, messageId: msg.id, attempt: msg.attempts });
    if (!isWorkMessage(msg.body)) {
      log.error('webhook_work_bad_message', { body: msg.body });
      msg.ack();
      continue;
    }
    const m = msg.body;
    const wlog = log.child({ topic: m.topic, shop: m.shopDomain, webhookId: m.webhookId });
    try {
      const outcome = await runWebhookWork(env, db, m, wlog);
      if (outcome === 'busy') {
        msg.retry({ delaySeconds: BUSY_RETRY_SECONDS });
      } else {
        wlog.info('webhook_work_done', { outcome });
        msg.ack();
      }
    } catch (err) {
      // After the last retry Cloudflare drops the message: that line is the record of lost work.
      const final = msg.attempts > WEBHOOK_QUEUE_MAX_RETRIES;
      wlog.error(final ? 'webhook_work_gave_up' : 'webhook_work_failed', { error: err });
      msg.retry({ delaySeconds: failureDelay(msg.attempts) });
    }
  }
}
