// The commercial terms of the paid plans, in one place.
import { OVERAGE_CENTS_PER_1000, PLANS, planFor } from '../../shared/plans';

/**
 * New-user discount: by default 20 % off the recurring price for the first 3 billing intervals (30 days
 * each, so "the first 3 months"), applied by Shopify as a subscription discount; NEW_USER_DISCOUNT_PERCENT
 * and NEW_USER_DISCOUNT_MONTHS configure it ("20 % for the first 3 billing periods unless configured
 * otherwise", decisions.md "Offers"; 0 % makes no offer). It is offered to shops that never had a paid
 * plan, for 72 hours after install: that offer window is rebate_info.expired_time, the countdown on the
 * pricing page. The promo banner, the pricing page and the subscription all read newUserOffer(env).
 */
export const DISCOUNT_RATE = 0.2;
export const DISCOUNT_MONTHS = 3;
export const DISCOUNT_OFFER_WINDOW_MS = 72 * 60 * 60 * 1000;

/** The new-user discount: `rate` the share taken off (0.2 = 20 %), `months` the 30-day intervals it lasts. */
export type NewUserOffer = { rate: number; months: number };

/** The offer's configuration (wrangler.toml [vars]; empty = the default). */
export type OfferEnv = { NEW_USER_DISCOUNT_PERCENT?: string; NEW_USER_DISCOUNT_MONTHS?: string };

/**
 * Whole percent 0-99 (100 would bill nothing; Shopify takes a fraction below 1) and 2-36 intervals: the
 * offer's text in the 21 catalogues ("for the first {{months}} months") is a plural, and a price's last
 * discounted period reads "until <date>" (admin/src/pricing/price-line.ts).
 */
const PERCENT = /^(?:\d|[1-9]\d)$/;
const MONTHS = /^(?:[2-9]|[12]\d|3[0-6])$/;

/** What is wrong with the offer's configuration, or null (checked with the required secrets). */
export function offerProblem(env: OfferEnv): string | null {
  const percent = (env.NEW_USER_DISCOUNT_PERCENT ?? '').trim();
  const months = (env.NEW_USER_DISCOUNT_MONTHS ?? '').trim();
  if (percent !== '' && !PERCENT.test(percent)) return 'NEW_USER_DISCOUNT_PERCENT must be a whole number from 0 to 99';
  if (months !== '' && !MONTHS.test(months)) return 'NEW_USER_DISCOUNT_MONTHS must be a whole number from 2 to 36';
  return null;
}

/** The configured new-user offer (the default where a variable is empty). */
export function newUserOffer(env: OfferEnv): NewUserOffer {
  const problem = offerProblem(env);
  if (problem) throw new Error(problem);
  const percent = (env.NEW_USER_DISCOUNT_PERCENT ?? '').trim();
  const months = (env.NEW_USER_DISCOUNT_MONTHS ?? '').trim();
  return {
    rate: percent === '' ? DISCOUNT_RATE : Number(percent) / 100,
    months: months === '' ? DISCOUNT_MONTHS : Number(months),
  };
}

/**
 * Usage cap choices, in overage images per billing period (the 20,000 and 40,000 "add-on" constants of
 * the documented terms). A new subscription starts at the first; "raise the cap" moves to the
 * next one. The cap in dollars is whole $4.99 blocks, so the cap itself can never be overshot.
 */
export const OVERAGE_CAP_STEPS_IMAGES = [20_000, 40_000] as const;

export function capCentsForImages(images: number): number {
  return Math.ceil(images / 1000) * OVERAGE_CENTS_PER_1000;
}

export const USAGE_TERMS = '$4.99 per 1,000 optimised images beyond the monthly plan quota, only when Overcharge is on';

export function centsToAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}

export function amountToCents(amount: string | number): number {
  return Math.round(Number(amount) * 100);
}

export function subscriptionName(level: number): string {
  const plan = planFor(level);
  return `${plan.name} ${plan.images.toLocaleString('en-US')} images per month`;
}

/**
 * The plan level a Shopify subscription stands for: by its recurring price (the undiscounted price Shopify
 * keeps on the line), else by the image count in its name. Null when it matches no plan.
 */
export function levelOfSubscription(sub: { name: string; recurringPriceCents: number | null }): number | null {
  if (sub.recurringPriceCents !== null) {
    const byPrice = PLANS.find((p) => p.level > 0 && p.priceCents === sub.recurringPriceCents);
    if (byPrice) return byPrice.level;
  }
  const byName = PLANS.find((p) => p.level > 0 && sub.name === subscriptionName(p.level));
  return byName ? byName.level : null;
}
