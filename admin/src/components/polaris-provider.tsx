import { AppProvider } from '@shopify/polaris';
import en from '@shopify/polaris/locales/en.json';
import { useAtomValue } from 'jotai';
import { useEffect, useState, type ReactNode } from 'react';
import { LANGUAGES } from '../../../shared/languages';
import { languageAtom } from '../state/atoms';

// Polaris's own strings (pagination, close buttons...) follow the interface language. Its catalogues
// are loaded on demand; Polaris has none for Indonesian, so `in` uses English for those few labels.
const polarisCatalogues = import.meta.glob<{ default: typeof en }>('../../../node_modules/@shopify/polaris/locales/*.json');

export function PolarisProvider({ children }: { children: ReactNode }) {
  const language = useAtomValue(languageAtom);
  const [i18n, setI18n] = useState<typeof en>(en);

  useEffect(() => {
    const polaris = LANGUAGES.find((l) => l.code === language)?.polaris ?? 'en';
    document.documentElement.lang = LANGUAGES.find((l) => l.code === language)?.html ?? 'en';
    const load = polarisCatalogues[`../../../node_modules/@shopify/polaris/locales/${polaris}.json`];
    if (!load) return setI18n(en);
    let cancelled = false;
    void load().then((m) => {
      if (!cancelled) setI18n(m.default);
    });
    return () => {
      cancelled = true;
    };
  }, [language]);

  return <AppProvider i18n={i18n}>{children}</AppProvider>;
}
