import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../locales/en.json';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, type LanguageCode } from '../../../shared/languages';

// admin/locales/<code>.json, one per language code. English (the fallback, and what shows before the
// shop's language is known) is in the first chunk; every other catalogue is a chunk of its own, fetched
// when the interface switches to that language (i18next.changeLanguage waits for it), so a merchant
// downloads their own language only (issue 26).
const lazyCatalogues = import.meta.glob<{ default: ResourceKey }>(['../../locales/*.json', '!../../locales/en.json']);

const catalogueBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = lazyCatalogues[`../../locales/${language}.json`];
    if (!load) return callback(null, {}); // en is bundled; anything else unknown has no catalogue
    load().then(
      (m) => callback(null, m.default),
      (e: unknown) => callback(e instanceof Error ? e : new Error(String(e)), false),
    );
  },
};

export function initI18n(language: LanguageCode = DEFAULT_LANGUAGE) {
  if (!i18next.isInitialized) {
    void i18next
      .use(catalogueBackend)
      .use(initReactI18next)
      .init({
        resources: { en: { translation: en } },
        partialBundledLanguages: true, // en from resources, the others through the backend
        lng: language,
        fallbackLng: DEFAULT_LANGUAGE,
        supportedLngs: LANGUAGE_CODES,
        load: 'currentOnly', // pt_BR is its own catalogue, not pt's
        interpolation: { escapeValue: false }, // React escapes
        returnNull: false,
        react: { useSuspense: false }, // keep showing the current language while the next one loads
      });
  }
  return i18next;
}

/**
 * Resolves once the catalogue of `language` is in i18next. Not i18next.loadLanguages: that resolves at
 * once for a language another caller already asked for, loaded or not (it only checks its preload list),
 * so a second waiter read English (the language toast did, while the Polaris provider waited too).
 */
export function catalogueReady(language: string): Promise<void> {
  const load = lazyCatalogues[`../../locales/${language}.json`];
  if (!load || i18next.hasResourceBundle(language, 'translation')) return Promise.resolve();
  return load().then((m) => {
    if (!i18next.hasResourceBundle(language, 'translation')) i18next.addResourceBundle(language, 'translation', m.default);
  });
}

export { i18next };
