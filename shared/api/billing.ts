// Responses of the pricing and plan calls (getPricingPlans, changePlans, raiseOverageCap, getImageSyncStatus).

export type PricingPlan = {
  level: number;
  name: string;
  /** Images per month included in the plan. */
  impressions: number;
  /** Price per 30 days, dollars with two decimals. */
  price: string;
  /** Price per 30 days during the new-user discount (equal to price when no discount applies). */
  discount_mPrice: string;
  /** The share of the price paid: 0.8 during the 20 % discount, 1 otherwise (0 for the free plan). */
  proportion: number;
};

/** The new-user discount: when it ends (epoch ms, 0 when none), its rate in percent and months. */
export type RebateInfo = { expired_time: number; rate: number; discount_period: number };

/**
 * What the active paid plan bills per 30 days, as Shopify bills it: the plan's `price` and, while the
 * subscription's discount lasts, `discounted_price` with the number of 30-day periods still billed at it
 * (`discount_months`, 0 when indefinite) and when the last one ends (`discount_until`, epoch ms, 0 when
 * indefinite). No discount: `discounted_price` null. Null on the Free plan.
 */
export type CurrentPrice = {
  price: string;
  discounted_price: string | null;
  discount_months: number;
  discount_until: number;
};

export type PricingData = {
  plans: PricingPlan[];
  level: number;
  canDiscount: boolean;
  rebate_info: RebateInfo;
  /** Plan images used / included this period. */
  img_usage_use: number;
  img_usage_all: number;
  /** Overage images charged / allowed by the cap this period. */
  impressions_use: number;
  impressions_all: number;
  /** Percent of the plan's images used (the documented spelling). */
  precent: number;
  next_reset_at: number;
  is_capped: number;
  /** The usage cap in dollars, and the next one the merchant can ask Shopify for (0: none higher). */
  capped_amount: number;
  next_capped_amount: number;
  is_over_quota: number;
  pending_level: number | null;
  current_price: CurrentPrice | null;
  total: { un_opt_num: number; total_saved_size: number; total_opt_num: number };
};

/** changePlans: Shopify's confirmation URL ('' for a downgrade to free), at the top level and under data. */
export type PlanChange = { url: string; level: number };
/** raiseOverageCap: the approval URL and the cap asked for. */
export type CapRaise = { url: string; capped_amount: number };

/** getImageSyncStatus: the admin polls every 3 s until imageSync is true. */
export type ImageSyncStatus = { imageSync: boolean; imageCount: number; status: string };
