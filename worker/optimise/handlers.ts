// Entry points registered in worker/jobs: the image-optimise consumer, its dead-letter consumer, the
// half-hourly automatic sweep and the daily expiry sweep.
import { createDb } from '../db/client';
import { createLogger } from '../lib/log';
import { sweepAutomatic } from './auto';
import { isOptimiseMessage, processDeadLetter, processOptimiseMessage } from './consumer';
import { pipelineDeps, planDeps } from './deps';
import { sweepExpired } from './expiry';

/** Messages of a batch run side by side: each holds its own image lease, Shopify paces the calls. */
export async function handleOptimiseBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const log = createLogger({ queue: batch.queue });
  const deps = pipelineDeps(env, log);
  await Promise.all(
    batch.messages.map(async (message) => {
      if (!isOptimiseMessage(message.body)) {
        log.error('optimise_message_invalid', { id: message.id });
        message.ack(); // malformed bodies never become valid; retrying would only fill the DLQ
        return;
      }
      try {
        const verdict = await processOptimiseMessage(deps, message.body, message.attempts);
        if (verdict.ack) message.ack();
        else message.retry({ delaySeconds: verdict.delaySeconds });
      } catch (err) {
        // D1 or R2 unavailable: nothing was decided, so the message comes back later.
        log.error('optimise_message_error', { id: message.id, error: err });
        message.retry({ delaySeconds: 30 });
      }
    }),
  );
}

export async function handleOptimiseDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const log = createLogger({ queue: batch.queue });
  const deps = pipelineDeps(env, log);
  for (const message of batch.messages) {
    if (!isOptimiseMessage(message.body)) {
      message.ack();
      continue;
    }
    try {
      await processDeadLetter(deps, message.body);
      message.ack();
    } catch (err) {
      log.error('dead_letter_error', { id: message.id, error: err });
      message.retry();
    }
  }
}

export async function automaticSweepTask(_controller: ScheduledController, env: Env): Promise<void> {
  const log = createLogger({ task: 'automatic_sweep' });
  const result = await sweepAutomatic(planDeps(env, createDb(env.DB), log));
  log.info('automatic_sweep_done', result);
}

export async function expirySweepTask(_controller: ScheduledController, env: Env): Promise<void> {
  const log = createLogger({ task: 'expiry_sweep' });
  await sweepExpired({ db: createDb(env.DB), bucket: env.BUCKET, log, now: () => Date.now() });
}
