// Plan changes through the Shopify Billing API. The shop's plan level changes only when Shopify says a
// subscription is ACTIVE (return URL, webhook or a sync); the merchant's approval happens on Shopify.
import { updateShopBilling, type ShopBillingPatch } from '../db/shop-billing';
import type { Db } from '../db/client';
import { findShopByDomain, findShopById, type ShopRow } from '../db/shops';
import { verbatim } from '../../shared/messages';
import { ApiError, apiError, ValidationError } from '../lib/errors';
import { apiErrorFromShopify } from '../middleware/shopify-failures';
import type { Logger } from '../lib/log';
import {
  cancelAppSubscription,
  createAppSubscription,
  getActiveSubscriptions,
  shopifyClientFor,
  type AppSubscription,
} from '../shopify';
import { ShopifyUserError } from '../shopify/errors';
import type { AdminClient } from '../shopify/graphql-client';
import { MAX_PLAN_LEVEL, planFor } from '../../shared/plans';
import { cycleDayOf } from './cycle';
import { carryUsageToNewPeriod } from './quota';
import type { BillingDeps, SyncDeps } from './deps';
import { activeOffer, canDiscount } from './discount';
import { billingReturnUrl, type ReturnKind } from './return-url';
import { chargeIsTest, markTestChargesOnly, refusedAsTestOnly, testChargesAllowed } from './test-charges';
import { settleUsageCharges } from './overage';
import {
  amountToCents,
  capCentsForImages,
  centsToAmount,
  levelOfSubscription,
  newUserOffer,
  OVERAGE_CAP_STEPS_IMAGES,
  subscriptionName,
  USAGE_TERMS,
} from './terms';

export { BILLING_RETURN_PATH } from './return-url';

function client(deps: SyncDeps, shop: ShopRow): AdminClient {
  return deps.client ?? shopifyClientFor(deps.env, deps.db, shop);
}

export type ChangePlanResult = { url: string | null; planLevel: number };

/**
 * changePlans: a paid level creates a subscription (30-day recurring line, capped usage line for
 * overage, the new-user discount when the shop may have it) and answers Shopify's confirmation URL;
 * nothing changes here until the merchant approves. Level 0 cancels the subscription at once.
 */
export async function changePlan(deps: BillingDeps, shop: ShopRow, newLevel: number): Promise<ChangePlanResult> {
  if (!Number.isInteger(newLevel) || newLevel < 0 || newLevel > MAX_PLAN_LEVEL)
    throw new ValidationError('server.billing.invalidPlanLevel');
  if (newLevel === 0) {
    if (shop.planLevel === 0 && !shop.subscriptionId) throw new ValidationError('server.billing.alreadyFree');
    await downgradeToFree(deps, shop);
    return { url: null, planLevel: 0 };
  }
  if (newLevel === shop.planLevel && shop.subscriptionStatus === 'ACTIVE')
    throw new ValidationError('server.billing.alreadyOnPlan');

  const now = deps.now ?? Date.now();
  const plan = planFor(newLevel);
  // The discount the pricing page showed (pricingData reads the same configured offer).
  const offer = activeOffer(shop, now, newUserOffer(deps.env));
  const shopify = client(deps, shop);
  try {
    const create = async (test: boolean) =>
      createAppSubscription(shopify, {
        name: subscriptionName(newLevel),
        returnUrl: await billingReturnUrl(deps.env, shop.domain, 'plan', now),
        test,
        price: { amount: centsToAmount(plan.priceCents), currencyCode: 'USD' },
        usage: {
          cappedAmount: { amount: centsToAmount(capCentsForImages(OVERAGE_CAP_STEPS_IMAGES[0])), currencyCode: 'USD' },
          terms: USAGE_TERMS,
        },
        ...(offer ? { discount: { percentage: offer.rate, durationLimitInIntervals: offer.months } } : {}),
      });
    // Development stores cannot pay: their charges are test charges (worker/billing/test-charges.ts).
    const test = await chargeIsTest(deps, shop, shopify);
    let created;
    try {
      created = await create(test);
    } catch (err) {
      // App review and staff stores accept only test charges: Shopify says so, and the charge is retried as one.
      if (test || !refusedAsTestOnly(err)) throw err;
      deps.log?.info('subscription_retried_as_test', { shop: shop.domain });
      await markTestChargesOnly(deps, shop);
      created = await create(true);
    }
    await updateShopBilling(deps.db, shop.id, { pendingPlanLevel: newLevel });
    return { url: created.confirmationUrl, planLevel: shop.planLevel };
  } catch (err) {
    throw shopifyFailure(deps, 'subscription_create_failed', err);
  }
}

