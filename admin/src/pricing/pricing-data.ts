import type { PricingData as WirePricingData, PricingPlan as WirePricingPlan } from '../../../shared/api/billing';
import type { PricingPlan } from '../lib/plan-stepping';

// The data of GET /api/v1/getPricingPlans.
export type PricingData = {
  plans: PricingPlan[];
  level: number;
  /** The usage cap in dollars per 30 days (0: no capped usage line), and the next one Shopify can approve (0: none). */
  capped_amount: number;
  next_capped_amount: number;
  canDiscount: boolean;
  rebate_info: { expired_time: number | string; rate: number; discount_period: number };
  img_usage_use: number;
  img_usage_all: number;
  impressions_use: number;
  impressions_all: number;
  precent: number;
  total: { un_opt_num: number; total_saved_size: number; total_opt_num: number };
  /** When the monthly quota starts again (epoch ms), 0 when unknown. */
  next_reset_at: number;
  /** What the active paid plan bills per 30 days, with Shopify's discount while it lasts; null on Free. */
  current_price: CurrentPrice | null;
};

export type CurrentPrice = { price: number; discounted_price: number | null; discount_months: number; discount_until: number };

const num = (v: unknown, fallback = 0) => (Number.isFinite(Number(v)) ? Number(v) : fallback);

/** The answer as it may arrive: any field may be missing (an older Worker, a test's partial answer). */
export type PricingAnswer = Partial<Omit<WirePricingData, 'plans' | 'rebate_info' | 'total' | 'current_price'>> & {
  current_price?: Partial<NonNullable<WirePricingData['current_price']>> | null;
  plans?: Partial<WirePricingPlan>[];
  rebate_info?: Partial<WirePricingData['rebate_info']>;
  total?: Partial<WirePricingData['total']>;
};

/** Normalises the answer: numbers from strings (prices come as '4.99'), and a level on every plan (its index when absent). */
export function readPricing(d: PricingAnswer | null | undefined): PricingData | null {
  if (!d || typeof d !== 'object') return null;
  const rebate = d.rebate_info ?? {};
  const total = d.total ?? {};
  return {
    plans: (Array.isArray(d.plans) ? d.plans : []).map((p, i) => ({
      level: num(p.level, i),
      name: String(p.name ?? ''),
      impressions: num(p.impressions),
      price: num(p.price),
      discount_mPrice: p.discount_mPrice === undefined ? undefined : num(p.discount_mPrice),
      proportion: p.proportion === undefined ? undefined : num(p.proportion),
    })),
    level: num(d.level),
    capped_amount: num(d.capped_amount),
    next_capped_amount: num(d.next_capped_amount),
    canDiscount: d.canDiscount === true,
    rebate_info: { expired_time: rebate.expired_time ?? 0, rate: num(rebate.rate), discount_period: num(rebate.discount_period) },
    img_usage_use: num(d.img_usage_use),
    img_usage_all: num(d.img_usage_all),
    impressions_use: num(d.impressions_use),
    impressions_all: num(d.impressions_all),
    precent: num(d.precent),
    total: {
      un_opt_num: num(total.un_opt_num),
      total_saved_size: num(total.total_saved_size),
      total_opt_num: num(total.total_opt_num),
    },
    next_reset_at: num(d.next_reset_at),
    current_price: readCurrentPrice(d.current_price),
  };
}

function readCurrentPrice(c: PricingAnswer['current_price']): CurrentPrice | null {
  if (!c || typeof c !== 'object' || c.price === undefined) return null;
  const discounted = c.discounted_price === null || c.discounted_price === undefined ? null : num(c.discounted_price);
  return {
    price: num(c.price),
    discounted_price: discounted !== null && discounted < num(c.price) ? discounted : null,
    discount_months: num(c.discount_months),
    discount_until: num(c.discount_until),
  };
}
