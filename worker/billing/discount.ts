// The new-user discount offer (terms.ts): 20 % for the first 3 months, offered for 72 hours after
// install to shops that never had a paid plan. rebate_info of getPricingPlans is computed here.
import type { ShopRow } from '../db/shops';
import { DISCOUNT_MONTHS, DISCOUNT_OFFER_WINDOW_MS, DISCOUNT_RATE } from './terms';

type OfferShop = Pick<ShopRow, 'planLevel' | 'discountExpiresAt' | 'installedAt' | 'createdAt'>;

/** When the offer ends: stored once it is used up (or set by support), else 72 h after install. */
export function discountOfferEndsAt(shop: OfferShop): number {
  return shop.discountExpiresAt ?? (shop.installedAt ?? shop.createdAt) + DISCOUNT_OFFER_WINDOW_MS;
}

export function canDiscount(shop: OfferShop, now: number): boolean {
  return shop.planLevel === 0 && discountOfferEndsAt(shop) > now;
}

/** rebate_info: expired_time (unix ms, 0 when no offer), rate (percent off), discount_period (months). */
export function rebateInfo(shop: OfferShop, now: number) {
  const active = canDiscount(shop, now);
  return {
    expired_time: active ? discountOfferEndsAt(shop) : 0,
    rate: Math.round(DISCOUNT_RATE * 100),
    discount_period: DISCOUNT_MONTHS,
  };
}
