import { BlockStack, Box, InlineStack, Layout } from '@shopify/polaris';
import { Banner } from '../widgets/banner';
import { Page } from '../shell/page';
import { useNavigate } from '@tanstack/react-router';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../account/language-select';
import { PromoBanner, VideoCard } from '../page-speed/promo-and-video';
import { ScoreCard } from '../page-speed/score-card';
import { useEmbedStatus } from '../page-speed/use-embed-status';
import { ReauthorizeModal } from '../shell/reauthorize-modal';
import { ReviewBanner, useReviewBannerShown } from '../support/review-banner';
import { useFreshSettingInfo } from '../hooks/use-settings-info';
import { checkThemeAppExtension, getPricingPlans } from '../api/calls';
import { useApiQuery } from '../api/query';
import { GUIDE_OFFERED, isClosed, markClosed } from '../lib/session-flags';
import { MainSkeleton } from '../widgets/page-skeletons';
import { useAppConfig } from '../hooks/use-app-config';
import { formatNumber } from '../lib/intl';
import { Later } from '../hooks/use-later';
import { lazyPart } from '../hooks/lazy-part';
import { useWarmIntl } from '../hooks/use-warm-intl';
import '../page-speed/first-strings';

// The cards beside and below the score and the footer mount one transition after the first render
// (<Later>): their code is one chunk, fetched from here on while the first screen hydrates, and all of
// them show together once it is there (hooks/lazy-part.ts, issue 26).
const laterCards = () => import('../page-speed/later-cards');
const speedUp = lazyPart(() => laterCards().then((m) => m.SpeedUpCard));
const appEmbed = lazyPart(() => laterCards().then((m) => m.AppEmbedCard));
const faq = lazyPart(() => laterCards().then((m) => m.FaqCard));
const footer = lazyPart(() => laterCards().then((m) => m.AppFooterHelp));
void laterCards();

/** /main: the page speed dashboard. */
export function MainScreen() {
  const { t, i18n } = useTranslation();
  const merchants = useAppConfig().merchant_count;
  const navigate = useNavigate();
  const embed = useEmbedStatus();
  // Read again on every visit: review_tips is set by the server once the first optimisation has finished.
  const { info, answered: infoAnswered } = useFreshSettingInfo();
  // Previewing the hover preload needs the embed on: say so first.
  const [needsEmbed, setNeedsEmbed] = useState(false);
  const preview = () => {
    if (embed.loaded && !embed.on) return setNeedsEmbed(true);
    if (info?.shop_owner) window.open(`https://${info.shop_owner}`, '_blank', 'noopener');
  };
  // The banners above the cards (the new-user offer, the rating) depend on the shop's settings and its
  // pricing, the embed cards' text on the embed status: the page shows once these are answered (or
  // failed), so nothing pushes the cards down after they were painted (issue 26). The reads are the ones
  // PromoBanner and useEmbedStatus make (same keys, one request each), and the settings read above.
  const offerClosed = isClosed('promo_banner');
  const pricing = useApiQuery({
    key: ['pricingPlans'],
    call: getPricingPlans,
    select: () => true,
    enabled: !offerClosed,
    errorToast: false,
  });
  const embedRead = useApiQuery({
    key: ['themeAppExtension'],
    call: checkThemeAppExtension,
    select: () => true,
    errorToast: false,
  });
  // Once shown the page stays: a later read (a banner's own, a recheck) never brings the skeleton back.
  const [shown, setShown] = useState(false);
  // The first launch opens the set-up wizard (a shop that has not finished it, once per session: the
  // merchant who leaves the wizard for the dashboard is not sent back).
  const [firstLaunch] = useState(() => !isClosed(GUIDE_OFFERED));
  const openWizard = firstLaunch && !shown && infoAnswered && info?.new_guide_status === 1;
  useEffect(() => {
    if (!openWizard) return;
    markClosed(GUIDE_OFFERED);
    void navigate({ to: '/guidance', replace: true });
  }, [openWizard, navigate]);
  // One banner at a time: the embed warning the merchant's Preview asked for, then the rating (once the
  // first optimisation has finished), then the new-user offer.
  const reviewShown = useReviewBannerShown(!needsEmbed);
  useWarmIntl();
  const answered = !!info && infoAnswered && !openWizard && !embedRead.loading && (offerClosed || !pricing.loading);
  if (answered && !shown) setShown(true);
  // On the session's first launch nothing paints until the settings say whether the wizard opens: the
  // shell's tabs wait for the same answer, and a skeleton would be pushed down when they appear.
  if (!shown && !answered) return firstLaunch && (!infoAnswered || openWizard) ? null : <MainSkeleton title={t('main.title')} />;
  return (
    <Page
      title={t('main.title')}
      // 'forever free' shows to everyone; the merchant count only when configured (decisions.md "Claims").
      subtitle={
        merchants
          ? `${t('main.subtitle')} ${t('main.trustedBy', { count: formatNumber(merchants, i18n.language) })}`
          : t('main.subtitle')
      }
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
            <ReviewBanner when={!needsEmbed} />
            <PromoBanner when={!needsEmbed && !reviewShown} />
            <VideoCard onPreview={preview} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <ScoreCard />
        </Layout.Section>
        {/* What is beside and below the score mounts one transition later, in its own render and layout
            (hooks/use-later.ts, issue 26); its sections are there from the start, so nothing moves. */}
        <Layout.Section variant="oneHalf">
          <Later>
            <Suspense fallback={null}>
              <BlockStack gap="400">
                <speedUp.Part embed={embed} />
                <appEmbed.Part embed={embed} />
              </BlockStack>
            </Suspense>
          </Later>
        </Layout.Section>
        <Layout.Section>
          <Later>
            <Suspense fallback={null}>
              <faq.Part />
            </Suspense>
          </Later>
        </Layout.Section>
      </Layout>
      <Later>
        <Suspense fallback={null}>
          <InlineStack align="center">
            <footer.Part />
          </InlineStack>
        </Suspense>
      </Later>
    </Page>
  );
}
