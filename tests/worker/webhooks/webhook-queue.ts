// The webhook queue in tests: what the Worker sends to WEBHOOK_QUEUE is recorded (instead of being left
// to a background consumer), and drainWebhookQueue() hands it to the real consumer, as Cloudflare would.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { beforeEach, vi } from 'vitest';
import { handleWebhookBatch, WEBHOOK_QUEUE_NAME } from '../../../worker/webhooks/consumer';
import type { WebhookWorkMessage } from '../../../worker/messages/shopify-webhook';

export type RecordedWebhookQueue = {
  sent: WebhookWorkMessage[];
  /** Runs every recorded message through the consumer (attempt 1); returns the queue's verdicts. */
  drain: () => Promise<Awaited<ReturnType<typeof getQueueResult>>>;
};

export async function consumeWebhookMessages(bodies: WebhookWorkMessage[], attempts = 1) {
  const batch = createMessageBatch(
    WEBHOOK_QUEUE_NAME,
    bodies.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts, body })),
  );
  await handleWebhookBatch(batch, env);
  return getQueueResult(batch, createExecutionContext());
}

/** Records WEBHOOK_QUEUE sends afresh for every test of the file. */
export function recordWebhookQueue(): RecordedWebhookQueue {
  const q: RecordedWebhookQueue = {
    sent: [],
    drain: async () => {
      const bodies = q.sent.splice(0);
      return consumeWebhookMessages(bodies);
    },
  };
  beforeEach(() => {
    q.sent.length = 0;
    vi.spyOn(env.WEBHOOK_QUEUE, 'send').mockImplementation(async (m: unknown) => {
      q.sent.push(m as WebhookWorkMessage);
      return undefined as never;
    });
  });
  return q;
}
