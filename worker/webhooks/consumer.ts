// The webhook queue (`shopify-webhooks`, binding WEBHOOK_QUEUE): the work of heavy topics
// (QUEUED_TOPICS) runs here, after the request has answered Shopify. The queue delivers at least once
// and the request may have enqueued twice (a retry after a timeout), so the consumer claims the
// delivery's row first (worker/db/processed-webhooks.ts): the work runs once per delivery key (the
// X-Shopify-Webhook-Id, or the signed body's key: receive.ts). A handler may ask to run later
// (WebhookRetryLater: shop/redact before 48 hours have passed): the message goes back with that delay.
import { z } from 'zod';
import { createDb, type Db } from '../db/client';
import { claimWebhookWork, findDelivery, finishDelivery, requeueWebhookWork } from '../db/processed-webhooks';
import { findShopByDomain } from '../db/shops';
import { ACK, queueConsumer, retryIn, type Backoff } from '../lib/queue-consumer';
import type { Logger } from '../lib/log';
import type { WebhookWorkMessage } from '../messages/shopify-webhook';
import { handlers, WebhookRetryLater, type HandlerResult, type WebhookDelivery, type WebhookEnv } from './handlers';
import { recordedShop } from './keys';

export const WEBHOOK_QUEUE_NAME = 'shopify-webhooks';

export async function enqueueWebhookWork(queue: Queue, d: WebhookDelivery): Promise<void> {
  const message: WebhookWorkMessage = {
    type: 'webhook',
    webhookId: d.webhookId,
    ...(d.key && d.key !== d.webhookId ? { key: d.key } : {}),
    topic: d.topic,
    shopDomain: d.shopDomain,
    payload: d.payload,
  };
  await queue.send(message, { contentType: 'json' });
}

/** The fields of a webhook work message (the dead-letter consumer reads the same, loosely). */
export const webhookWorkFields = {
  type: z.literal('webhook'),
  webhookId: z.string(),
  key: z.string().optional(),
  topic: z.string(),
  shopDomain: z.string(),
  payload: z.record(z.string(), z.unknown()),
};
const workMessageSchema: z.ZodType<WebhookWorkMessage> = z.object(webhookWorkFields);

export type WorkOutcome = 'done' | 'already_done' | 'busy';

/**
 * Runs one delivery's work unless it is done or held by another consumer. Throws when the handler fails,
 * and WebhookRetryLater (after giving the work back) when the handler asked to wait: callers that know
 * it (the queue consumer) retry after its delay, others treat it as a failure to retry. `now` is the
 * consumer's clock (tests move it).
 */
export async function runWebhookWork(
  env: WebhookEnv,
  db: Db,
  m: WebhookWorkMessage,
  log: Logger,
  now = Date.now(),
): Promise<WorkOutcome> {
  const handler = handlers[m.topic];
  if (!handler) return 'already_done'; // a topic no longer handled: nothing to do
  const key = m.key ?? m.webhookId;
  if (!(await claimWebhookWork(db, { webhookId: key, shopDomain: recordedShop(key, m.shopDomain), topic: m.topic }, now))) {
    return (await findDelivery(db, key))?.status === 'done' ? 'already_done' : 'busy';
  }
  let result: HandlerResult;
  try {
    result = await handler(env, db, await findShopByDomain(db, m.shopDomain), { ...m, key }, log, now);
  } catch (err) {
    await requeueWebhookWork(db, key);
    throw err;
  }
  await finishDelivery(db, key, 'running', result === 'unchanged' && key !== m.webhookId);
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
    let outcome: WorkOutcome;
    try {
      outcome = await runWebhookWork(env, db, m, log);
    } catch (err) {
      if (!(err instanceof WebhookRetryLater)) throw err;
      log.info('webhook_work_later', { delaySeconds: err.delaySeconds, reason: err.message });
      return retryIn(err.delaySeconds);
    }
    if (outcome === 'busy') return retryIn(BUSY_RETRY_SECONDS);
    log.info('webhook_work_done', { outcome });
    return ACK;
  },
  backoff: WEBHOOK_BACKOFF,
  maxRetries: WEBHOOK_QUEUE_MAX_RETRIES,
  parallel: false,
});
