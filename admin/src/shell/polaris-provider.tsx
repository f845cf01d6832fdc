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
// except the ones our catalogues carry (withOurs).
const polarisCatalogues = import.meta.glob<{ default: typeof en }>('../../../node_modules/@shopify/polaris/locales/*.json');

/**
 * Polaris's catalogue with the strings a merchant meets first taken from ours, so they are translated in
 * all 21 languages (Polaris has no Indonesian): the frame's "Skip to content" link.
 */
function withOurs(catalogue: typeof en, language: string): typeof en {
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
  const [i18n, setI18n] = useState<typeof en>(() => withOurs(en, language));
  // The language the catalogue in state was built for: English is bundled and built at the first render,
  // so the first effect need not build it again (a new catalogue makes every Polaris component that reads
  // one render again, synchronously: a 50-90 ms task on a phone, issue 26).
  const builtFor = useRef(language);

  useEffect(() => {
    const polaris = LANGUAGES.find((l) => l.code === language)?.polaris ?? 'en';
    document.documentElement.lang = LANGUAGES.find((l) => l.code === language)?.html ?? 'en';
    if (polaris === 'en' && builtFor.current === language) return;
    const load = polarisCatalogues[`../../../node_modules/@shopify/polaris/locales/${polaris}.json`];
    // Our catalogue of that language is fetched on use too (i18n/index.ts): wait for both, or the skip
    // link would keep English when Polaris's catalogue arrives first.
    let cancelled = false;
    void Promise.all([load ? load().then((m) => m.default) : en, catalogueReady(language)]).then(([catalogue]) => {
      if (cancelled) return;
      builtFor.current = language;
      setI18n(withOurs(catalogue, language));
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
