// getPricingPlans data.
import type { Db } from '../db/client';
import { shopImageTotals } from '../db/images';
import { getImageSettings } from '../db/image-settings';
import type { ShopRow } from '../db/shops';
import { PLANS, planFor } from '../../shared/plans';
import { activeOffer, rebateInfo } from './discount';
import { quotaStatus } from './quota';
import { nextCapStep } from './overage';
import { capCentsForImages, centsToAmount, type NewUserOffer } from './terms';
import type { CurrentPrice, PricingData, PricingPlan } from '../../shared/api/billing';

export type { PricingPlan };

const INTERVAL_MS = 30 * 24 * 60 * 60 * 1000;

/** The active plan's price per 30 days and the discount Shopify bills on it while it lasts. */
export function currentPrice(
  shop: Pick<ShopRow, 'planLevel' | 'subscriptionDiscountCents' | 'subscriptionDiscountUntil'>,
  now: number,
): CurrentPrice | null {
  if (shop.planLevel <= 0) return null;
  const price = centsToAmount(planFor(shop.planLevel).priceCents);
  const cents = shop.subscriptionDiscountCents;
  const until = shop.subscriptionDiscountUntil;
  if (cents === null || (until !== null && until <= now))
    return { price, discounted_price: null, discount_months: 0, discount_until: 0 };
  return {
    price,
    discounted_price: centsToAmount(cents),
    // Whole 30-day periods still billed at the discounted price (a part-period counts: it is billed so).
    discount_months: until === null ? 0 : Math.ceil((until - now) / INTERVAL_MS),
    discount_until: until ?? 0,
  };
}

/** getPricingPlans: `offer` is the configured new-user offer (newUserOffer(env)), the one billing applies. */
export async function pricingData(db: Db, shop: ShopRow, offer: NewUserOffer, now = Date.now()): Promise<PricingData> {
  const active = activeOffer(shop, now, offer);
  const discount = active !== null;
  const factor = active ? 1 - active.rate : 1;
  const plans: PricingPlan[] = PLANS.map((p) => ({
    level: p.level,
    name: p.name,
    impressions: p.images,
    price: centsToAmount(p.priceCents),
    discount_mPrice: centsToAmount(Math.round(p.priceCents * (p.level > 0 ? factor : 1))),
    proportion: p.level > 0 ? factor : 0,
  }));
  // The same totals as the image page's getImgOptTotal: one definition of "not optimised yet"
  // (shopImageTotals over the image kinds the settings include). Read here, not through the history
  // view, so billing does not depend on the history area (which shows billing's quota).
  const [quota, t] = await Promise.all([
    quotaStatus(db, shop, now),
    getImageSettings(db, shop.id).then((settings) => shopImageTotals(db, shop.id, settings.image_opt)),
  ]);
  const planUsed = Math.min(quota.used, quota.planImages);
  return {
    plans,
    level: shop.planLevel,
    canDiscount: discount,
    rebate_info: rebateInfo(shop, now, offer),
    // Plan images used / included this period.
    img_usage_use: planUsed,
    img_usage_all: quota.planImages,
    // "impressions" usage: overage images charged / allowed by the cap this period (see quota.ts).
    impressions_use: quota.overageUsed,
    impressions_all: quota.overageAllowance,
    // Percent of the plan's images used (the pricing progress bar: orange above 50, red above 90).
    precent: quota.planImages > 0 ? Math.round((planUsed / quota.planImages) * 10000) / 100 : 0,
    next_reset_at: quota.nextResetAt,
    is_capped: quota.isCapped ? 1 : 0,
    // The usage cap in dollars, and the next one the merchant can ask Shopify for (0: none higher).
    capped_amount: shop.cappedAmountCents / 100,
    next_capped_amount: (() => {
      const step = nextCapStep(shop);
      return step === null ? 0 : capCentsForImages(step) / 100;
    })(),
    is_over_quota: quota.isOverQuota ? 1 : 0,
    pending_level: shop.pendingPlanLevel,
    current_price: currentPrice(shop, now),
    total: {
      un_opt_num: t.unOptNum,
      total_saved_size: Math.max(0, t.originalSize - t.compressSize),
      total_opt_num: t.optNum,
    },
  };
}
