// The new-user discount offer (terms.ts): by default 20 % for the first 3 months, offered for 72 hours after
// install to shops that never had a paid plan. rebate_info of getPricingPlans is computed here.
import type { ShopRow } from '../db/shops';
import { DISCOUNT_OFFER_WINDOW_MS, type NewUserOffer } from './terms';

type OfferShop = Pick<ShopRow, 'planLevel' | 'discountExpiresAt' | 'installedAt' | 'createdAt'>;

/** When the offer ends: stored once it is used up (or set by support), else 72 h after install. */
export function discountOfferEndsAt(shop: OfferShop): number {
  return shop.discountExpiresAt ?? (shop.installedAt ?? shop.createdAt) + DISCOUNT_OFFER_WINDOW_MS;
}

/** The shop is within its offer window (whatever the offer is). */
export function canDiscount(shop: OfferShop, now: number): boolean {
  return shop.planLevel === 0 && discountOfferEndsAt(shop) > now;
}

/** The offer this shop gets on a new subscription now, or null (outside its window, or no offer configured). */
export function activeOffer(shop: OfferShop, now: number, offer: NewUserOffer): NewUserOffer | null {
  return offer.rate > 0 && canDiscount(shop, now) ? offer : null;
}

/** rebate_info: expired_time (unix ms, 0 when no offer), rate (percent off), discount_period (months). */
export function rebateInfo(shop: OfferShop, now: number, offer: NewUserOffer) {
  const active = activeOffer(shop, now, offer) !== null;
  return {
    expired_time: active ? discountOfferEndsAt(shop) : 0,
    rate: Math.round(offer.rate * 100),
    discount_period: offer.months,
  };
}
