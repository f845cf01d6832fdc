import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, type LanguageCode } from '../../../shared/languages';

// Every catalogue is bundled (they are small); admin/locales/<code>.json, one per language code.
const catalogues = import.meta.glob<{ default: Record<string, unknown> }>('../../locales/*.json', { eager: true });

const resources = Object.fromEntries(
  LANGUAGE_CODES.map((code) => [code, { translation: catalogues[`../../locales/${code}.json`]?.default ?? {} }]),
);

export function initI18n(language: LanguageCode = DEFAULT_LANGUAGE) {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources,
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: LANGUAGE_CODES,
      interpolation: { escapeValue: false }, // React escapes
      returnNull: false,
    });
  }
  return i18next;
}

export { i18next };
