import { Box, Button, InlineStack } from '@shopify/polaris';
import { EmptyState } from '../widgets/empty-state';
import { Outlet, useNavigate, useRouterState } from '@tanstack/react-router';
import { useAtom } from 'jotai';
import { startTransition, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getSettingInfo } from '../api/calls';
import { takeEarlySettingInfo } from '../api/early';
import { isEmbedded, readAuthToken } from '../api/auth';
import { useQueryClient } from '@tanstack/react-query';
import { ApiRequestError } from '../api/client';
import { okAnswer, RefusedError } from '../api/query';
import { useInAppLinks, useShopifyNavigate } from '../hooks/use-shopify-navigate';
import { i18next } from '../i18n';
import { inIframe, waitForAppBridge } from '../lib/app-bridge';
import { storageAvailable } from '../lib/storage';
import { GUIDE_OFFERED, isClosed } from '../lib/session-flags';
import { PUBLIC_PATHS, readsSessionOn, SESSION_LANGUAGE_PATHS } from './public-paths';
import { languageAtom, settingInfoAtom } from '../state/atoms';
import { isLanguageCode, languageFromShopLocale } from '../../../shared/languages';
import { ContactFormHost } from '../support/contact-form';
import { PlanLimitHost, ToastHost } from './lazy-hosts';
import { Frame } from './frame';
import { NavTabs } from './nav-tabs';
import { Page } from './page';
import { PHONE_WIDTH, useHydrated, useNarrow } from './viewport';

type NavItem = { path: string; labelKey: string };

// Top tabs (outside the admin frame) and the embedded navigation menu. Every merchant sees the whole
// product: is_old only means a missing access scope now.
export const NAV: NavItem[] = [
  { path: '/image_optimisation', labelKey: 'nav.imageOptimization' },
  { path: '/main', labelKey: 'nav.pageSpeed' },
  { path: '/setting', labelKey: 'nav.settings' },
  { path: '/pricing', labelKey: 'nav.pricing' },
  { path: '/recommended-apps', labelKey: 'nav.recommendation' },
];

/** 'waiting' while App Bridge may still arrive inside the admin iframe; then embedded or standalone. */
type SessionMode = 'waiting' | 'embedded' | 'standalone';

