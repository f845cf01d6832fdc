import { BlockStack, Box, Card, Page, Spinner, Text } from '@shopify/polaris';
import { useRouter } from '@tanstack/react-router';
import { useSetAtom } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { installLanding } from '../api/calls';
import { openTop } from '../lib/app-bridge';
import { languageAtom } from '../state/atoms';
import { languageFromShopLocale } from '../../../shared/languages';

const FORWARDED = ['shop', 'hmac', 'host', 'locale', 'session', 'timestamp', 'embedded', 'id_token'] as const;

/**
 * /auth/install: spinner and welcome while GET /shopify/app decides (section 2): code 301 sends the
 * browser (top frame) to Shopify's authorize URL, 302 moves inside the app, anything else is only logged.
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
    const params = new URLSearchParams(window.location.search);
    setLanguage(languageFromShopLocale(params.get('locale')));
    const query: Record<string, string> = {};
    for (const key of FORWARDED) {
      const v = params.get(key);
      if (v !== null) query[key] = v;
    }
    installLanding(query)
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
