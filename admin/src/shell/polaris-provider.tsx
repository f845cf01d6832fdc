import { AppProvider } from '@shopify/polaris';
import en from '@shopify/polaris/locales/en.json';
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { IN_APP_NAVIGATE } from '../hooks/use-shopify-navigate';
import { LANGUAGES } from '../../../shared/languages';
import { languageAtom } from '../state/atoms';
import { catalogueReady, i18next } from '../i18n';

// Polaris's own strings (pagination, close buttons...) follow the interface language. Its catalogues
// are loaded on demand; Polaris has none for Indonesian, so `in` uses English for those few labels,
// except the ones our catalogues carry (withOurs). Plain dynamic imports (not import.meta.glob): the
// Worker's server render bundles this module with esbuild (worker/document-render.ts).
type PolarisCatalogue = typeof en;
const polarisCatalogues = {
  fr: () => import('@shopify/polaris/locales/fr.json'),
  de: () => import('@shopify/polaris/locales/de.json'),
  it: () => import('@shopify/polaris/locales/it.json'),
  es: () => import('@shopify/polaris/locales/es.json'),
  nl: () => import('@shopify/polaris/locales/nl.json'),
  sv: () => import('@shopify/polaris/locales/sv.json'),
  ja: () => import('@shopify/polaris/locales/ja.json'),
  'zh-CN': () => import('@shopify/polaris/locales/zh-CN.json'),
  'zh-TW': () => import('@shopify/polaris/locales/zh-TW.json'),
  cs: () => import('@shopify/polaris/locales/cs.json'),
  da: () => import('@shopify/polaris/locales/da.json'),
  fi: () => import('@shopify/polaris/locales/fi.json'),
  ko: () => import('@shopify/polaris/locales/ko.json'),
  nb: () => import('@shopify/polaris/locales/nb.json'),
  pl: () => import('@shopify/polaris/locales/pl.json'),
  'pt-PT': () => import('@shopify/polaris/locales/pt-PT.json'),
  'pt-BR': () => import('@shopify/polaris/locales/pt-BR.json'),
  th: () => import('@shopify/polaris/locales/th.json'),
  tr: () => import('@shopify/polaris/locales/tr.json'),
} satisfies Record<Exclude<(typeof LANGUAGES)[number]['polaris'], 'en'>, () => Promise<{ default: PolarisCatalogue }>>;

/** Polaris catalogues loaded so far, by Polaris code: the provider's first render takes its language's from here. */
const loadedPolaris = new Map<string, PolarisCatalogue>([['en', en]]);

const polarisCode = (language: string) => LANGUAGES.find((l) => l.code === language)?.polaris ?? 'en';

/**
 * Loads Polaris' catalogue of an interface language (and ours, for withOurs), so that a provider
 * rendered after this resolves renders in that language at once: the admin waits for it before its first
 * render, and so does the Worker before it renders the first screen (the two renders must agree).
 */
export async function polarisCatalogueReady(language: string): Promise<void> {
  const code = polarisCode(language);
  const load = (polarisCatalogues as Partial<Record<string, () => Promise<{ default: PolarisCatalogue }>>>)[code];
  const [catalogue] = await Promise.all([
    loadedPolaris.get(code) ?? (load ? load().then((m) => m.default) : en),
    catalogueReady(language),
  ]);
  loadedPolaris.set(code, catalogue);
}

/** The language's Polaris catalogue when it and ours are both loaded (polarisCatalogueReady), else undefined. */
function loadedFor(language: string): PolarisCatalogue | undefined {
  const ours = language === 'en' || i18next.hasResourceBundle(language, 'translation');
  return ours ? loadedPolaris.get(polarisCode(language)) : undefined;
}

/**
 * Polaris's catalogue with the strings a merchant meets first taken from ours, so they are translated in
 * all 21 languages (Polaris has no Indonesian): the frame's "Skip to content" link.
 */
function withOurs(catalogue: PolarisCatalogue, language: string): PolarisCatalogue {
  const t = i18next.getFixedT(language);
  return {
    ...catalogue,
    Polaris: {
      ...catalogue.Polaris,
      Frame: { ...catalogue.Polaris.Frame, skipToContent: t('shell.skipToContent') },
    },
  };
}

export function PolarisProvider({ children }: { children: ReactNode }) {
  const language = useAtomValue(languageAtom);
  // The language's catalogue when it is loaded (polarisCatalogueReady), English otherwise.
  const [i18n, setI18n] = useState<PolarisCatalogue>(() => {
    const loaded = loadedFor(language);
    return withOurs(loaded ?? en, loaded ? language : 'en');
  });
  // The language the catalogue in state was built for: the first render builds it, so the first effect
  // need not build it again (a new catalogue makes every Polaris component that reads one render again,
  // synchronously: a 50-90 ms task on a phone, issue 26).
  const builtFor = useRef(loadedFor(language) ? language : 'en');

  useEffect(() => {
    document.documentElement.lang = LANGUAGES.find((l) => l.code === language)?.html ?? 'en';
    if (builtFor.current === language) return;
    // Our catalogue of that language is fetched on use too (i18n/index.ts): wait for both, or the skip
    // link would keep English when Polaris's catalogue arrives first.
    let cancelled = false;
    void polarisCatalogueReady(language).then(() => {
      if (cancelled) return;
      builtFor.current = language;
      setI18n(withOurs(loadedPolaris.get(polarisCode(language)) ?? en, language));
    });
    return () => {
      cancelled = true;
    };
  }, [language]);

  return (
    <AppProvider i18n={i18n} linkComponent={AppLink}>
      {children}
    </AppProvider>
  );
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { url: string; external?: boolean; children?: ReactNode };

/**
 * Polaris renders every `url` (Link, Button) through this. A path of the app moves inside the app (the
 * router, via the shell), with no full page load that would drop the admin's `host` and session; other
 * origins, new tabs and modified clicks behave as plain links.
 */
export function AppLink({ url, external, children, ...rest }: LinkProps) {
  const internal = url.startsWith('/') && !url.startsWith('//') && !external && !rest.target && !rest.download;
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    rest.onClick?.(e);
    if (!internal || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    document.dispatchEvent(new CustomEvent(IN_APP_NAVIGATE, { detail: url }));
  };
  return (
    <a {...rest} href={url} onClick={onClick} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
      {children}
    </a>
  );
}
