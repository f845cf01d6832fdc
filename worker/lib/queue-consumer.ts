// One shape for every queue consumer: validate the message body (zod), process it, then ack it or retry
// it after a delay from ONE backoff rule. Delivery is at least once, so `process` must be safe to run
// twice. A body that fails validation can never succeed: it is logged and acked, never retried (and so
// never dead-lettered). A throw from `process` (D1, R2 or Shopify unavailable: nothing was decided) is
// retried with the queue's backoff; past wrangler.toml's max_retries Cloudflare moves the message to the
// dead-letter queue or drops it, so that last throw is logged as an error (the record of lost work).
import type { z } from 'zod';
import { createLogger, type LogFields, type Logger } from './log';

/** What a consumer decides for one message. */
export type Verdict = { ack: true } | { ack: false; delaySeconds: number };
export const ACK: Verdict = { ack: true };
export const retryIn = (delaySeconds: number): Verdict => ({ ack: false, delaySeconds });

/** A queue's backoff: base, 2 x base, 4 x base ... up to max, plus up to jitterSeconds spread. */
export type Backoff = { baseSeconds: number; maxSeconds: number; jitterSeconds?: number };

/**
 * The one backoff rule: `min(max, max(base * 2^(attempts - 1), atLeast)) + jitter`, where attempts is
 * the queue's delivery count (1 on the first delivery) and atLeast what the other side asked for
 * (a Retry-After). Jitter keeps many shops from retrying in step.
 */
export function backoffSeconds(
  rule: Backoff,
  attempts: number,
  opts: { atLeastSeconds?: number | null; random?: () => number } = {},
): number {
  const doubled = rule.baseSeconds * 2 ** Math.max(0, attempts - 1);
  const delay = Math.min(rule.maxSeconds, Math.max(doubled, opts.atLeastSeconds ?? 0));
  return rule.jitterSeconds ? delay + Math.floor((opts.random ?? Math.random)() * rule.jitterSeconds) : delay;
}

export type Delivery = { id: string; attempts: number };

export type ConsumerSpec<M, D> = {
  /** Prefix of the log events: `<name>_bad_message`, `<name>_retry`, `<name>_gave_up`. */
  name: string;
  schema: z.ZodType<M>;
  /** Fields of the message that every log line about it carries (shop, job, topic ...). */
  context?: (body: M) => LogFields;
  /** Built once per batch from the bindings (database, logger, ports). */
  setup: (env: Env, log: Logger) => D;
  process: (deps: D, body: M, delivery: Delivery, log: Logger) => Promise<Verdict>;
  /** The delay after `process` throws; consumers also use it for the retries they decide themselves. */
  backoff: Backoff;
  /** wrangler.toml max_retries of the queue: a throw on a later delivery is the last one. */
  maxRetries?: number;
  /** Messages of a batch side by side (each holds its own lease) or one after the other. */
  parallel: boolean;
};

/** Decides one message and tells the queue. Never throws. */
export async function consumeMessage<M, D>(
  spec: ConsumerSpec<M, D>,
  deps: D,
  message: Message<unknown>,
  log: Logger,
): Promise<Verdict> {
  let mlog = log.child({ messageId: message.id, attempt: message.attempts });
  const parsed = spec.schema.safeParse(message.body);
  let verdict: Verdict;
  if (!parsed.success) {
    mlog.error(`${spec.name}_bad_message`, {
      body: message.body,
      issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
    });
    verdict = ACK;
  } else {
    if (spec.context) mlog = mlog.child(spec.context(parsed.data));
    try {
      verdict = await spec.process(deps, parsed.data, { id: message.id, attempts: message.attempts }, mlog);
    } catch (error) {
      const final = spec.maxRetries !== undefined && message.attempts > spec.maxRetries;
      if (final) mlog.error(`${spec.name}_gave_up`, { error });
      else mlog.warn(`${spec.name}_retry`, { error });
      verdict = retryIn(backoffSeconds(spec.backoff, message.attempts));
    }
  }
  if (verdict.ack) message.ack();
  else message.retry({ delaySeconds: verdict.delaySeconds });
  return verdict;
}

/** The queue handler for a consumer spec (registered by queue name in queue.ts). */
export function queueConsumer<M, D>(spec: ConsumerSpec<M, D>): (batch: MessageBatch<unknown>, env: Env) => Promise<void> {
  return async (batch, env) => {
    const log = createLogger({ queue: batch.queue });
    const deps = spec.setup(env, log);
    if (spec.parallel) {
      await Promise.all(batch.messages.map((m) => consumeMessage(spec, deps, m, log)));
      return;
    }
    for (const m of batch.messages) await consumeMessage(spec, deps, m, log);
  };
}
