import { ActionList, BlockStack, Box, Button, Card, InlineStack, Layout, Link, Page, SkeletonBodyText, Text } from '@shopify/polaris';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImageSettingsForm, useImageSettings } from '../components/image-settings';
import { LanguageSelect } from '../components/language-select';
import { LeaveGuard } from '../components/leave-guard';
import { OverchargeSetting } from '../components/overcharge-setting';

type Section = 'account' | 'images';

/** /setting: Account (overcharge, language) and the Image Optimization Settings (section 2). */
export function SettingScreen() {
  const { t } = useTranslation();
  const [section, setSection] = useState<Section>('account');
  const settings = useImageSettings();

  return (
    <Page title={t('setting.title')}>
      <LeaveGuard when={settings.dirty} />
      <Layout>
        <Layout.Section variant="oneThird">
          <Card padding="200">
            <ActionList
              items={[
                { content: t('setting.account.title'), active: section === 'account', onAction: () => setSection('account') },
                { content: t('setting.images.title'), active: section === 'images', onAction: () => setSection('images') },
              ]}
            />
          </Card>
        </Layout.Section>
        <Layout.Section>
          {section === 'account' ? (
            <Card>
              <BlockStack gap="500">
                <Text as="h2" variant="headingMd">
                  {t('setting.account.title')}
                </Text>
                <OverchargeSetting />
                <Box maxWidth="320px">
                  <LanguageSelect />
                </Box>
                <Text as="p" variant="bodySm" tone="subdued">
                  <Link url="/pricing">{t('setting.account.plans')}</Link>
                </Text>
              </BlockStack>
            </Card>
          ) : (
            <Card>
              <BlockStack gap="400">
                <InlineStack align="space-between" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    {t('setting.images.title')}
                  </Text>
                  <InlineStack gap="200">
                    <Button onClick={settings.reset} disabled={!settings.dirty || settings.saving}>
                      {t('common.discard')}
                    </Button>
                    <Button variant="primary" onClick={() => void settings.save()} disabled={!settings.dirty || settings.blocked} loading={settings.saving}>
                      {t('common.save')}
                    </Button>
                  </InlineStack>
                </InlineStack>
                {settings.loading ? (
                  <SkeletonBodyText lines={8} />
                ) : (
                  <ImageSettingsForm value={settings.draft} onChange={settings.setDraft} showErrors={settings.showErrors} watermarkMissing={settings.watermarkMissing} />
                )}
              </BlockStack>
            </Card>
          )}
        </Layout.Section>
      </Layout>
    </Page>
  );
}
