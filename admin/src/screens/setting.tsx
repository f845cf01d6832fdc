import { BlockStack, Box, Card, Layout, Link, SkeletonBodyText, Text } from '@shopify/polaris';
import { Page } from '../shell/page';
import { useNavigate } from '@tanstack/react-router';
import { startTransition, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AdminTokensCard } from '../account/admin-tokens-card';
import { LanguageSelect } from '../account/language-select';
import { OverchargeSetting } from '../pricing/overcharge-setting';
import { useSettingInfo } from '../hooks/use-settings-info';
import { useReadyInTransition } from '../hooks/use-later';
import { SectionMenu } from '../widgets/section-menu';
import { useWarmIntl } from '../hooks/use-warm-intl';
import '../account/strings';

type Section = 'account' | 'images';

// The image settings (the whole settings form, about 25 KB gzipped) are behind their section: their code
// is fetched when the pointer or the focus reaches that section's item (or at the click), and the section
// switches once it is there, so Account stays on screen meanwhile (issue 26: first-screen JavaScript).
const loadPanel = async () => (await import('../image-settings/image-settings-panel')).ImageSettingsPanel;
type Panel = Awaited<ReturnType<typeof loadPanel>>;
const preloadPanel = () => void loadPanel();

/** /setting: Account (overcharge, language) and the Image Optimization Settings. */
export function SettingScreen() {
  const { t } = useTranslation();
  const [section, setSection] = useState<Section>('account');
  const [ImageSettingsPanel, setPanel] = useState<Panel | null>(null);
  const openImages = () => {
    if (ImageSettingsPanel) return setSection('images');
    void loadPanel().then((panel) =>
      startTransition(() => {
        setPanel(() => panel);
        setSection('images');
      }),
    );
  };
  const navigate = useNavigate();
  const info = useSettingInfo();
  const guidePending = info?.new_guide_status === 1;
  useWarmIntl();

  // Until the first-run guide is completed the settings live on the image page: its first
  // set-up sheet starts there. Nothing of this screen renders before the shop's settings say which
  // (issue 26: a fresh shop rendered the whole settings screen, then the image page).
  useEffect(() => {
    if (guidePending) void navigate({ to: '/image_optimisation', replace: true });
  }, [guidePending, navigate]);
  // The screen renders in a transition, not inside the synchronous update that brought the settings
  // (hooks/use-later.ts); the image settings, hidden behind their section, one transition later.
  const show = useReadyInTransition(!!info);
  if (guidePending) return <></>;
  if (!show)
    return (
      <Page title={t('setting.title')}>
        <Card>
          <SkeletonBodyText lines={6} />
        </Card>
      </Page>
    );

  return (
    <Page title={t('setting.title')}>
      <Layout>
        <Layout.Section variant="oneThird">
          <Card padding="200">
            <SectionMenu
              items={[
                { content: t('setting.account.title'), active: section === 'account', onAction: () => setSection('account') },
                {
                  content: t('setting.images.title'),
                  active: section === 'images',
                  onAction: openImages,
                  onIntent: preloadPanel,
                },
              ]}
            />
          </Card>
        </Layout.Section>
        <Layout.Section>
          {/* Both sections stay mounted once opened: switching to Account keeps unsaved image settings (and
              their guard). */}
          <div hidden={section !== 'account'}>
            <Card>
              <BlockStack gap="500">
                <Text as="h2" variant="headingMd">
                  {t('setting.account.title')}
                </Text>
                <OverchargeSetting />
                <AdminTokensCard />
                <Box maxWidth="320px">
                  <LanguageSelect />
                </Box>
                <Text as="p" variant="bodySm" tone="subdued">
                  <Link url="/pricing">{t('setting.account.plans')}</Link>
                </Text>
              </BlockStack>
            </Card>
          </div>
          {ImageSettingsPanel && (
            <div hidden={section !== 'images'}>
              <Card>
                <ImageSettingsPanel title={t('setting.images.title')} />
              </Card>
            </div>
          )}
        </Layout.Section>
      </Layout>
    </Page>
  );
}