async function downgradeToFree(deps: BillingDeps, shop: ShopRow): Promise<void> {
  if (shop.subscriptionId) {
    // Overage blocks still pending can only be billed while the subscription exists.
    await settleUsageCharges(deps, shop.id).catch((err: unknown) =>
      deps.log?.warn('usage_settle_before_cancel_failed', { shop: shop.domain, error: err }),
    );
    try {
      await cancelAppSubscription(client(deps, shop), shop.subscriptionId);
    } catch (err) {
      // Already cancelled on Shopify (merchant acted there, or a second click): the goal is reached.
      if (!(err instanceof ShopifyUserError)) throw shopifyFailure(deps, 'subscription_cancel_failed', err);
      deps.log?.warn('subscription_cancel_user_error', { shop: shop.domain, error: err.message });
    }
  }
  await updateShopBilling(deps.db, shop.id, FREE_PATCH);
}

const FREE_PATCH: ShopBillingPatch = {
  subscriptionDiscountCents: null,
  subscriptionDiscountUntil: null,
  planLevel: 0,
  subscriptionId: null,
  subscriptionStatus: 'CANCELLED',
  usageLineItemId: null,
  pendingPlanLevel: null,
  hasUsageCap: false,
  cappedAmountCents: 0,
  // Overcharge needs a paid, capped plan: switched off with the plan.
  overageEnabled: false,
};

function shopifyFailure(deps: SyncDeps, event: string, err: unknown): ApiError {
  deps.log?.error(event, { error: err });
  if (err instanceof ApiError) return err;
  const explained = apiErrorFromShopify(err);
  if (explained && explained.status === 401) return explained;
  // Shopify's own userErrors, in the store's language: shown as sent.
  if (err instanceof ShopifyUserError) return new ApiError(422, verbatim(err.userErrors.map((e) => e.message).join('; ')));
  return apiError(502, 'server.billing.unreachable');
}

function recurringCents(sub: AppSubscription): number | null {
  for (const line of sub.lineItems) {
    const d = line.plan.pricingDetails;
    if (d.__typename === 'AppRecurringPricing') return amountToCents(d.price.amount);
  }
  return null;
}

const INTERVAL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The discount Shopify bills on a newly active subscription: the price per interval while it lasts and
 * when it ends. It covers the subscription's first `durationLimitInIntervals` intervals, the first of
 * which ends at `currentPeriodEnd` (read right after approval), so it ends
 * `durationLimitInIntervals - 1` intervals after that; blank means indefinitely (until null).
 */
export function subscriptionDiscountOf(sub: AppSubscription, now: number): { cents: number | null; until: number | null } {
  for (const line of sub.lineItems) {
    const d = line.plan.pricingDetails;
    if (d.__typename !== 'AppRecurringPricing' || !d.discount) continue;
    const cents = amountToCents(d.discount.priceAfterDiscount.amount);
    if (cents >= amountToCents(d.price.amount)) return { cents: null, until: null };
    const limit = d.discount.durationLimitInIntervals;
    if (limit === null) return { cents, until: null };
    const periodEnd = sub.currentPeriodEnd ? Date.parse(sub.currentPeriodEnd) : NaN;
    const firstEnd = Number.isFinite(periodEnd) ? periodEnd : now + INTERVAL_MS;
    return { cents, until: firstEnd + (limit - 1) * INTERVAL_MS };
  }
  return { cents: null, until: null };
}

function usageLine(sub: AppSubscription): { id: string; capCents: number } | null {
  for (const line of sub.lineItems) {
    const d = line.plan.pricingDetails;
    if (d.__typename === 'AppUsagePricing') return { id: line.id, capCents: amountToCents(d.cappedAmount.amount) };
  }
  return null;
}

export type SyncResult = { planLevel: number; subscriptionId: string | null; changed: boolean };

/**
 * Makes the shop's plan match Shopify's truth: the ACTIVE subscription (preferring `preferId`, e.g. the
 * charge the merchant just approved) sets level, usage line and cap; none means the Free plan. Safe to
 * run any number of times.
 */
