import { z } from 'zod';
import { createDb, type Db } from '../db/client';
import { CHECK_STATUS, findCheck, finishCheck, saveStrategyScore } from '../db/pagespeed';
import { createLogger, type Logger } from '../lib/log';
import { type PsiOutcome, type Strategy, runPagespeed } from './psi-client';
import type { FailureReason } from './score';

// Consumer of the `pagespeed-check` queue: runs PSI for desktop and mobile and ends the check.
// Safe to run twice: a check that already ended is left alone, and a strategy already scored is not
// run again, so a retried message only does the missing work.

/** wrangler.toml gives this queue max_retries = 3: a message is delivered at most 4 times. */
export const PAGESPEED_MAX_ATTEMPTS = 4;

const messageSchema = z.object({ type: z.literal('check'), shopId: z.number().int(), checkId: z.number().int() });

/**
 * Delay before retrying after a 429 or a temporary failure: 30 s, 60 s, 120 s..., at least what PSI's
 * Retry-After asks, at most 15 minutes, plus up to 10 s of jitter so shops do not retry in step.
 */
export function retryDelaySeconds(attempt: number, retryAfterSeconds: number | null = null, random = Math.random): number {
  const backoff = 30 * 2 ** Math.max(0, attempt - 1);
  return Math.min(900, Math.max(backoff, retryAfterSeconds ?? 0)) + Math.floor(random() * 10);
}

// When strategies disagree, the verdict about the store wins over a verdict about PSI.
const PRECEDENCE: PsiOutcome['kind'][] = ['password_protected', 'unreachable', 'rejected', 'rate_limited', 'temporary'];

type PsiFailure = Exclude<PsiOutcome, { kind: 'score' }>;

function worstOutcome(outcomes: PsiFailure[]): PsiFailure | undefined {
  return [...outcomes].sort((a, b) => PRECEDENCE.indexOf(a.kind) - PRECEDENCE.indexOf(b.kind))[0];
}

async function handleMessage(message: Message<unknown>, env: Env, db: Db, log: Logger): Promise<void> {
  const parsed = messageSchema.safeParse(message.body);
  if (!parsed.success) {
    // A malformed message can never succeed; retrying it would only burn the retries.
    log.error('pagespeed_bad_message', { body: message.body });
    message.ack();
    return;
  }
  const { shopId, checkId } = parsed.data;
  const check = await findCheck(db, shopId, checkId);
  if (!check || check.status !== CHECK_STATUS.inProgress) {
    message.ack(); // already finished by an earlier delivery, or the shop is gone
    return;
  }
  const pending: Strategy[] = [];
  if (check.desktop === null) pending.push('desktop');
  if (check.mobile === null) pending.push('mobile');

  const outcomes = await Promise.all(pending.map(async (strategy) => ({ strategy, outcome: await runPagespeed(env, check.url, strategy) })));
  const failures: PsiFailure[] = [];
  for (const { strategy, outcome } of outcomes) {
    if (outcome.kind === 'score') await saveStrategyScore(db, shopId, checkId, { [strategy]: outcome.score });
    else failures.push(outcome);
  }

  const worst = worstOutcome(failures);
  if (!worst) {
    await finishCheck(db, shopId, checkId, { status: CHECK_STATUS.ready, completedAt: Date.now() });
    log.info('pagespeed_ready', { shopId, checkId });
    message.ack();
    return;
  }
  if (worst.kind === 'password_protected' || worst.kind === 'unreachable' || worst.kind === 'rejected') {
    const reason: FailureReason = worst.kind === 'rejected' ? 'unavailable' : worst.kind;
    // A rejected request is our bug or our key, never the merchant's: an error for us to see.
    (worst.kind === 'rejected' ? log.error : log.warn)('pagespeed_failed', { shopId, checkId, kind: worst.kind, detail: worst.detail });
    await finishCheck(db, shopId, checkId, { status: CHECK_STATUS.failed, error: reason, completedAt: Date.now() });
    message.ack();
    return;
  }
  if (message.attempts >= PAGESPEED_MAX_ATTEMPTS) {
    log.warn('pagespeed_gave_up', { shopId, checkId, kind: worst.kind, detail: worst.detail, attempts: message.attempts });
    await finishCheck(db, shopId, checkId, { status: CHECK_STATUS.failed, error: 'unavailable', completedAt: Date.now() });
    message.ack();
    return;
  }
  const delaySeconds = retryDelaySeconds(message.attempts, worst.kind === 'rate_limited' ? worst.retryAfterSeconds : null);
  log.warn('pagespeed_retry', { shopId, checkId, kind: worst.kind, detail: worst.detail, attempts: message.attempts, delaySeconds });
  message.retry({ delaySeconds });
}

export async function handlePagespeedBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const db = createDb(env.DB);
  const log = createLogger({ queue: batch.queue });
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        await handleMessage(message, env, db, log);
      } catch (error) {
        log.error('pagespeed_check_error', { body: message.body, error });
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      }
    }),
  );
}
