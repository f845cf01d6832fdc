// The image-optimise queue consumer and its dead-letter consumer. One message = one image of one job.
// Delivery is at least once: every branch here is safe to run twice (the member row must still be
// queued, the image lease is taken with a conditional UPDATE, the charge is idempotent per image).
// The queue plumbing (validation, ack/retry, the backoff rule) is worker/lib/queue-consumer.ts; handlers.ts
// registers these.
import { z } from 'zod';
import {
  endJob,
  finishJobIfComplete,
  finishJobImage,
  getJob,
  getJobImage,
  markJobRunning,
  recordAttempt,
  type JobRow,
} from '../db/jobs';
import { claimImage, getImageWithItem, releaseImage, updateImage, type ImageWithItem } from '../db/images';
import { refreshItemSummary } from '../db/items';
import { findShopById, type ShopRow } from '../db/shops';
import { requestReviewAfterOptimisation } from '../db/review-scores';
import { releaseReservedCharge } from '../db/usage-ledger';
import { ACK, backoffSeconds, retryIn, type Backoff, type Verdict } from '../lib/queue-consumer';
import type { Logger } from '../lib/log';
import type { OptimiseMessage } from '../messages/optimise';
import { isRetryable, reasonOf } from './errors';
import type { PipelineDeps } from './ports';
import type { Outcome, RunContext } from './run-context';
import { runOptimise } from './run-optimise';
import { runRestore } from './run-restore';

export const optimiseMessageSchema: z.ZodType<OptimiseMessage> = z.object({
  type: z.literal('image'),
  jobId: z.string(),
  shopId: z.number(),
  imageId: z.number(),
  upload: z.object({ pngToJpg: z.boolean(), watermark: z.boolean() }).optional(),
});

/** wrangler.toml [[queues.consumers]] max_retries for image-optimise: the delivery after it goes to the DLQ. */
export const MAX_RETRIES = 5;
/** Retry delays: 10 s, 20 s, 40 s, 80 s, 160 s (Shopify's bucket refills fully within seconds). */
export const OPTIMISE_BACKOFF: Backoff = { baseSeconds: 10, maxSeconds: 300 };
/** Another job holds the image: look again once its lease may have ended or its work is done. */
const BUSY_DELAY_SECONDS = 15;

async function settle(deps: PipelineDeps, job: JobRow, itemId: number): Promise<void> {
  await refreshItemSummary(deps.db, job.shopId, itemId, job.processType === 'restore' ? undefined : job.pattern);
  if (await finishJobIfComplete(deps.db, job.id, deps.now())) await afterJobEnded(deps, job);
}

/** A job ended (every image answered, or the plan limit): the first optimisation that changed an image asks for a review. */
async function afterJobEnded(deps: PipelineDeps, job: JobRow): Promise<void> {
  if (job.processType !== 'restore') await requestReviewAfterOptimisation(deps.db, job.shopId, job.id);
}

async function fail(deps: PipelineDeps, job: JobRow, imageId: number, itemId: number, reason: string): Promise<void> {
  // The quota slot reserved before replacing (optimise-steps reserveSlot) is returned if Shopify was never asked.
  await releaseReservedCharge(deps.db, job.shopId, imageId, job.id);
  await updateImage(deps.db, job.shopId, imageId, { status: 'failed', failReason: reason, lockJobId: null, lockExpiresAt: null });
  await finishJobImage(deps.db, job.id, imageId, 'failed', reason);
  await settle(deps, job, itemId);
}

type Member = { job: JobRow; shop: ShopRow; row: ImageWithItem };

/** The job, its still-queued image, item and shop; null when there is nothing (more) to do for this message. */
async function loadMember(deps: PipelineDeps, msg: OptimiseMessage): Promise<Member | null> {
  const { db } = deps;
  const job = await getJob(db, msg.shopId, msg.jobId);
  const member = job && (await getJobImage(db, job.id, msg.imageId));
  if (!job || !member || member.status !== 'queued') return null; // duplicate delivery, or the shop is gone
  const row = await getImageWithItem(db, msg.shopId, msg.imageId);
  // A stopped (or plan-limited) job runs no new image, but one half way through is completed, not abandoned.
  if (job.status !== 'queued' && job.status !== 'running' && row?.image.status !== 'processing') {
    await finishJobImage(db, job.id, msg.imageId, job.status === 'plan_limit' ? 'quota' : 'stopped');
    return null;
  }
  const shop = await findShopById(db, msg.shopId);
  if (!row || !shop || shop.uninstalledAt) {
    await finishJobImage(db, job.id, msg.imageId, 'failed', 'image or shop no longer exists');
    if (await finishJobIfComplete(db, job.id, deps.now())) await afterJobEnded(deps, job);
    return null;
  }
  return { job, shop, row };
}

/** Served already: a concurrent job finished this image after our job was created (not for restores). */
function servedAlready({ job, row: { image } }: Member): boolean {
  if (job.processType === 'restore') return false;
  const servedByOther =
    image.step === 'done' && image.optimisedAt !== null && image.optimisedAt >= job.createdAt && image.lockJobId === null;
  const alreadyOptimised =
    (job.processType === 'optimize' || job.processType === 'auto') && image.status === 'compressed' && image.step === 'done';
  return servedByOther || alreadyOptimised;
}

