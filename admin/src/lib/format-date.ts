// Dates in the merchant's interface language. Our language codes (ge, sp, dut, in, ...) are not all
// BCP 47 tags: the shared table maps each to the one the browser knows.
import { LANGUAGES } from '../../../shared/languages';

const tagOf = (language: string) => LANGUAGES.find((l) => l.code === language)?.html ?? 'en';

/** A calendar day (e.g. the next quota reset) in the merchant's language; '' when unknown. */
export function formatDay(value: number, language: string): string {
  if (!Number.isFinite(value) || value <= 0) return '';
  try {
    return new Date(value).toLocaleDateString(tagOf(language), { dateStyle: 'long' });
  } catch {
    return new Date(value).toLocaleDateString('en', { dateStyle: 'long' });
  }
}
