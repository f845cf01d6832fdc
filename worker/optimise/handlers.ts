// Entry points registered in worker/jobs: the image-optimise consumer, its dead-letter consumer, the
// half-hourly automatic sweep and the daily expiry sweep.
import { createDb } from '../db/client';
import { createLogger } from '../lib/log';
import { sweepAutomatic } from './auto';
import { queueConsumer } from '../lib/queue-consumer';
import { MAX_RETRIES, OPTIMISE_BACKOFF, optimiseMessageSchema, processDeadLetter, processOptimiseMessage } from './consumer';
import { pipelineDeps, planDeps } from './deps';
import { sweepExpired } from './expiry';

/** Messages of a batch run side by side: each holds its own image lease, Shopify paces the calls. */
export const handleOptimiseBatch = queueConsumer({
  name: 'optimise',
  schema: optimiseMessageSchema,
  setup: pipelineDeps,
  process: (deps, body, delivery) => processOptimiseMessage(deps, body, delivery.attempts),
  backoff: OPTIMISE_BACKOFF,
  maxRetries: MAX_RETRIES,
  parallel: true,
});

export const handleOptimiseDeadLetters = queueConsumer({
  name: 'optimise_dead_letter',
  schema: optimiseMessageSchema,
  setup: pipelineDeps,
  process: (deps, body) => processDeadLetter(deps, body),
  backoff: OPTIMISE_BACKOFF,
  parallel: false,
});

export async function automaticSweepTask(_controller: ScheduledController, env: Env): Promise<void> {
  const log = createLogger({ task: 'automatic_sweep' });
  const result = await sweepAutomatic(planDeps(env, createDb(env.DB), log));
  log.info('automatic_sweep_done', result);
}

export async function expirySweepTask(_controller: ScheduledController, env: Env): Promise<void> {
  const log = createLogger({ task: 'expiry_sweep' });
  await sweepExpired({ db: createDb(env.DB), bucket: env.BUCKET, log, now: () => Date.now() });
}