/** A run threw: permanent failures end the image now, temporary ones come back with the backoff. */
async function afterFailure(deps: PipelineDeps, ctx: RunContext, err: unknown, attempts: number, log: Logger): Promise<Verdict> {
  const { db } = deps;
  const { job, shop, image, item } = ctx;
  const reason = reasonOf(err);
  if (!isRetryable(err)) {
    log.warn('image_failed', { reason });
    await fail(deps, job, image.id, item.id, reason);
    return ACK;
  }
  await recordAttempt(db, job.id, image.id, reason);
  if (attempts > MAX_RETRIES) {
    // Last delivery: record the failure now; the retry hands the message to the dead-letter queue.
    log.error('image_failed_after_retries', { reason, attempts });
    await fail(deps, job, image.id, item.id, reason);
    return retryIn(0);
  }
  log.warn('image_retry', { reason, attempts });
  await updateImage(db, shop.id, image.id, { failReason: reason });
  await releaseImage(db, shop.id, image.id, job.id);
  return retryIn(backoffSeconds(OPTIMISE_BACKOFF, attempts));
}

/** A run answered: the job member is finished, or the plan limit ends the whole job. */
async function afterOutcome(
  deps: PipelineDeps,
  ctx: RunContext,
  outcome: Outcome,
  startedAt: number,
  log: Logger,
): Promise<Verdict> {
  const { db } = deps;
  const { job, shop, image, item } = ctx;
  if (outcome.kind === 'plan_limit') {
    if (outcome.imageDone) await finishJobImage(db, job.id, image.id, 'done');
    else
      await updateImage(db, shop.id, image.id, {
        status: image.status === 'processing' ? 'pending' : image.status,
        lockJobId: null,
        lockExpiresAt: null,
      });
    await endJob(db, job.id, 'plan_limit', 'quota', deps.now());
    await refreshItemSummary(db, shop.id, item.id);
    await afterJobEnded(deps, job);
    log.info('plan_limit_reached');
    return ACK;
  }
  await releaseImage(db, shop.id, image.id, job.id);
  await finishJobImage(db, job.id, image.id, outcome.status, outcome.note ?? null);
  log.info('image_done', { status: outcome.status, note: outcome.note, ms: deps.now() - startedAt, ...outcome.timings });
  await settle(deps, job, item.id);
  return ACK;
}

/** Handles one delivery; `attempts` is the queue's count (1 on the first delivery). */
export async function processOptimiseMessage(deps: PipelineDeps, msg: OptimiseMessage, attempts: number): Promise<Verdict> {
  const member = await loadMember(deps, msg);
  if (!member) return ACK;
  const { job, shop, row } = member;
  const { image, item, charged } = row;
  const log = deps.log.child({ shopId: shop.id, jobId: job.id, imageId: image.id });
  if (servedAlready(member)) {
    await finishJobImage(deps.db, job.id, image.id, 'skipped', 'already optimised');
    await settle(deps, job, item.id);
    return ACK;
  }
  if (!(await claimImage(deps.db, shop.id, image.id, job.id, deps.now(), deps.leaseMs))) {
    log.info('image_busy', { holder: image.lockJobId });
    return retryIn(BUSY_DELAY_SECONDS);
  }
  await markJobRunning(deps.db, job.id);

  const startedAt = deps.now();
  const ctx: RunContext = {
    job,
    shop,
    image,
    item,
    charged,
    previousLockJobId: image.lockJobId,
    ...(msg.upload ? { upload: msg.upload } : {}),
  };
  let outcome: Outcome;
  try {
    outcome = job.processType === 'restore' ? await runRestore(deps, ctx) : await runOptimise(deps, ctx);
  } catch (err) {
    return afterFailure(deps, ctx, err, attempts, log);
  }
  return afterOutcome(deps, ctx, outcome, startedAt, log);
}

/**
 * The dead-letter consumer: a message lands here after its last retry. The image is marked failed with
 * the last recorded reason (already done by the last delivery, so this is usually a no-op) and acked.
 */
export async function processDeadLetter(deps: PipelineDeps, msg: OptimiseMessage): Promise<void> {
  const job = await getJob(deps.db, msg.shopId, msg.jobId);
  const member = job && (await getJobImage(deps.db, job.id, msg.imageId));
  if (!job || !member || member.status !== 'queued') return;
  const row = await getImageWithItem(deps.db, msg.shopId, msg.imageId);
  const reason = member.error ?? 'optimisation failed after every retry';
  if (!row) {
    await finishJobImage(deps.db, job.id, msg.imageId, 'failed', reason);
    return;
  }
  // Retried only because another job held the image: that job owns the outcome, this one steps aside.
  const heldByOther = row.image.lockJobId !== null && row.image.lockJobId !== job.id;
  const servedByOther = row.image.step === 'done' && row.image.optimisedAt !== null && row.image.optimisedAt >= job.createdAt;
  if (member.error === null && (heldByOther || servedByOther)) {
    await finishJobImage(deps.db, job.id, msg.imageId, 'skipped', 'handled by another job');
    await settle(deps, job, row.item.id);
    return;
  }
  deps.log.error('image_dead_lettered', { shopId: msg.shopId, jobId: msg.jobId, imageId: msg.imageId, reason });
  await fail(deps, job, msg.imageId, row.item.id, reason);
}
