import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
// English, the shell's part: what every screen can show (the frame, navigation, errors, dialogs of the
// shell). Each feature's own strings come with its code (addEnglish, below); the Worker's error texts
// (`server`) with the first answer that carries one (api/error-text.ts: serverTextsFor).
import { common, contact, cookie, error, install, leave, nav, notFound, planLimit, screens, shell } from '../../locales/en.json';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, type LanguageCode } from '../../../shared/languages';

// admin/locales/<code>.json, one per language code. English (the fallback, and what shows before the
// shop's language is known) is in the first chunk; every other catalogue is a chunk of its own, fetched
// when the interface switches to that language (i18next.changeLanguage waits for it), so a merchant
// downloads their own language only (issue 26). Plain dynamic imports, not Vite's import.meta.glob: the
// Worker bundles this module too (its server render, worker/document-render.ts) with wrangler's esbuild.
const catalogues = {
  fr: () => import('../../locales/fr.json'),
  ge: () => import('../../locales/ge.json'),
  it: () => import('../../locales/it.json'),
  sp: () => import('../../locales/sp.json'),
  dut: () => import('../../locales/dut.json'),
  sv: () => import('../../locales/sv.json'),
  ja: () => import('../../locales/ja.json'),
  zh: () => import('../../locales/zh.json'),
  zh_hant: () => import('../../locales/zh_hant.json'),
  cs: () => import('../../locales/cs.json'),
  da: () => import('../../locales/da.json'),
  fi: () => import('../../locales/fi.json'),
  ko: () => import('../../locales/ko.json'),
  nb: () => import('../../locales/nb.json'),
  pl: () => import('../../locales/pl.json'),
  pt: () => import('../../locales/pt.json'),
  pt_BR: () => import('../../locales/pt_BR.json'),
  th: () => import('../../locales/th.json'),
  tr: () => import('../../locales/tr.json'),
  in: () => import('../../locales/in.json'),
} satisfies Record<Exclude<LanguageCode, 'en'>, () => Promise<{ default: ResourceKey }>>;
const lazyCatalogues: Partial<Record<string, () => Promise<{ default: ResourceKey }>>> = catalogues;

const catalogueBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    const load = lazyCatalogues[language];
    if (!load) return callback(null, {}); // en is bundled; anything else unknown has no catalogue
    load().then(
      (m) => callback(null, m.default),
      (e: unknown) => callback(e instanceof Error ? e : new Error(String(e)), false),
    );
  },
};

/**
 * English of the shell, then each feature's part as its code arrives (issue 26: first-screen JavaScript).
 * The whole English catalogue was a quarter of the entry chunk's compressed bytes, most of it strings of
 * screens the merchant is not on: a feature's module that uses `t('<part>.…')` imports its part's
 * `strings.ts` (e.g. image-opt/strings.ts), which hands it to addEnglish; tests/admin/english-parts.test.ts
 * holds every such file to it. (Vite and the Worker's esbuild keep only the named top-level keys.)
 */
const english: Record<string, ResourceKey> = {
  common,
  contact,
  cookie,
  error,
  install,
  leave,
  nav,
  notFound,
  planLimit,
  screens,
  shell,
};

const isBranch = (v: unknown): v is Record<string, ResourceKey> => typeof v === 'object' && v !== null;

/** Adds a part of the English catalogue (its top-level keys), before or after i18next starts. */
export function addEnglish(part: Record<string, ResourceKey>) {
  if (i18next.isInitializing || i18next.isInitialized) i18next.addResourceBundle('en', 'translation', part, true, true);
  else
    for (const [key, value] of Object.entries(part)) {
      const had = english[key];
      // a part may be some branches of a key (support/review-strings.ts): merged into what is there
      english[key] = isBranch(had) && isBranch(value) ? { ...had, ...value } : value;
    }
}

export function initI18n(language: LanguageCode = DEFAULT_LANGUAGE) {
  if (!i18next.isInitialized) {
    void i18next
      .use(catalogueBackend)
      .use(initReactI18next)
      .init({
        resources: { en: { translation: english } },
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
  const load = lazyCatalogues[language];
  if (!load || i18next.hasResourceBundle(language, 'translation')) return Promise.resolve();
  return load().then((m) => {
    if (!i18next.hasResourceBundle(language, 'translation')) i18next.addResourceBundle(language, 'translation', m.default);
  });
}

export { i18next };
