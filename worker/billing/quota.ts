// Quota arithmetic. Other areas call:
//   quotaStatus(db, shop)                        what the shop may still optimise this period
//   chargeImageOnce(db, shop, { imageId, jobId }) count one image that really got smaller
//
// The ledger (usage_ledger) is the single source of truth: one row per charged image, keyed
// `image:<imageId>` per shop, so an image is charged once in its life: retries, duplicate queue
// deliveries and re-optimisation never charge it again. "used" is the number of ledger rows whose
// period_start equals the shop's current quota_period_start; the monthly reset only moves that start.
//
// Overage ("impressions" in getImgOptTotal / getPricingPlans): images beyond the plan, allowed only when
// the merchant switched overcharge on (is_over_quota), the plan is paid and the subscription has a usage
// cap (is_capped). They are billed $4.99 per started block of 1,000 images, and the capped amount buys
// floor(cap / $4.99) blocks, so the allowance is that many thousand images: never a cent past the cap.
//   impressions_all = overageAllowance (overage images the cap can pay for this period)
//   impressions_use = overageUsed      (overage images charged this period)
import type { Db } from '../db/client';
import { findShopById, type ShopRow } from '../db/shops';
import { ensureUsageCharge } from '../db/usage-charges';
import {
  countPeriodUsage,
  findLedgerRow,
  imageChargeKey,
  insertLedgerRowWithinLimit,
  moveLedgerPeriod,
} from '../db/usage-ledger';
import { OVERAGE_CENTS_PER_1000, planFor } from '../../shared/plans';
import { currentPeriodStart, nextPeriodStart } from './cycle';

export const OVERAGE_BLOCK_IMAGES = 1000;

export type QuotaStatus = {
  planLevel: number;
  /** Images included in the plan per period. */
  planImages: number;
  /** Images charged this period (plan images and overage images). */
  used: number;
  /** Plan images still free this period (overage not included). */
  left: number;
  periodStart: number;
  nextResetAt: number;
  /** Overage images charged this period. */
  overageUsed: number;
  /** Overage images the capped amount pays for this period (0 on free or uncapped plans). */
  overageAllowance: number;
  isCapped: boolean;
  isOverQuota: boolean;
  /** True while one more image can be charged (plan images left, or overage allowed and within the cap). */
  canOptimise: boolean;
  /** Images that can still be charged this period: plan images left plus overage room when overcharge is on
   * (the "There are N images that can be optimized." of the plan-limit banner). */
  remaining: number;
};

export type ChargeResult =
  | { ok: true; charged: true; overage: boolean }
  /** The image was charged before (retry, duplicate delivery, re-optimise): nothing new is charged. */
  | { ok: true; charged: false; overage: boolean; reason: 'already_charged' }
  /** Plan images used up and overage not allowed or the cap reached: stop at the plan-limit state. */
  | { ok: false; charged: false; overage: false; reason: 'quota_exhausted' };

/** Overage images the capped amount can pay for: whole blocks of 1,000 at $4.99, never past the cap. */
export function overageAllowanceFor(shop: Pick<ShopRow, 'planLevel' | 'hasUsageCap' | 'cappedAmountCents'>): number {
  if (shop.planLevel <= 0 || !shop.hasUsageCap || shop.cappedAmountCents <= 0) return 0;
  return Math.floor(shop.cappedAmountCents / OVERAGE_CENTS_PER_1000) * OVERAGE_BLOCK_IMAGES;
}

/** Whether images beyond the plan may be charged at all (before looking at the cap's room). */
export function overageEnabled(
  shop: Pick<ShopRow, 'planLevel' | 'hasUsageCap' | 'overageEnabled' | 'cappedAmountCents'>,
): boolean {
  return shop.overageEnabled && overageAllowanceFor(shop) > 0;
}

