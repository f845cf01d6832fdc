// The 21 interface languages with the codes the API stores, their names in
// their own language for the selectors, and the mapping from Shopify shop locales.
export const LANGUAGES = [
  { code: 'en', name: 'English', polaris: 'en', html: 'en' },
  { code: 'fr', name: 'Français', polaris: 'fr', html: 'fr' },
  { code: 'ge', name: 'Deutsch', polaris: 'de', html: 'de' },
  { code: 'it', name: 'Italiano', polaris: 'it', html: 'it' },
  { code: 'sp', name: 'Español', polaris: 'es', html: 'es' },
  { code: 'dut', name: 'Nederlands', polaris: 'nl', html: 'nl' },
  { code: 'sv', name: 'Svenska', polaris: 'sv', html: 'sv' },
  { code: 'ja', name: '日本語', polaris: 'ja', html: 'ja' },
  { code: 'zh', name: '简体中文', polaris: 'zh-CN', html: 'zh-CN' },
  { code: 'zh_hant', name: '繁體中文', polaris: 'zh-TW', html: 'zh-TW' },
  { code: 'cs', name: 'Čeština', polaris: 'cs', html: 'cs' },
  { code: 'da', name: 'Dansk', polaris: 'da', html: 'da' },
  { code: 'fi', name: 'Suomi', polaris: 'fi', html: 'fi' },
  { code: 'ko', name: '한국어', polaris: 'ko', html: 'ko' },
  { code: 'nb', name: 'Norsk bokmål', polaris: 'nb', html: 'nb' },
  { code: 'pl', name: 'Polski', polaris: 'pl', html: 'pl' },
  { code: 'pt', name: 'Português (Portugal)', polaris: 'pt-PT', html: 'pt-PT' },
  { code: 'pt_BR', name: 'Português (Brasil)', polaris: 'pt-BR', html: 'pt-BR' },
  { code: 'th', name: 'ไทย', polaris: 'th', html: 'th' },
  { code: 'tr', name: 'Türkçe', polaris: 'tr', html: 'tr' },
  { code: 'in', name: 'Bahasa Indonesia', polaris: 'en', html: 'id' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export const LANGUAGE_CODES = LANGUAGES.map<LanguageCode>((l) => l.code);
export const DEFAULT_LANGUAGE: LanguageCode = 'en';

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && (LANGUAGE_CODES as string[]).includes(value);
}

const SHOP_LOCALE_MAP: Record<string, LanguageCode> = {
  de: 'ge',
  es: 'sp',
  nl: 'dut',
  id: 'in',
  'pt-br': 'pt_BR',
  'pt-pt': 'pt',
  'zh-cn': 'zh',
  'zh-tw': 'zh_hant',
};

/**
 * Maps a Shopify shop locale (de, pt-BR, zh-TW, ...) to an interface language: the documented
 * exceptions, then the locale itself or its base language, then English.
 */
export function languageFromShopLocale(locale: string | null | undefined): LanguageCode {
  if (!locale) return DEFAULT_LANGUAGE;
  const lower = locale.trim().replace('_', '-').toLowerCase();
  if (SHOP_LOCALE_MAP[lower]) return SHOP_LOCALE_MAP[lower];
  if (isLanguageCode(lower)) return lower;
  const base = lower.split('-')[0] ?? '';
  if (SHOP_LOCALE_MAP[base]) return SHOP_LOCALE_MAP[base];
  if (base === 'pt') return 'pt';
  if (base === 'zh') return 'zh';
  return isLanguageCode(base) ? base : DEFAULT_LANGUAGE;
}
