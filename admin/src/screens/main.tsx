import { Banner, BlockStack, Box, InlineStack, Layout, Page } from '@shopify/polaris';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppFooterHelp } from '../support/footer-help';
import { LanguageSelect } from '../account/language-select';
import { AppEmbedCard, SpeedUpCard } from '../page-speed/embed-cards';
import { FaqCard } from '../page-speed/faq-card';
import { PromoBanner, VideoCard } from '../page-speed/promo-and-video';
import { ScoreCard } from '../page-speed/score-card';
import { useEmbedStatus } from '../page-speed/use-embed-status';
import { ReauthorizeModal } from '../shell/reauthorize-modal';
import { ReviewBanner } from '../support/review-banner';
import { useSettingInfo } from '../hooks/use-settings-info';

/** /main: the page speed dashboard. */
export function MainScreen() {
  const { t } = useTranslation();
  const embed = useEmbedStatus();
  const info = useSettingInfo();
  // Previewing the hover preload needs the embed on: say so first.
  const [needsEmbed, setNeedsEmbed] = useState(false);
  const preview = () => {
    if (embed.loaded && !embed.on) return setNeedsEmbed(true);
    if (info?.shop_owner) window.open(`https://${info.shop_owner}`, '_blank', 'noopener');
  };
  return (
    <Page
      title={t('main.title')}
      subtitle={t('main.subtitle')} // 'forever free' shows to everyone
      secondaryActions={
        <Box minWidth="180px">
          <LanguageSelect labelHidden />
        </Box>
      }
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <ReauthorizeModal />
            {needsEmbed && !embed.on && (
              <Banner
                tone="warning"
                onDismiss={() => setNeedsEmbed(false)}
                action={{ content: t('main.embed.settings'), onAction: () => (setNeedsEmbed(false), embed.openEditor()) }}
              >
                <p>{t('main.embed.required')}</p>
              </Banner>
            )}
            <PromoBanner />
            <ReviewBanner />
            <VideoCard onPreview={preview} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <ScoreCard />
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <BlockStack gap="400">
            <SpeedUpCard embed={embed} />
            <AppEmbedCard embed={embed} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section>
          <FaqCard />
        </Layout.Section>
      </Layout>
      <InlineStack align="center">
        <AppFooterHelp />
      </InlineStack>
    </Page>
  );
}
