// Job planning: which images a request covers, whether the quota allows it, then one queue message per
// image. Shared by the routes (manual, re-optimise, restore, upload) and automatic mode.
import { startOfUtcDay } from '../billing/cycle';
import { takeAllowance } from '../db/shop-allowances';
import { countQueuedImages, createJob, endJob, imagesInActiveJobs, type ProcessType } from '../db/jobs';
import type { Db } from '../db/client';
import { selectImages, type ImageRow } from '../db/images';
import { refreshItemSummary, type ItemRow } from '../db/items';
import type { ShopRow } from '../db/shops';
import { apiError, ValidationError } from '../lib/errors';
import { MAX_QUEUED_IMAGES_PER_SHOP, REOPTIMISE_IMAGES_PER_DAY } from '../lib/limits';
import type { Logger } from '../lib/log';
import type { OptimiseMessage } from '../messages/optimise';
import type { UploadOptions } from './decide';

export type PlanDeps = {
  db: Db;
  queue: Queue<OptimiseMessage>;
  log: Logger;
  now: () => number;
  canOptimise: (shop: ShopRow) => Promise<boolean>;
};

export type Selection = {
  itemIds?: readonly number[];
  imageIds?: readonly number[];
  onlyItemIds?: readonly number[];
  wholeTab?: boolean;
};

export type PlanRequest = {
  shop: ShopRow;
  dataType: number;
  processType: ProcessType;
  pageType: number;
  pattern: 'manual' | 'automatic' | 'upload';
  selection: Selection;
  upload?: UploadOptions;
  /** Automatic mode plans quietly: nothing eligible is not an error there. */
  quiet?: boolean;
};

type Exclusion = 'deleted' | 'expired' | 'state';

function isExpired(image: ImageRow, now: number): boolean {
  return image.expired || (image.expiresAt !== null && image.expiresAt < now);
}

/** Why an image cannot take part in a job of this type, or null when it can. */
export function exclusionOf(
  processType: ProcessType,
  pageType: number,
  image: ImageRow,
  item: ItemRow,
  now: number,
): Exclusion | null {
  if (image.deleted || item.deleted) return 'deleted';
  if (image.status === 'processing') return 'state';
  switch (processType) {
    case 'restore':
      if (isExpired(image, now)) return 'expired';
      if (!image.originalKey) return 'state';
      return image.status === 'compressed' || (image.status === 'optimal' && (image.altEdited || image.fileNameEdited))
        ? null
        : 'state';
    case 'reoptimize':
      // Expired means the original is gone: starting "again from the original" is impossible.
      return image.originalKey && isExpired(image, now) ? 'expired' : null;
    case 'optimize':
      if (image.status === 'pending' || image.status === 'failed') return null;
      // The manual list also offers restored items: optimising them again starts from the original.
      return image.status === 'restored' && pageType === 1 && !isExpired(image, now) ? null : 'state';
    case 'auto':
      return image.status === 'pending' ? null : 'state';
    case 'upload':
      return null;
  }
}

function refusal(processType: ProcessType, reasons: Exclusion[]) {
  if (reasons.length > 0 && reasons.every((r) => r === 'expired')) return 'server.optimise.expired' as const;
  if (reasons.length > 0 && reasons.every((r) => r === 'deleted')) return 'server.optimise.deleted' as const;
  return processType === 'optimize' || processType === 'auto'
    ? ('server.optimise.nothingToOptimise' as const)
    : ('server.optimise.selectCorrectState' as const);
}

/**
 * Per-shop fairness of the shared queue: restores and re-optimisations cost no quota, so a loop of them
 * could occupy the queue all day. A shop with MAX_QUEUED_IMAGES_PER_SHOP images already waiting plans no
 * more jobs of any kind, and every image optimised again without a new charge (a re-optimisation, or an
 * optimisation of a restored image that was charged before) counts against a daily allowance (taken here,
 * atomically). Automatic mode (quiet) plans nothing instead of refusing.
 */
