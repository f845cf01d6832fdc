// Dead letters (issue 22). Every queue has a dead-letter queue (wrangler.toml); a message that exhausted
// its retries lands there instead of being dropped. image-optimise-dlq marks the image Failed with its
// reason (worker/optimise/handlers.ts: the merchant sees it in history). The other three are recorded
// here as `dead_letters` rows (the operator's record: `npm run dead-letters -- list`), with an error log
// line `dead_letter_recorded` (an alert); a catalogue sync that died is also marked failed for the admin.
//
// The 5-minute cron (deadLetterTask) then
// - re-sends the rows an operator asked to replay (`npm run dead-letters -- replay ...`) to their queue;
// - retries work that must never be lost (MUST_COMPLETE_TOPICS: shop/redact, app/uninstalled,
//   app_subscriptions/update) through the webhook consumer's own entry point (runWebhookWork), with
//   backoff, until it is done: a failure is logged (`dead_letter_retry_failed`) and tried again, never
//   given up.
import { z } from 'zod';
import { endSync } from '../db/catalogue-syncs';
import { createDb } from '../db/client';
import {
  deferDeadLetter,
  dueMustComplete,
  markDeadLetter,
  pruneDeadLetters,
  recordDeadLetter,
  replayRequested,
  scrubDeadLetter,
  type DeadLetterRow,
} from '../db/dead-letters';
import { createLogger, type Logger } from '../lib/log';
import { ACK, queueConsumer, type Backoff } from '../lib/queue-consumer';
import type { WebhookWorkMessage } from '../messages/shopify-webhook';
import { runWebhookWork, webhookWorkFields } from '../webhooks/consumer';
import { QUEUED_TOPICS, WebhookRetryLater } from '../webhooks/handlers';

/** Dead-letter queue -> the queue its messages came from (base names; environments add a suffix). */
export const DEAD_LETTER_QUEUES = {
  'shopify-webhooks-dlq': 'shopify-webhooks',
  'catalogue-sync-dlq': 'catalogue-sync',
  'pagespeed-check-dlq': 'pagespeed-check',
} as const;

export type OriginQueue = (typeof DEAD_LETTER_QUEUES)[keyof typeof DEAD_LETTER_QUEUES] | 'image-optimise';

/**
 * Webhook topics whose work must finish however long it takes: the queued ones (QUEUED_TOPICS). shop/redact
 * (GDPR: the shop's data is erased), app/uninstalled (its confirmation gates the redaction) and
 * app_subscriptions/update (the plan the merchant pays for). Each asks Shopify for the current truth
 * and is safe to run again (worker/webhooks/handlers.ts), so a late retry cannot apply stale state.
 */
export const MUST_COMPLETE_TOPICS: ReadonlySet<string> = QUEUED_TOPICS;

/** The wrangler.toml max_retries of the dead-letter consumers: recording a row only fails while D1 does. */
export const DEAD_LETTER_MAX_RETRIES = 100;
const DEAD_LETTER_BACKOFF: Backoff = { baseSeconds: 60, maxSeconds: 3600 };

/** How a retried must-complete row waits: 5 minutes, doubling, at most 6 hours. */
export function mustCompleteDelayMs(retries: number): number {
  return Math.min(6 * 60 * 60_000, 5 * 60_000 * 2 ** Math.min(retries, 10));
}

const anyBody = z.unknown();
// Loose: every field the webhook consumer reads travels on (its delivery `key`, and any added later).
const webhookWork: z.ZodType<WebhookWorkMessage> = z.looseObject(webhookWorkFields);
const shopMessage = z.object({ type: z.string(), shopId: z.number() });

/** What a row says about a message: its shop, its kind (type or topic), whether it must complete. */
function describe(origin: OriginQueue, body: unknown): { shop: string | null; kind: string; mustComplete: boolean } {
  if (origin === 'shopify-webhooks') {
    const m = webhookWork.safeParse(body);
    if (m.success) return { shop: m.data.shopDomain, kind: m.data.topic, mustComplete: MUST_COMPLETE_TOPICS.has(m.data.topic) };
  } else {
    const m = shopMessage.safeParse(body);
    if (m.success) return { shop: String(m.data.shopId), kind: m.data.type, mustComplete: false };
  }
  return { shop: null, kind: 'unreadable', mustComplete: false };
}

/** The consumer of one dead-letter queue: records every message, then acks it. */
export function deadLetterConsumer(origin: (typeof DEAD_LETTER_QUEUES)[keyof typeof DEAD_LETTER_QUEUES]) {
  return queueConsumer({
    name: 'dead_letter',
    schema: anyBody,
    setup: (env: Env) => createDb(env.DB),
    async process(db, body, delivery, log) {
      const d = describe(origin, body);
      const created = await recordDeadLetter(db, { queue: origin, messageId: delivery.id, body, ...d });
      if (created) log.error('dead_letter_recorded', { origin, messageId: delivery.id, ...d });
      const sync = shopMessage.safeParse(body);
      if (origin === 'catalogue-sync' && sync.success && sync.data.type === 'sync')
        await endSync(db, sync.data.shopId, { status: 'failed', error: 'sync gave up after its retries (dead-lettered)' });
      return ACK;
    },
    backoff: DEAD_LETTER_BACKOFF,
    maxRetries: DEAD_LETTER_MAX_RETRIES,
    parallel: false,
  });
}

