// The image-optimise queue consumer and its dead-letter consumer. One message = one image of one job.
// Delivery is at least once, and two deliveries of one message may even run at the same time: every
// branch here is safe to run twice (the member row must still be queued, the image lease belongs to one
// delivery and every write after the claim is checked against it (lease.ts), the charge is idempotent per
// image). A delivery that lost the lease changes nothing and comes back later to find the image done.
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
import {
  claimImage,
  getImageWithItem,
  LEASE_RELEASED,
  releaseImage,
  updateImageLocked,
  type ImagePatch,
  type ImageRow,
  type ImageWithItem,
} from '../db/images';
import { refreshItemSummary } from '../db/items';
import { findShopById, type ShopRow } from '../db/shops';
import { requestReviewAfterOptimisation } from '../db/review-scores';
import { releaseReservedCharge } from '../db/usage-ledger';
import { ACK, backoffSeconds, retryIn, type Backoff, type Verdict } from '../lib/queue-consumer';
import type { Logger } from '../lib/log';
import type { OptimiseMessage } from '../messages/optimise';
import { isRetryable, reasonOf } from './errors';
import { LeaseLostError } from './lease';
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
/** Another delivery holds the image: look again once its work is likely done ... */
const BUSY_DELAY_SECONDS = 15;
/**
 * ... or, when its lease runs longer, once the lease may have expired (a holder that died), but no later
 * than this: busy deliveries count as attempts, and a dead holder's image must be retaken before the
 * message runs out of them (LEASE_MS / this < MAX_RETRIES).
 */
const BUSY_MAX_DELAY_SECONDS = 60;

/** When to look again at an image held by another delivery whose lease ends at `until`. */
function busyDelay(deps: PipelineDeps, until: number | null): number {
  const left = until === null ? 0 : Math.ceil((until - deps.now()) / 1000) + 1;
  return Math.min(BUSY_MAX_DELAY_SECONDS, Math.max(BUSY_DELAY_SECONDS, left));
}

/** Writes the row while this delivery holds the lease; false when another delivery took it over. */
const writeHeld = (deps: PipelineDeps, ctx: RunContext, patch: ImagePatch) =>
  updateImageLocked(deps.db, ctx.shop.id, ctx.image.id, ctx.leaseToken, patch, deps.now() + deps.leaseMs);

async function settle(deps: PipelineDeps, job: JobRow, itemId: number): Promise<void> {
  await refreshItemSummary(deps.db, job.shopId, itemId, job.processType === 'restore' ? undefined : job.pattern);
  if (await finishJobIfComplete(deps.db, job.id, deps.now())) await afterJobEnded(deps, job);
}

/** A job ended (every image answered, or the plan limit): the first optimisation that changed an image asks for a review. */
async function afterJobEnded(deps: PipelineDeps, job: JobRow): Promise<void> {
  if (job.processType !== 'restore') await requestReviewAfterOptimisation(deps.db, job.shopId, job.id);
}

/**
 * The image failed: recorded only while `token`'s delivery holds the lease (renewed first, so nobody takes
 * it over between the steps below); a delivery that lost it changes nothing. Returns whether it recorded.
 */