async function checkFairShare(
  deps: PlanDeps,
  req: PlanRequest,
  members: readonly { charged: boolean }[],
): Promise<'ok' | 'skip'> {
  if ((await countQueuedImages(deps.db, req.shop.id)) >= MAX_QUEUED_IMAGES_PER_SHOP) {
    if (req.quiet) return 'skip';
    throw apiError(429, 'server.limits.queueBusy');
  }
  const again =
    req.processType === 'reoptimize'
      ? members.length
      : req.processType === 'restore' || req.processType === 'upload'
        ? 0
        : members.filter((m) => m.charged).length;
  if (
    again > 0 &&
    !(await takeAllowance(deps.db, req.shop.id, 'reoptimise', startOfUtcDay(deps.now()), again, REOPTIMISE_IMAGES_PER_DAY))
  ) {
    if (req.quiet) return 'skip';
    throw apiError(429, 'server.limits.reoptimiseAllowance');
  }
  return 'ok';
}

const SEND_BATCH = 100; // Queue.sendBatch accepts at most 100 messages

/**
 * Plans and queues a job; returns its id and size (0 when every image is already in a running job).
 * Refuses with the documented messages: expired / deleted images, nothing in a selectable state, and the
 * plan-limit message when the quota is used up and overcharge does not allow more.
 */
export async function planJob(deps: PlanDeps, req: PlanRequest): Promise<{ jobId: string | null; total: number }> {
  const { db, now } = deps;
  const rows = await selectImages(db, req.shop.id, req.dataType, req.selection);
  const reasons: Exclusion[] = [];
  const eligible = rows.filter(({ image, item }) => {
    const why = exclusionOf(req.processType, req.pageType, image, item, now());
    if (why) reasons.push(why);
    return why === null;
  });
  if (eligible.length === 0) {
    if (req.quiet) return { jobId: null, total: 0 };
    throw new ValidationError(refusal(req.processType, reasons));
  }
  const busy = await imagesInActiveJobs(
    db,
    req.shop.id,
    eligible.map((r) => r.image.id),
  );
  const members = eligible.filter((r) => !busy.has(r.image.id));
  if (members.length === 0) return { jobId: null, total: 0 };

  // Quota: checked before work starts. Restores are free; images charged before need no new quota.
  const needsQuota = req.processType !== 'restore' && members.some((r) => !r.charged);
  if (needsQuota && !(await deps.canOptimise(req.shop))) {
    if (req.quiet) return { jobId: null, total: 0 };
    throw apiError(402, 'server.optimise.planLimit', { count: members.length });
  }

  if ((await checkFairShare(deps, req, members)) === 'skip') return { jobId: null, total: 0 };

  const jobId = crypto.randomUUID();
  const job = {
    id: jobId,
    shopId: req.shop.id,
    dataType: req.dataType,
    processType: req.processType,
    pageType: req.pageType,
    pattern: req.pattern,
  };
  await createJob(
    db,
    job,
    members.map((r) => ({ imageId: r.image.id, itemId: r.item.id })),
  );
  for (const optId of new Set(members.map((r) => r.item.id))) await refreshItemSummary(db, req.shop.id, optId);
  try {
    for (let i = 0; i < members.length; i += SEND_BATCH) {
      await deps.queue.sendBatch(
        members.slice(i, i + SEND_BATCH).map((r) => ({
          body: { type: 'image', jobId, shopId: req.shop.id, imageId: r.image.id, ...(req.upload ? { upload: req.upload } : {}) },
          contentType: 'json',
        })),
      );
    }
  } catch (err) {
    // Without its messages the job would wait forever: end it so the tab does not show phantom progress.
    await endJob(db, jobId, 'stopped', 'stopped', now());
    for (const optId of new Set(members.map((r) => r.item.id))) await refreshItemSummary(db, req.shop.id, optId);
    throw err;
  }
  deps.log.info('job_planned', { shopId: req.shop.id, jobId, processType: req.processType, total: members.length });
  return { jobId, total: members.length };
}