/** Dead-letter consumers by dead-letter queue name (registered in queue.ts). */
export const deadLetterHandlers = Object.fromEntries(
  Object.entries(DEAD_LETTER_QUEUES).map(([dlq, origin]) => [dlq, deadLetterConsumer(origin)]),
);

function producerFor(env: Env, queue: string): Queue | undefined {
  const producers: Record<OriginQueue, Queue> = {
    'image-optimise': env.OPTIMISE_QUEUE,
    'catalogue-sync': env.SYNC_QUEUE,
    'pagespeed-check': env.PAGESPEED_QUEUE,
    'shopify-webhooks': env.WEBHOOK_QUEUE,
  };
  return producers[queue as OriginQueue];
}

/** How many rows one cron run handles of each kind (the rest wait 5 minutes). */
const REPLAYS_PER_RUN = 100;
const RETRIES_PER_RUN = 20;

async function replay(env: Env, row: DeadLetterRow, log: Logger): Promise<void> {
  const queue = producerFor(env, row.queue);
  if (!queue) {
    log.error('dead_letter_replay_unknown_queue', { id: row.id, queue: row.queue });
    return;
  }
  await queue.send(JSON.parse(row.body) as unknown, { contentType: 'json' });
  await markDeadLetter(createDb(env.DB), [row.id], 'replayed');
  log.info('dead_letter_replayed', { id: row.id, queue: row.queue, kind: row.kind, shop: row.shop });
}

async function retryMustComplete(env: Env, row: DeadLetterRow, now: number, log: Logger): Promise<void> {
  const db = createDb(env.DB);
  const fields = { id: row.id, queue: row.queue, kind: row.kind, shop: row.shop, retries: row.retries };
  const m = webhookWork.safeParse(JSON.parse(row.body));
  if (row.queue !== 'shopify-webhooks' || !m.success) {
    // Only webhook work is retried here; anything else stays for an operator, never dropped.
    await deferDeadLetter(db, row.id, now + mustCompleteDelayMs(row.retries), 'not retryable here: replay it');
    log.error('dead_letter_retry_failed', { ...fields, error: 'not webhook work' });
    return;
  }
  try {
    const outcome = await runWebhookWork(env, db, m.data, log, now);
    if (outcome === 'busy') {
      await deferDeadLetter(db, row.id, now + 60_000, null); // another consumer holds it: look again soon
      return;
    }
    await markDeadLetter(db, [row.id], 'done', now);
    // The shop's data is gone: so are its domain and payload here (the daily prune removes its other rows).
    if (m.data.topic === 'shop/redact') await scrubDeadLetter(db, row.id, now);
    log.info('dead_letter_completed', { ...fields, outcome });
  } catch (error) {
    if (error instanceof WebhookRetryLater) {
      // Not a failure: the handler asked to run later (shop/redact before its 48 hours have passed).
      await deferDeadLetter(db, row.id, now + error.delaySeconds * 1000, null, now);
      log.info('dead_letter_later', { ...fields, delaySeconds: error.delaySeconds, reason: error.message });
      return;
    }
    await deferDeadLetter(
      db,
      row.id,
      now + mustCompleteDelayMs(row.retries),
      error instanceof Error ? error.message : String(error),
      now,
    );
    log.error('dead_letter_retry_failed', { ...fields, error });
  }
}

/** The 5-minute cron: operator replays, then due retries of must-complete work. One row's failure stops nothing. */
export async function deadLetterTask(controller: ScheduledController, env: Env): Promise<void> {
  const log = createLogger({ task: 'dead_letters' });
  const db = createDb(env.DB);
  const now = controller.scheduledTime;
  let replayed = 0;
  for (const row of await replayRequested(db, REPLAYS_PER_RUN)) {
    try {
      await replay(env, row, log);
      replayed++;
    } catch (error) {
      log.error('dead_letter_replay_failed', { id: row.id, queue: row.queue, error });
    }
  }
  const due = await dueMustComplete(db, now, RETRIES_PER_RUN);
  for (const row of due) await retryMustComplete(env, row, now, log);
  log.info('dead_letters_done', { replayed, retried: due.length });
}

/** Handled rows are kept 30 days for the operator; rows of redacted shops go at once (daily). */
export const DEAD_LETTER_KEEP_MS = 30 * 24 * 60 * 60_000;

export async function pruneDeadLettersTask(controller: ScheduledController, env: Env): Promise<void> {
  const deleted = await pruneDeadLetters(createDb(env.DB), controller.scheduledTime, DEAD_LETTER_KEEP_MS);
  createLogger({ task: 'dead_letter_prune' }).info('dead_letters_pruned', { deleted });
}