export function AppShell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const [settingInfo, setSettingInfo] = useAtom(settingInfoAtom);
  const [language, setLanguage] = useAtom(languageAtom);
  const [mode, setMode] = useState<SessionMode>(() => (isEmbedded() ? 'embedded' : inIframe() ? 'waiting' : 'standalone'));
  const [sessionRefused, setSessionRefused] = useState(false);
  const isPublic = PUBLIC_PATHS.includes(pathname);
  const smDown = useNarrow(PHONE_WIDTH);
  const hydrated = useHydrated();
  useShopifyNavigate(mode === 'embedded');
  useInAppLinks();
  const hasSession = !sessionRefused && (mode === 'embedded' || (mode === 'standalone' && readAuthToken() !== null));

  useEffect(() => {
    if (mode !== 'waiting') return;
    let cancelled = false;
    void waitForAppBridge().then((ready) => !cancelled && setMode(ready ? 'embedded' : 'standalone'));
    return () => {
      cancelled = true;
    };
  }, [mode]);

  // Standalone without a usable token and with storage blocked: cookies must be enabled first.
  useEffect(() => {
    if (mode === 'standalone' && !isPublic && !hasSession && !sessionRefused && !storageAvailable())
      void navigate({ to: '/cookieError' });
  }, [mode, isPublic, hasSession, sessionRefused, navigate]);

  // The session's first read, started as soon as the shell is up (before any screen's reads). One retry a
  // second later rides out a Worker restart; a refused token (401) means the session ended, anything else
  // persistent is the server error page. A refused answer (code not '200') changes nothing.
  const client = useQueryClient();
  // Public pages (404, privacy policy) read the session too when there is one, for the merchant's
  // language; they never need it, so a failure there changes nothing.
  const readsSession = readsSessionOn(pathname);
  useEffect(() => {
    if (!readsSession || settingInfo || !hasSession) return;
    let cancelled = false;
    client
      .fetchQuery({
        queryKey: ['settingInfo'],
        queryFn: () => okAnswer(takeEarlySettingInfo() ?? getSettingInfo()),
        retry: (failures, e) =>
          failures < 1 && !(e instanceof RefusedError) && !(e instanceof ApiRequestError && e.status === 401),
        retryDelay: 1000,
      })
      .then((body) => {
        const data = body.data;
        if (cancelled || !data) return;
        // In a transition: the shell and every screen that reads the settings render again, in slices
        // instead of one long task (issue 26).
        startTransition(() => {
          setSettingInfo(data);
          if (isLanguageCode(data.language)) setLanguage(data.language);
        });
      })
      .catch((e: unknown) => {
        if (cancelled || e instanceof RefusedError || isPublic) return;
        if (e instanceof ApiRequestError && e.status === 401) return setSessionRefused(true);
        void navigate({ to: '/error' });
      });
    return () => {
      cancelled = true;
    };
  }, [client, isPublic, readsSession, settingInfo, hasSession, navigate, setSettingInfo, setLanguage]);

  // Without a session (a public page opened from the listing), the language Shopify's launch query or
  // the browser names, mapped onto the 21 codes as shop locales are.
  useEffect(() => {
    if (!isPublic || hasSession || mode === 'waiting' || !SESSION_LANGUAGE_PATHS.includes(pathname)) return;
    const locale = new URLSearchParams(window.location.search).get('locale') ?? navigator.language;
    setLanguage(languageFromShopLocale(locale));
  }, [isPublic, hasSession, mode, pathname, setLanguage]);

  useEffect(() => {
    if (i18next.language !== language) void i18next.changeLanguage(language);
  }, [language]);

  const items = NAV;
  const selected = items.findIndex((n) => pathname.startsWith(n.path));
  // The session's first /main may send a shop that has not finished the wizard on to /guidance, which
  // has no tabs (screens/main.tsx): until its settings say it stays, the tabs wait, so they never paint
  // only to vanish and pull the page up (CLS 0.103 on a phone).
  const wizardMayOpen = pathname === '/main' && !isClosed(GUIDE_OFFERED) && (!settingInfo || settingInfo.new_guide_status === 1);
  const showTabs = mode === 'standalone' && !isPublic && pathname !== '/guidance' && !wizardMayOpen;

  let content = <Outlet />;
  if (!isPublic && mode === 'waiting') content = <></>;
  else if (!isPublic && !hasSession)
    content = (
      <Page>
        <EmptyState heading={t('shell.noSessionTitle')} image="">
          <p>{t('shell.noSessionBody')}</p>
        </EmptyState>
      </Page>
    );

  return (
    <Frame>
      {mode === 'embedded' && hydrated && (
        // App Bridge v4 renders this web component as the admin's left navigation. Not in the Worker's
        // render of the first screen: App Bridge (loaded before the body) may already have taken the
        // element over when React hydrates the page; the browser adds it right after.
        <ui-nav-menu>
          <a href="/main" rel="home">
            {t('nav.home')}
          </a>
          {items
            .filter((n) => n.path !== '/main')
            .map((n) => (
              <a key={n.path} href={n.path}>
                {t(n.labelKey)}
              </a>
            ))}
        </ui-nav-menu>
      )}
      {showTabs && hasSession && smDown && (
        // On a phone the five tabs do not fit one row (Polaris cut off Recommendation at 390 px): they
        // wrap instead, every one visible.
        <Box background="bg-surface" borderBlockEndWidth="025" borderColor="border" padding="200">
          <nav aria-label={t('nav.label')}>
            <InlineStack gap="100" wrap>
              {items.map((n, i) => (
                <Button key={n.path} variant="tertiary" pressed={i === selected} onClick={() => void navigate({ to: n.path })}>
                  {t(n.labelKey)}
                </Button>
              ))}
            </InlineStack>
          </nav>
        </Box>
      )}
      {showTabs && hasSession && !smDown && (
        <Box background="bg-surface" borderBlockEndWidth="025" borderColor="border">
          <InlineStack align="center">
            <NavTabs
              tabs={items.map((n) => ({ id: n.path.slice(1).replace(/\W/g, '-'), content: t(n.labelKey) }))}
              selected={selected} // -1 on pages outside the tabs (details, guidance): none is highlighted
              onSelect={(i) => {
                const target = items[i];
                if (target) void navigate({ to: target.path });
              }}
            />
          </InlineStack>
        </Box>
      )}
      {content}
      <ToastHost />
      <ContactFormHost />
      <PlanLimitHost onUpgrade={() => void navigate({ to: '/pricing' })} />
    </Frame>
  );
}