export async function quotaStatus(db: Db, shop: ShopRow, now = Date.now()): Promise<QuotaStatus> {
  const planImages = planFor(shop.planLevel).images;
  const { used, overageUsed } = await countPeriodUsage(db, shop.id, shop.quotaPeriodStart);
  const overageAllowance = overageAllowanceFor(shop);
  const withinPlan = used < planImages;
  const withinOverage = overageEnabled(shop) && overageUsed < overageAllowance;
  return {
    planLevel: shop.planLevel,
    planImages,
    used,
    left: Math.max(0, planImages - used),
    periodStart: shop.quotaPeriodStart,
    nextResetAt: nextPeriodStart(shop.billingCycleDay, Math.max(now, shop.quotaPeriodStart)),
    overageUsed,
    overageAllowance,
    isCapped: shop.hasUsageCap,
    isOverQuota: shop.overageEnabled,
    canOptimise: withinPlan || withinOverage,
    remaining: Math.max(0, planImages - used) + (overageEnabled(shop) ? Math.max(0, overageAllowance - overageUsed) : 0),
  };
}

/**
 * Charges one image against the shop's current period, at most once in the image's life. Call it only
 * for images that really got smaller (restores and already-optimal images are never charged).
 * Never throws for an exhausted quota: the result says so and the caller stops at the plan-limit state.
 */
export async function chargeImageOnce(
  db: Db,
  shop: Pick<ShopRow, 'id'>,
  ref: { imageId: number; jobId?: string | null },
): Promise<ChargeResult> {
  const chargeKey = imageChargeKey(ref.imageId);
  const previous = await findLedgerRow(db, shop.id, chargeKey);
  if (previous) return { ok: true, charged: false, overage: previous.overage, reason: 'already_charged' };

  // Read the shop fresh: the caller's row may predate a reset, a plan change or the overcharge switch.
  const current = await findShopById(db, shop.id);
  if (!current) return { ok: false, charged: false, overage: false, reason: 'quota_exhausted' };
  const planImages = planFor(current.planLevel).images;
  const limit = planImages + (overageEnabled(current) ? overageAllowanceFor(current) : 0);
  const inserted = await insertLedgerRowWithinLimit(
    db,
    { shopId: current.id, chargeKey, imageId: ref.imageId, jobId: ref.jobId ?? null, periodStart: current.quotaPeriodStart },
    planImages,
    limit,
  );
  const row = await findLedgerRow(db, current.id, chargeKey);
  if (!row) return { ok: false, charged: false, overage: false, reason: 'quota_exhausted' };
  // A concurrent delivery of the same image may have inserted the row between our two reads.
  if (!inserted) return { ok: true, charged: false, overage: row.overage, reason: 'already_charged' };
  if (row.overage) await recordOverageBlock(db, current.id, row.periodStart);
  return { ok: true, charged: true, overage: row.overage };
}

/**
 * Every started block of 1,000 overage images becomes one pending usage charge of $4.99, keyed by period
 * and block number, so however often this runs the block is billed once. settleUsageCharges sends them.
 */
async function recordOverageBlock(db: Db, shopId: number, periodStart: number): Promise<void> {
  const { overageUsed } = await countPeriodUsage(db, shopId, periodStart);
  const blocks = Math.ceil(overageUsed / OVERAGE_BLOCK_IMAGES);
  for (let block = 1; block <= blocks; block++) {
    await ensureUsageCharge(db, {
      shopId,
      idempotencyKey: overageChargeKey(periodStart, block),
      periodStart,
      imageCount: OVERAGE_BLOCK_IMAGES,
      amountCents: OVERAGE_CENTS_PER_1000,
    });
  }
}

export function overageChargeKey(periodStart: number, block: number): string {
  return `overage:${periodStart}:${block}`;
}

/**
 * A new subscription starts a new quota period at `newStart`: the current period's usage moves with it
 * (a plan change within a period carries that period's usage over). Usage of a period that already ended
 * (the daily reset had not run yet) stays where it is.
 */
export async function carryUsageToNewPeriod(
  db: Db,
  shop: Pick<ShopRow, 'id' | 'billingCycleDay' | 'quotaPeriodStart'>,
  newStart: number,
): Promise<number> {
  if (shop.quotaPeriodStart === newStart) return 0;
  if (shop.quotaPeriodStart < currentPeriodStart(shop.billingCycleDay, newStart)) return 0;
  return moveLedgerPeriod(db, shop.id, shop.quotaPeriodStart, newStart);
}