async function fail(
  deps: PipelineDeps,
  job: JobRow,
  image: ImageRow,
  itemId: number,
  token: string,
  reason: string,
): Promise<boolean> {
  const held = (patch: ImagePatch) => updateImageLocked(deps.db, job.shopId, image.id, token, patch, deps.now() + deps.leaseMs);
  if (!(await held({}))) return false;
  // The quota slot reserved before replacing (optimise-steps reserveSlot) is returned if Shopify was never asked.
  await releaseReservedCharge(deps.db, job.shopId, image.id, job.id);
  if (!(await held({ status: 'failed', failReason: reason, ...LEASE_RELEASED }))) return false;
  await finishJobImage(deps.db, job.id, image.id, 'failed', reason);
  await settle(deps, job, itemId);
  return true;
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
  const { job, image, item } = ctx;
  const reason = reasonOf(err);
  // Another delivery took the image over (ours stalled past its lease): it owns the outcome. This one
  // changed nothing since and comes back later, to find the member finished (or the image free again).
  const lost = () => {
    log.warn('image_lease_lost', { reason });
    return retryIn(busyDelay(deps, deps.now() + deps.leaseMs));
  };
  if (err instanceof LeaseLostError) return lost();
  if (!isRetryable(err)) {
    log.warn('image_failed', { reason });
    return (await fail(deps, job, image, item.id, ctx.leaseToken, reason)) ? ACK : lost();
  }
  if (attempts > MAX_RETRIES) {
    // Last delivery: record the failure now; the retry hands the message to the dead-letter queue.
    log.error('image_failed_after_retries', { reason, attempts });
    if (!(await fail(deps, job, image, item.id, ctx.leaseToken, reason))) return lost();
    await recordAttempt(db, job.id, image.id, reason);
    return retryIn(0);
  }
  if (!(await writeHeld(deps, ctx, { failReason: reason, ...LEASE_RELEASED }))) return lost();
  log.warn('image_retry', { reason, attempts });
  await recordAttempt(db, job.id, image.id, reason);
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
    else if (
      !(await writeHeld(deps, ctx, { status: image.status === 'processing' ? 'pending' : image.status, ...LEASE_RELEASED }))
    )
      throw new LeaseLostError(image.id);
    await endJob(db, job.id, 'plan_limit', 'quota', deps.now());
    await refreshItemSummary(db, shop.id, item.id);
    await afterJobEnded(deps, job);
    log.info('plan_limit_reached');
    return ACK;
  }
  await releaseImage(db, shop.id, image.id, ctx.leaseToken);
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
  const { image, item } = row;
  const log = deps.log.child({ shopId: shop.id, jobId: job.id, imageId: image.id });
  if (servedAlready(member)) {
    await finishJobImage(deps.db, job.id, image.id, 'skipped', 'already optimised');
    await settle(deps, job, item.id);
    return ACK;
  }
  // This delivery's own lease: a second delivery of the same message must not share it.
  const leaseToken = crypto.randomUUID();
  if (!(await claimImage(deps.db, shop.id, image.id, { jobId: job.id, token: leaseToken }, deps.now(), deps.leaseMs))) {
    log.info('image_busy', { holder: image.lockJobId });
    return retryIn(busyDelay(deps, image.lockExpiresAt));
  }
  // The row as it is now that nobody else can write it: what another delivery persisted before we took
  // the image over (its marker step, its stored original) is where this run resumes, never an older copy.
  const held = await getImageWithItem(deps.db, shop.id, image.id);
  if (!held) {
    await releaseImage(deps.db, shop.id, image.id, leaseToken);
    return ACK; // deleted meanwhile (the shop was redacted)
  }
  await markJobRunning(deps.db, job.id);

  const startedAt = deps.now();
  const ctx: RunContext = {
    job,
    shop,
    image: held.image,
    item: held.item,
    charged: held.charged,
    previousLockJobId: image.lockJobId,
    leaseToken,
    ...(msg.upload ? { upload: msg.upload } : {}),
  };
  let outcome: Outcome;
  try {
    outcome = job.processType === 'restore' ? await runRestore(deps, ctx) : await runOptimise(deps, ctx);
    return await afterOutcome(deps, ctx, outcome, startedAt, log);
  } catch (err) {
    return afterFailure(deps, ctx, err, attempts, log);
  }
}

/**
 * The dead-letter consumer: a message lands here after its last retry. The image is marked failed with
 * the last recorded reason (already done by the last delivery, so this is usually a no-op) and acked; an
 * image another delivery still holds is looked at again later.
 */
export async function processDeadLetter(deps: PipelineDeps, msg: OptimiseMessage): Promise<Verdict> {
  const job = await getJob(deps.db, msg.shopId, msg.jobId);
  const member = job && (await getJobImage(deps.db, job.id, msg.imageId));
  if (!job || !member || member.status !== 'queued') return ACK;
  const row = await getImageWithItem(deps.db, msg.shopId, msg.imageId);
  const reason = member.error ?? 'optimisation failed after every retry';
  if (!row) {
    await finishJobImage(deps.db, job.id, msg.imageId, 'failed', reason);
    return ACK;
  }
  // Retried only because another job held the image: that job owns the outcome, this one steps aside.
  const heldByOther = row.image.lockJobId !== null && row.image.lockJobId !== job.id;
  const servedByOther = row.image.step === 'done' && row.image.optimisedAt !== null && row.image.optimisedAt >= job.createdAt;
  if (member.error === null && (heldByOther || servedByOther)) {
    await finishJobImage(deps.db, job.id, msg.imageId, 'skipped', 'handled by another job');
    await settle(deps, job, row.item.id);
    return ACK;
  }
  // The failure is recorded under a lease of its own, once nobody holds the image: a delivery still
  // running (another delivery of this message) may finish the member itself, and a dead one's lease expires.
  const token = crypto.randomUUID();
  if (!(await claimImage(deps.db, msg.shopId, msg.imageId, { jobId: job.id, token }, deps.now(), deps.leaseMs))) {
    deps.log.warn('dead_letter_image_busy', { shopId: msg.shopId, jobId: msg.jobId, imageId: msg.imageId });
    return retryIn(busyDelay(deps, row.image.lockExpiresAt));
  }
  deps.log.error('image_dead_lettered', { shopId: msg.shopId, jobId: msg.jobId, imageId: msg.imageId, reason });
  await fail(deps, job, row.image, row.item.id, token, reason);
  return ACK;
}
