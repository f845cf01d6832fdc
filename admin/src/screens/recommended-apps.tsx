import { BlockStack, Button, Card, InlineGrid, InlineStack, SkeletonBodyText, Text, Thumbnail } from '@shopify/polaris';
import { EmptyState } from '../widgets/empty-state';
import { Badge } from '../widgets/badge';
import { Page } from '../shell/page';
import { useLocation } from '@tanstack/react-router';
import { useState } from 'react';
import { formatNumber } from '../lib/intl';
import { useTranslation } from 'react-i18next';
import { getRecommendations } from '../api/calls';
import { useApiQuery } from '../api/query';
import { useSettingInfo } from '../hooks/use-settings-info';
import { useReadyInTransition } from '../hooks/use-later';
import { NavTabs } from '../shell/nav-tabs';
import { iframeSrc, readRecommendations, type PartnerApp, type Recommendations } from '../lib/recommendations';
import './recommend-strings';

const appId = () =>
  window.shopify?.config?.apiKey ?? document.querySelector<HTMLMetaElement>('meta[name="shopify-api-key"]')?.content ?? '';

/** /recommended-apps: the configured apps page (iframe) and the partner apps list. */
export function RecommendedAppsScreen() {
  const { t, i18n } = useTranslation();
  const info = useSettingInfo();
  // ?tab=partner-apps (the on-page SEO reference) opens the partner apps.
  const asked: unknown = useLocation({ select: (l) => (l.search as { tab?: unknown }).tab });
  const [tab, setTab] = useState(() => (asked === 'partner-apps' ? 1 : 0));
  // Titles and descriptions come in the shop's language: read again when the merchant switches it.
  const read = useApiQuery({
    key: ['recommendations', i18n.language],
    call: getRecommendations,
    select: (body) => readRecommendations(body.data),
    errorToast: false,
    keepPrevious: true,
  });
  // A failed read shows the empty tabs.
  const config: Recommendations | null = read.data ?? (read.error ? readRecommendations(null) : null);
  // The apps (and the iframe) render in a transition, not inside the synchronous update that brought them (issue 26).
  const shown = useReadyInTransition(config !== null);

  const tabs = [
    { id: 'all-apps', content: config?.iframe?.title || t('recommend.allApps') },
    { id: 'partner-apps', content: config?.partner.title || t('recommend.partnerApps') },
  ];

  return (
    <Page title={t('recommend.title')}>
      <Card padding="0">
        {/* Two fixed tabs: Polaris' markup without Polaris' Tabs and its measuring pass (issue 26). */}
        <NavTabs tabs={tabs} selected={tab} onSelect={setTab} />
        <div style={{ padding: 16 }}>
          {!config || !shown ? (
            <SkeletonBodyText lines={6} />
          ) : tab === 0 ? (
            config.iframe && info ? (
              <iframe
                title={tabs[0]?.content}
                src={iframeSrc(config.iframe.url, info.shop_owner, appId(), info.email)}
                style={{ width: '100%', height: 900, border: 0 }}
              />
            ) : (
              <EmptyState heading={t('recommend.empty')} image="" />
            )
          ) : config.partner.apps.length ? (
            <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
              {config.partner.apps.map((app) => (
                <PartnerCard key={app.url} app={app} />
              ))}
            </InlineGrid>
          ) : (
            <EmptyState heading={t('recommend.empty')} image="" />
          )}
        </div>
      </Card>
    </Page>
  );
}

function PartnerCard({ app }: { app: PartnerApp }) {
  const { t, i18n } = useTranslation();
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="300" blockAlign="center" wrap={false}>
          {app.icon && <Thumbnail source={app.icon} alt={app.name} size="small" />}
          <BlockStack gap="050">
            <Text as="h3" variant="headingSm">
              {app.name}
            </Text>
            <InlineStack gap="200" blockAlign="center">
              <Text as="span" tone="subdued">
                {`★ ${app.rating.toFixed(1)}`}
              </Text>
              <Text as="span" tone="subdued">
                {t('recommend.reviews', { count: formatNumber(app.reviews, i18n.language) })}
              </Text>
              {app.free && <Badge tone="success">{t('recommend.free')}</Badge>}
            </InlineStack>
          </BlockStack>
        </InlineStack>
        {app.description && <Text as="p">{app.description}</Text>}
        <InlineStack>
          <Button url={app.url} external>
            {t('recommend.view')}
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}
