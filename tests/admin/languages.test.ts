import { describe, expect, it } from 'vitest';
import { LANGUAGE_CODES, languageFromShopLocale } from '../../shared/languages';

describe('shop locale mapping', () => {
  it('has the 21 documented codes', () => {
    expect(LANGUAGE_CODES).toHaveLength(21);
    expect(LANGUAGE_CODES).toEqual(expect.arrayContaining(['ge', 'sp', 'dut', 'in', 'pt_BR', 'zh_hant']));
  });

  it.each([
    ['de', 'ge'],
    ['es', 'sp'],
    ['nl', 'dut'],
    ['id', 'in'],
    ['pt-BR', 'pt_BR'],
    ['pt-PT', 'pt'],
    ['zh-CN', 'zh'],
    ['zh-TW', 'zh_hant'],
    ['fr', 'fr'],
    ['ja', 'ja'],
    ['de-CH', 'ge'],
    ['en-GB', 'en'],
    ['xx', 'en'],
    ['', 'en'],
    [null, 'en'],
  ])('%s -> %s', (locale, code) => {
    expect(languageFromShopLocale(locale)).toBe(code);
  });
});
