import { BlockStack, Button, Card, InlineStack, Text } from '@shopify/polaris';
import { Badge } from '../widgets/badge';
import { useTranslation } from 'react-i18next';
import { useSettingInfo } from '../hooks/use-settings-info';
import type { EmbedState } from './use-embed-status';
import './strings';

/**
 * Site Speed Up card: with the embed on, Preview and Turn off plus the congratulation; with it
 * off, Speed up and the prompt. Turn off and Speed up open the theme app-embed settings in a new window.
 */
export function SpeedUpCard({ embed }: { embed: EmbedState }) {
  const { t } = useTranslation();
  const info = useSettingInfo();
  const storefront = info?.shop_owner ? `https://${info.shop_owner}` : '';
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t('main.speedUp.title')}
          </Text>
          <Badge tone="success">{t('main.speedUp.free')}</Badge>
        </InlineStack>
        <Text as="p">{t('main.speedUp.body')}</Text>
        <Text as="p" tone={embed.on ? 'success' : 'caution'} fontWeight="semibold">
          {embed.on ? t('main.speedUp.congrats') : t('main.speedUp.enablePrompt')}
        </Text>
        <InlineStack gap="200">
          {embed.on ? (
            <>
              <Button url={storefront || undefined} external disabled={!storefront}>
                {t('main.speedUp.preview')}
              </Button>
              <Button onClick={embed.openEditor} loading={embed.watching} disabled={!embed.loaded}>
                {t('main.speedUp.turnOff')}
              </Button>
            </>
          ) : (
            <Button variant="primary" onClick={embed.openEditor} loading={embed.watching} disabled={!embed.loaded}>
              {t('main.speedUp.speedUp')}
            </Button>
          )}
        </InlineStack>
        {embed.watching && (
          <Text as="p" variant="bodySm" tone="subdued">
            {/* Turning off: say where the switch is (theme editor, App embeds). */}
            {embed.intent === 'off' ? t('main.speedUp.turnOffWhere') : t('main.speedUp.watching')}
          </Text>
        )}
        {embed.timedOut && (
          <InlineStack gap="200" blockAlign="center">
            <Text as="p" variant="bodySm" tone="caution">
              {embed.intent === 'off' ? t('main.speedUp.timedOutOff') : t('main.speedUp.timedOut')}
            </Text>
            <Button variant="plain" onClick={embed.recheck}>
              {t('main.speedUp.checkAgain')}
            </Button>
          </InlineStack>
        )}
      </BlockStack>
    </Card>
  );
}

/** Theme app-embed card: On / Off and the App embed settings button. */
export function AppEmbedCard({ embed }: { embed: EmbedState }) {
  const { t } = useTranslation();
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t('main.embed.title')}
          </Text>
          {embed.loaded && (
            <Badge tone={embed.on ? 'success' : 'critical'}>{embed.on ? t('main.embed.on') : t('main.embed.off')}</Badge>
          )}
        </InlineStack>
        <Text as="p" tone="subdued">
          {embed.on ? t('main.embed.onBody') : t('main.embed.offBody')}
        </Text>
        <InlineStack>
          <Button onClick={embed.openEditor} disabled={!embed.loaded}>
            {t('main.embed.settings')}
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}
