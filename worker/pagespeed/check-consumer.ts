import { z } from 'zod';
import { createDb, type Db } from '../db/client';
import { CHECK_STATUS, findCheck, finishCheck, saveStrategyScore } from '../db/pagespeed-scores';
import { ACK, backoffSeconds, queueConsumer, retryIn, type Backoff, type Delivery, type Verdict } from '../lib/queue-consumer';
import type { Logger } from '../lib/log';
import type { PagespeedCheckMessage } from '../messages/pagespeed-check';
import { type PsiOutcome, type Strategy, runPagespeed } from './psi-client';
import type { FailureReason } from './score';

// Consumer of the `pagespeed-check` queue: runs PSI for desktop and mobile and ends the check.
// Safe to run twice: a check that already ended is left alone, and a strategy already scored is not
// run again, so a retried message only does the missing work.

/** wrangler.toml gives this queue max_retries = 3: a message is delivered at most 4 times. */
export const PAGESPEED_MAX_ATTEMPTS = 4;

const messageSchema: z.ZodType<PagespeedCheckMessage> = z.object({
  type: z.literal('check'),
  shopId: z.number().int(),
  checkId: z.number().int(),
});

/** 30 s, 60 s, 120 s..., at most 15 minutes, plus up to 10 s of jitter so shops do not retry in step. */
export const PAGESPEED_BACKOFF: Backoff = { baseSeconds: 30, maxSeconds: 900, jitterSeconds: 10 };

/** Delay before retrying after a 429 or a temporary failure: the backoff, at least what PSI's Retry-After asks. */
export function retryDelaySeconds(attempt: number, retryAfterSeconds: number | null = null, random = Math.random): number {
  return backoffSeconds(PAGESPEED_BACKOFF, attempt, { atLeastSeconds: retryAfterSeconds, random });
}

// When strategies disagree, the verdict about the store wins over a verdict about PSI.
const PRECEDENCE: PsiOutcome['kind'][] = ['password_protected', 'unreachable', 'rejected', 'rate_limited', 'temporary'];

type PsiFailure = Exclude<PsiOutcome, { kind: 'score' }>;

function worstOutcome(outcomes: PsiFailure[]): PsiFailure | undefined {
  return [...outcomes].sort((a, b) => PRECEDENCE.indexOf(a.kind) - PRECEDENCE.indexOf(b.kind))[0];
}

async function processCheck(
  { env, db }: { env: Env; db: Db },
  body: PagespeedCheckMessage,
  delivery: Delivery,
  log: Logger,
): Promise<Verdict> {
  const { shopId, checkId } = body;
  const check = await findCheck(db, shopId, checkId);
  if (!check || check.status !== CHECK_STATUS.inProgress) return ACK; // already finished by an earlier delivery, or the shop is gone
  const pending: Strategy[] = [];
  if (check.desktop === null) pending.push('desktop');
  if (check.mobile === null) pending.push('mobile');

  const outcomes = await Promise.all(
    pending.map(async (strategy) => ({ strategy, outcome: await runPagespeed(env, check.url, strategy) })),
  );
  const failures: PsiFailure[] = [];
  for (const { strategy, outcome } of outcomes) {
    if (outcome.kind === 'score') await saveStrategyScore(db, shopId, checkId, { [strategy]: outcome.score });
    else failures.push(outcome);
  }

  const worst = worstOutcome(failures);
  if (!worst) {
    await finishCheck(db, shopId, checkId, { status: CHECK_STATUS.ready, completedAt: Date.now() });
    log.info('pagespeed_ready', { shopId, checkId });
    return ACK;
  }
  if (worst.kind === 'password_protected' || worst.kind === 'unreachable' || worst.kind === 'rejected') {
    const reason: FailureReason = worst.kind === 'rejected' ? 'unavailable' : worst.kind;
    // A rejected request is our bug or our key, never the merchant's: an error for us to see.
    (worst.kind === 'rejected' ? log.error : log.warn)('pagespeed_failed', {
      shopId,
      checkId,
      kind: worst.kind,
      detail: worst.detail,
    });
    await finishCheck(db, shopId, checkId, { status: CHECK_STATUS.failed, error: reason, completedAt: Date.now() });
    return ACK;
  }
  if (delivery.attempts >= PAGESPEED_MAX_ATTEMPTS) {
    log.warn('pagespeed_gave_up', { shopId, checkId, kind: worst.kind, detail: worst.detail, attempts: delivery.attempts });
    await finishCheck(db, shopId, checkId, { status: CHECK_STATUS.failed, error: 'unavailable', completedAt: Date.now() });
    return ACK;
  }
  const delaySeconds = retryDelaySeconds(delivery.attempts, worst.kind === 'rate_limited' ? worst.retryAfterSeconds : null);
  log.warn('pagespeed_retry', {
    shopId,
    checkId,
    kind: worst.kind,
    detail: worst.detail,
    attempts: delivery.attempts,
    delaySeconds,
  });
  return retryIn(delaySeconds);
}

/** Checks of a batch run side by side (each is one shop's PSI calls). */
export const handlePagespeedBatch = queueConsumer({
  name: 'pagespeed_check',
  schema: messageSchema,
  setup: (env: Env) => ({ env, db: createDb(env.DB) }),
  process: processCheck,
  backoff: PAGESPEED_BACKOFF,
  maxRetries: PAGESPEED_MAX_ATTEMPTS - 1,
  parallel: true,
});
