import type { TFunction } from 'i18next';
import { formatDay, formatPrice } from '../lib/intl';
import type { CurrentPrice } from './pricing-data';
import './strings';

/**
 * What the merchant pays, as Shopify bills it: "$3.99 for 3 months, then $4.99" while the subscription's
 * discount lasts ("... until March 1, 2027, then $4.99" in its last month), else "$4.99 per 30 days".
 * Prices and dates in the merchant's language.
 */
export function priceLine(current: CurrentPrice, t: TFunction, language: string, timeZone?: string): string {
  const price = formatPrice(current.price, language);
  if (current.discounted_price === null) return t('pricing.price.perPeriod', { price });
  const discounted = formatPrice(current.discounted_price, language);
  if (current.discount_months >= 2)
    return t('pricing.price.discountMonths', { discounted, months: current.discount_months, price });
  if (current.discount_until > 0)
    return t('pricing.price.discountUntil', { discounted, date: formatDay(current.discount_until, language, timeZone), price });
  return t('pricing.price.perPeriod', { price: discounted });
}
