import { BlockStack, Box, Card, Spinner, Text } from '@shopify/polaris';
import { Page } from '../shell/page';
import { useRouter } from '@tanstack/react-router';
import { useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { installLanding } from '../api/calls';
import { openTop } from '../lib/app-bridge';
import { languageAtom } from '../state/atoms';
import { languageFromShopLocale } from '../../../shared/languages';

import { isLaunchQuery } from './launch-query';

export { isLaunchQuery };

/**
 * The launch screen (`/` with Shopify's launch query, and /auth/install): spinner and welcome while
 * GET /shopify/app decides. The query is forwarded exactly as Shopify sent it, so any
 * parameter Shopify adds keeps the HMAC valid. A new shop is installed there by token exchange and the
 * answer is 302 (move inside the app); 301 (standalone, no session token) sends the top frame to
 * Shopify's authorize URL; anything else is only logged.
 */
export function AuthInstallScreen() {
  const { t } = useTranslation();
  const router = useRouter();
  const setLanguage = useSetAtom(languageAtom);
  const [failed, setFailed] = useState(false);
  const asked = useRef(false);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    // The address bar as Shopify wrote it (the router's copy, for in-memory histories, only when it has none).
    const search = isLaunchQuery(window.location.search) ? window.location.search : router.state.location.searchStr;
    setLanguage(languageFromShopLocale(new URLSearchParams(search).get('locale')));
    installLanding(search)
      .then((body) => {
        const code = Number(body.code);
        if (code === 301 && body.url) return openTop(body.url);
        if (code === 302 && body.url) return router.history.replace(body.url);
        console.error('install landing: unexpected answer', body);
        setFailed(true);
      })
      .catch((e: unknown) => {
        console.error('install landing failed', e);
        setFailed(true);
      });
  }, [router, setLanguage]);

  return (
    <Page narrowWidth>
      <Card>
        <Box paddingBlock="1000">
          <BlockStack gap="400" inlineAlign="center">
            {!failed && <Spinner accessibilityLabel={t('install.loading')} size="large" />}
            <Text as="h1" variant="headingLg" alignment="center">
              {t('install.welcome')}
            </Text>
            <Text as="p" tone="subdued" alignment="center">
              {failed ? t('install.failed') : t('install.loading')}
            </Text>
          </BlockStack>
        </Box>
      </Card>
    </Page>
  );
}