export async function syncSubscription(deps: SyncDeps, shop: ShopRow, preferId?: string): Promise<SyncResult> {
  const now = deps.now ?? Date.now();
  // A test subscription is a paid plan only where test charges are allowed (never for a paying store).
  const testOk = testChargesAllowed(deps.env, shop);
  const subs = (await getActiveSubscriptions(client(deps, shop))).filter((s) => s.status === 'ACTIVE' && (!s.test || testOk));
  const sub = subs.find((s) => s.id === preferId) ?? subs.find((s) => s.id === shop.subscriptionId) ?? subs[0];
  if (!sub) {
    const changed = shop.planLevel !== 0 || shop.subscriptionId !== null;
    await updateShopBilling(deps.db, shop.id, {
      ...FREE_PATCH,
      subscriptionStatus: shop.subscriptionId ? 'CANCELLED' : shop.subscriptionStatus,
    });
    return { planLevel: 0, subscriptionId: null, changed };
  }
  const level = levelOfSubscription({ name: sub.name, recurringPriceCents: recurringCents(sub) });
  if (level === null) {
    deps.log?.error('subscription_unknown_plan', { shop: shop.domain, subscription: sub.id, name: sub.name });
    throw apiError(502, 'server.billing.noMatchingPlan');
  }
  const usage = usageLine(sub);
  const isNew = sub.id !== shop.subscriptionId;
  const patch: ShopBillingPatch = {
    planLevel: level,
    subscriptionId: sub.id,
    subscriptionStatus: 'ACTIVE',
    usageLineItemId: usage?.id ?? null,
    hasUsageCap: !!usage && usage.capCents > 0,
    cappedAmountCents: usage?.capCents ?? 0,
    pendingPlanLevel: null,
    overageEnabled: !!usage && usage.capCents > 0 ? shop.overageEnabled : false,
  };
  if (isNew) {
    // A new subscription starts a new Shopify billing cycle today: the quota period follows it.
    patch.quotaPeriodStart = now;
    patch.billingCycleDay = cycleDayOf(now);
    // The new-user offer is used up once a paid plan is active (with or without its discount).
    if (canDiscount(shop, now)) patch.discountExpiresAt = now;
    // What Shopify bills while its discount lasts: the pricing page says "$3.99 for 3 months, then $4.99".
    const discount = subscriptionDiscountOf(sub, now);
    patch.subscriptionDiscountCents = discount.cents;
    patch.subscriptionDiscountUntil = discount.until;
  }
  await updateShopBilling(deps.db, shop.id, patch);
  // The period's images stay charged under the new subscription (no fresh quota per plan change).
  if (isNew) await carryUsageToNewPeriod(deps.db, shop, now);
  return { planLevel: level, subscriptionId: sub.id, changed: isNew || level !== shop.planLevel };
}

export type ReturnOutcome = { shop: ShopRow; approved: boolean; planLevel: number; kind: ReturnKind };

/**
 * Shopify redirects the merchant's browser here after the approval page (appending charge_id); the
 * route has checked the URL's signature. Nothing else in the query is trusted: the subscription must be
 * ACTIVE when asked from Shopify. Shopify returns a usage-cap approval to the subscription's own return
 * URL, so a return for the current subscription with no plan change pending is a cap decision,
 * approved when the cap went up.
 */
export async function handleBillingReturn(
  deps: SyncDeps,
  shopDomain: string,
  chargeId: string | undefined,
): Promise<ReturnOutcome | null> {
  const shop = await findShopByDomain(deps.db, shopDomain);
  if (!shop || shop.uninstalledAt) return null;
  const preferId = chargeId
    ? chargeId.startsWith('gid://')
      ? chargeId
      : `gid://shopify/AppSubscription/${chargeId}`
    : undefined;
  let result: SyncResult;
  try {
    result = await syncSubscription(deps, shop, preferId);
  } catch (err) {
    throw shopifyFailure(deps, 'billing_return_sync_failed', err);
  }
  const fresh = (await findShopById(deps.db, shop.id)) ?? shop;
  if (preferId && preferId === shop.subscriptionId && shop.pendingPlanLevel === null) {
    return { shop: fresh, approved: fresh.cappedAmountCents > shop.cappedAmountCents, planLevel: result.planLevel, kind: 'cap' };
  }
  const approved = preferId ? result.subscriptionId === preferId : result.changed;
  if (!approved && shop.pendingPlanLevel !== null) await updateShopBilling(deps.db, shop.id, { pendingPlanLevel: null });
  return { shop: (await findShopById(deps.db, shop.id)) ?? fresh, approved, planLevel: result.planLevel, kind: 'plan' };
}

/** The app_subscriptions/update payload fields this code reads (Shopify's REST-style webhook body). */
type SubscriptionWebhook = { app_subscription?: { admin_graphql_api_id?: string; status?: string } };

/**
 * app_subscriptions/update webhook (called by worker/routes/webhooks.ts): the merchant approved,
 * cancelled or Shopify froze/expired a subscription. The payload only says which subscription changed;
 * the level comes from Shopify's current answer, so a replayed or out-of-order delivery cannot set a
 * stale level. Returns the level after the update, or null for an unknown shop.
 */
export async function applySubscriptionUpdate(
  env: SyncDeps['env'],
  db: Db,
  shopDomain: string,
  payload: unknown,
  opts: { log?: Logger; client?: AdminClient } = {},
): Promise<{ planLevel: number; changed: boolean } | null> {
  const shop = await findShopByDomain(db, shopDomain);
  if (!shop || shop.uninstalledAt) return null;
  const sub = (payload as SubscriptionWebhook | null)?.app_subscription;
  const id = sub?.admin_graphql_api_id;
  const status = String(sub?.status ?? '').toUpperCase();
  const deps: SyncDeps = { env, db, log: opts.log, client: opts.client };
  const result = await syncSubscription(deps, shop, status === 'ACTIVE' ? id : undefined);
  opts.log?.info('subscription_update_applied', { shop: shopDomain, subscription: id, status, planLevel: result.planLevel });
  return { planLevel: result.planLevel, changed: result.changed };
}
