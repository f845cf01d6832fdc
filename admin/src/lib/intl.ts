// Numbers, prices and dates in the merchant's interface language, through Intl. Our language codes (ge,
// sp, dut, in, ...) are not all BCP 47 tags: the shared table maps each to the tag the browser knows.
import { LANGUAGES } from '../../../shared/languages';

/** The BCP 47 tag of one of our 21 language codes ('en' for anything else). */
export const intlTag = (language: string): string => LANGUAGES.find((l) => l.code === language)?.html ?? 'en';

const num = (v: unknown) => (Number.isFinite(Number(v)) ? Number(v) : 0);

/**
 * A price in US dollars (Shopify bills apps in USD) as the merchant's language writes it: "$3.99" in
 * English, "3,99 $" in German, "US$3.99" where the language says so.
 */
export function formatPrice(amount: number | string | undefined, language: string): string {
  return new Intl.NumberFormat(intlTag(language), { style: 'currency', currency: 'USD' }).format(num(amount));
}

/** A count (images, pages) with the language's grouping: 1,000 / 1.000 / 1 000. */
export function formatNumber(value: number | string | undefined, language: string): string {
  return new Intl.NumberFormat(intlTag(language)).format(num(value));
}
