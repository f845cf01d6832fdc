// Overage billing: pending $4.99 blocks (written by chargeImageOnce) become Shopify usage records.
// Each record carries the block's idempotency key, so a retry after a lost answer cannot bill twice,
// and a block is sent only while it fits under the capped amount (ours and Shopify's balance).
import { createDb, type Db } from '../db/client';
import { findShopById, type ShopRow } from '../db/shops';
import {
  listPendingUsageCharges,
  listShopIdsWithPendingCharges,
  markUsageCharge,
  sumPeriodChargeCents,
} from '../db/usage-charges';
import { verbatim } from '../../shared/messages';
import { ApiError, apiError, ValidationError } from '../lib/errors';
import { createLogger, type Logger } from '../lib/log';
import { ShopifyUserError } from '../shopify/errors';
import { createUsageRecord, shopifyClientFor, updateUsageCap } from '../shopify';
import type { SyncDeps } from './deps';
import { capCentsForImages, centsToAmount, OVERAGE_CAP_STEPS_IMAGES } from './terms';

export type SettleResult = { recorded: number; refused: number; pending: number };

/**
 * Sends a shop's pending overage blocks to Shopify. A block that would take the period past the cap is
 * marked failed instead of sent (chargeImageOnce already stops at the cap, so this is a second fence).
 * Temporary Shopify failures throw, leaving the block pending for the next run.
 */
export async function settleUsageCharges(deps: SyncDeps, shopId: number): Promise<SettleResult> {
  const shop = await findShopById(deps.db, shopId);
  const pending = shop ? await listPendingUsageCharges(deps.db, shopId) : [];
  const result: SettleResult = { recorded: 0, refused: 0, pending: pending.length };
  if (!shop || pending.length === 0) return result;
  if (!shop.usageLineItemId || shop.planLevel === 0) {
    for (const charge of pending) await markUsageCharge(deps.db, charge.id, shopId, 'failed', null);
    result.refused = pending.length;
    result.pending = 0;
    return result;
  }
  const client = deps.client ?? shopifyClientFor(deps.env, deps.db, shop);
  for (const charge of pending) {
    // Every block of the period that is billed or about to be (this one included) must fit under our cap.
    const fitsOurs = (await sumPeriodChargeCents(deps.db, shopId, charge.periodStart)) <= shop.cappedAmountCents;
    // Shopify's own cap is the second fence: it refuses a record past it (a user error, below). It is not
    // pre-checked here, because a resend after a lost answer must reach Shopify to get its record back.
    if (!fitsOurs) {
      await markUsageCharge(deps.db, charge.id, shopId, 'failed', null);
      deps.log?.warn('usage_charge_over_cap', { shop: shop.domain, key: charge.idempotencyKey });
      result.refused += 1;
      result.pending -= 1;
      continue;
    }
    try {
      const record = await createUsageRecord(client, {
        subscriptionLineItemId: shop.usageLineItemId,
        price: { amount: centsToAmount(charge.amountCents), currencyCode: 'USD' },
        description: `${charge.imageCount.toLocaleString('en-US')} images beyond the plan quota`,
        idempotencyKey: `${shop.id}:${charge.idempotencyKey}`,
      });
      await markUsageCharge(deps.db, charge.id, shopId, 'recorded', record.id);
      result.recorded += 1;
      result.pending -= 1;
    } catch (err) {
      if (err instanceof ShopifyUserError) {
        // Shopify refused it (over its cap, subscription gone): never retried, never billed.
        await markUsageCharge(deps.db, charge.id, shopId, 'failed', null);
        deps.log?.warn('usage_charge_refused', { shop: shop.domain, key: charge.idempotencyKey, error: err.message });
        result.refused += 1;
        result.pending -= 1;
        continue;
      }
      throw err;
    }
  }
  return result;
}

/** Cron: settles every shop with pending blocks; one shop's failure does not stop the others. */
export async function settleAllUsageCharges(
  env: Env,
  db: Db,
  log: Logger = createLogger({ task: 'usage_charges' }),
): Promise<number> {
  let settled = 0;
  for (const shopId of await listShopIdsWithPendingCharges(db)) {
    try {
      const r = await settleUsageCharges({ env, db, log }, shopId);
      settled += r.recorded;
    } catch (err) {
      log.error('usage_charge_settle_failed', { shopId, error: err });
    }
  }
  return settled;
}

type CapShop = Pick<ShopRow, 'planLevel' | 'usageLineItemId' | 'subscriptionId' | 'cappedAmountCents'>;

/** A paid plan whose subscription has the usage line item: the only kind whose cap can be raised. */
const hasUsageLine = <S extends CapShop>(shop: S): shop is S & { usageLineItemId: string; subscriptionId: string } =>
  shop.planLevel !== 0 && !!shop.usageLineItemId && !!shop.subscriptionId;

/** The next cap step above the shop's cap (in overage images), or null: no paid, capped plan or already highest. */
export function nextCapStep(shop: CapShop): number | null {
  if (!hasUsageLine(shop)) return null;
  return OVERAGE_CAP_STEPS_IMAGES.find((step) => capCentsForImages(step) > shop.cappedAmountCents) ?? null;
}

/**
 * Raising the cap: asks Shopify for the next cap step (or a given image count); the merchant approves on
 * the confirmation page and the billing return URL syncs the new cap.
 */
export async function raiseOverageCap(
  deps: SyncDeps,
  shop: ShopRow,
  images?: number,
): Promise<{ url: string; cappedAmountCents: number }> {
  if (!hasUsageLine(shop)) throw new ValidationError('server.billing.overchargeNeedsPaidPlan');
  const next = images ?? nextCapStep(shop);
  if (!next || !Number.isInteger(next) || capCentsForImages(next) <= shop.cappedAmountCents)
    throw new ValidationError('server.billing.capAtHighest');
  const cents = capCentsForImages(next);
  try {
    const client = deps.client ?? shopifyClientFor(deps.env, deps.db, shop);
    const { confirmationUrl } = await updateUsageCap(client, {
      lineItemId: shop.usageLineItemId,
      cappedAmount: { amount: centsToAmount(cents), currencyCode: 'USD' },
    });
    if (!confirmationUrl) throw new Error('appSubscriptionLineItemUpdate answered without a confirmation URL');
    return { url: confirmationUrl, cappedAmountCents: cents };
  } catch (err) {
    deps.log?.error('cap_update_failed', { shop: shop.domain, error: err });
    // Shopify's own userErrors, in the store's language: shown as sent.
    if (err instanceof ShopifyUserError) throw new ApiError(422, verbatim(err.userErrors.map((e) => e.message).join('; ')));
    throw apiError(502, 'server.billing.unreachable');
  }
}

/** The scheduled task registered under CRON.halfHourly: pending overage blocks reach Shopify within 30 min. */
export async function usageChargesTask(_controller: ScheduledController, env: Env): Promise<void> {
  await settleAllUsageCharges(env, createDb(env.DB));
}
