import { describe, expect, it } from 'vitest';
import {
  formatDateTime,
  formatDay,
  formatNumber,
  formatPercent,
  formatPrice,
  formatSize,
  intlTag,
} from '../../../admin/src/lib/intl';

// Our language codes are not all BCP 47 tags (ge, sp, dut, in): each formats as its own language.
const nbsp = (s: string) => s.replace(/\u00a0|\u202f/g, ' ');
const moment = Date.UTC(2026, 10, 27, 14, 5);

describe('Intl in the merchant language', () => {
  it('maps every code to a tag the browser knows', () => {
    expect([intlTag('ge'), intlTag('sp'), intlTag('dut'), intlTag('in'), intlTag('zh_hant'), intlTag('xx')]).toEqual([
      'de',
      'es',
      'nl',
      'id',
      'zh-TW',
      'en',
    ]);
  });

  it('German reads German: prices, counts, sizes, percentages, dates', () => {
    expect(nbsp(formatPrice('3.99', 'ge'))).toBe('3,99 $');
    expect(formatNumber(11000, 'ge')).toBe('11.000');
    expect(formatSize(1048575, 'ge')).toBe('1.024,00 KB');
    expect(nbsp(formatPercent(45.12, 'ge'))).toBe('45,12 %');
    expect(formatDay(moment, 'ge')).toBe('27. November 2026');
    expect(formatDateTime(moment, 'ge')).toMatch(/^2[78]\.11\.2026, \d\d:\d\d$/);
  });

  it('English and Japanese stay as they were; unknown values give nothing or zero', () => {
    expect(formatPrice(4.99, 'en')).toBe('$4.99');
    expect(formatPrice(4.99, 'ja')).toBe('$4.99');
    expect(formatSize(5 * 1048576, 'en')).toBe('5.00 MB');
    expect(formatPercent(50.9, 'en')).toBe('50.90%');
    expect(formatDateTime('not a date', 'en')).toBe('');
    expect(formatDay(0, 'en')).toBe('');
    expect(formatPrice(undefined, 'en')).toBe('$0.00');
  });
});
