import { BlockStack, Box, Button, ButtonGroup, Card, InlineStack, Spinner, Text } from '@shopify/polaris';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BAND_COLOURS, bandLegend, type Device } from '../lib/score-bands';
import { ScoreGauge } from './score-gauge';
import { usePageSpeed } from './use-page-speed';

/** Web performance card: gauge with desktop/mobile toggle, Recheck, loading state and band legend. */
export function ScoreCard() {
  const { t } = useTranslation();
  const { score, pending, failure, recheck, starting } = usePageSpeed();
  const [device, setDevice] = useState<Device>('pc');
  const onRecheck = recheck;

  return (
    <Card>
      <BlockStack gap="400">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t('main.score.title')}
          </Text>
          <ButtonGroup variant="segmented">
            <Button pressed={device === 'pc'} onClick={() => setDevice('pc')}>
              {t('main.score.desktop')}
            </Button>
            <Button pressed={device === 'mb'} onClick={() => setDevice('mb')}>
              {t('main.score.mobile')}
            </Button>
          </ButtonGroup>
        </InlineStack>
        <InlineStack align="center">
          {failure && !pending && !score ? (
            <Box minHeight="132px" paddingBlock="800">
              <Text as="p" tone="critical" alignment="center">
                {t(`main.score.failed.${['password_protected', 'unreachable'].includes(failure) ? failure : 'unavailable'}`)}
              </Text>
            </Box>
          ) : pending || !score ? (
            <Box minHeight="132px" paddingBlock="800">
              <BlockStack gap="200" inlineAlign="center">
                <Spinner accessibilityLabel={t('main.score.loading')} size="large" />
                <Text as="p" tone="subdued">
                  {t('main.score.loading')}
                </Text>
              </BlockStack>
            </Box>
          ) : (
            <ScoreGauge
              score={score[device]}
              device={device}
              label={t('main.score.gaugeLabel', { score: Math.max(0, Math.min(100, Math.round(score[device]))) })}
            />
          )}
        </InlineStack>
        <InlineStack gap="400" align="center">
          {bandLegend(device).map((row) => (
            <InlineStack key={row.band} gap="100" blockAlign="center">
              <span
                style={{ display: 'inline-block', width: 12, height: 12, borderRadius: 6, background: BAND_COLOURS[row.band] }}
              />
              <Text as="span" variant="bodySm">
                {`${row.from}-${row.to}`}
              </Text>
            </InlineStack>
          ))}
        </InlineStack>
        {failure && score && (
          <Text as="p" tone="caution">
            {t(`main.score.failed.${['password_protected', 'unreachable'].includes(failure) ? failure : 'unavailable'}`)}
          </Text>
        )}
        <InlineStack align="space-between" blockAlign="center">
          <Text as="p" variant="bodySm" tone="subdued">
            {t('main.score.note')}
          </Text>
          <Button onClick={() => void onRecheck()} loading={starting} disabled={pending}>
            {t('main.score.recheck')}
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}
