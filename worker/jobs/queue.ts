import { createLogger } from '../lib/log';
import { handleOptimiseBatch, handleOptimiseDeadLetters } from '../optimise/handlers';
import { handlePagespeedBatch } from '../pagespeed/check-consumer';
import { catalogueSyncConsumer } from '../catalogue/consumer';
import { handleWebhookBatch, WEBHOOK_QUEUE_NAME } from '../webhooks/consumer';
import { deadLetterHandlers } from './dead-letters';

/**
 * Queue handlers by queue name. Each is built by queueConsumer (consume.ts): it validates a message,
 * acks it when its work is done and retries it on a temporary failure with its queue's backoff; after
 * max_retries Cloudflare moves it to its queue's dead-letter queue (wrangler.toml; every queue has one).
 * Handlers must be safe to run twice: delivery is at least once.
 */
export type QueueHandler = (batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext) => Promise<void>;

export const queueHandlers: Record<string, QueueHandler> = {};

queueHandlers['pagespeed-check'] = handlePagespeedBatch;
queueHandlers['image-optimise'] = handleOptimiseBatch;
queueHandlers['image-optimise-dlq'] = handleOptimiseDeadLetters;
queueHandlers['catalogue-sync'] = catalogueSyncConsumer;
queueHandlers[WEBHOOK_QUEUE_NAME] = handleWebhookBatch;
// shopify-webhooks-dlq, catalogue-sync-dlq, pagespeed-check-dlq: recorded as dead_letters rows.
Object.assign(queueHandlers, deadLetterHandlers);

/**
 * The queue a batch belongs to, without the environment's suffix: staging and production name their
 * queues `<queue>-staging` / `<queue>-production` (wrangler.toml [env.*]), the code knows the base name.
 */
export function baseQueueName(queue: string): string {
  return queue.replace(/-(staging|production)$/, '');
}

export async function dispatchQueueTo(
  handlers: Record<string, QueueHandler>,
  batch: MessageBatch<unknown>,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  const handler = handlers[baseQueueName(batch.queue)];
  if (!handler) {
    // Unknown queue: retry rather than ack, so nothing is silently dropped by a deploy mistake.
    createLogger({ queue: batch.queue }).error('queue_without_handler', { messages: batch.messages.length });
    batch.retryAll();
    return;
  }
  await handler(batch, env, ctx);
}

export async function dispatchQueue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void> {
  await dispatchQueueTo(queueHandlers, batch, env, ctx);
}
