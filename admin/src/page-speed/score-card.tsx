import { BlockStack, Box, Button, Card, InlineStack, Spinner, Text } from '@shopify/polaris';
import { ButtonGroup } from '../widgets/button-group';
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getPageSpeedHistory } from '../api/calls';
import { useApiQuery } from '../api/query';
import { formatDateTime, formatTimeAgo, useTimeZone } from '../lib/intl';
import { BAND_COLOURS, bandLegend, type Device } from '../lib/score-bands';
import { languageAtom } from '../state/atoms';
import { HISTORY_ASPECT, HISTORY_SERIES } from './score-history-shape';
import { ScoreGauge } from './score-gauge';
import { usePageSpeed } from './use-page-speed';
import './first-strings';

// The history chart is its own chunk, fetched once the dashboard shows (no chart code on the first screen).
const ScoreHistoryChart = lazy(() => import('./score-history-chart').then((m) => ({ default: m.ScoreHistoryChart })));

/** "Last checked" moves on by itself while the dashboard stays open. */
const CLOCK_TICK_MS = 30_000;

function useNow(tickMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [tickMs]);
  return now;
}

/** Web performance card: gauge with desktop/mobile toggle, when it was checked, Recheck, band legend and the score history. */
export function ScoreCard() {
  const { t } = useTranslation();
  const language = useAtomValue(languageAtom);
  const { score, checkedAt, pending, failure, upToDate, recheck, starting } = usePageSpeed();
  const [device, setDevice] = useState<Device>('pc');
  const now = useNow(CLOCK_TICK_MS);
  const timeZone = useTimeZone();
  const failureText = failure
    ? t(`main.score.failed.${['password_protected', 'unreachable'].includes(failure) ? failure : 'unavailable'}`)
    : '';

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
        <BlockStack gap="100" inlineAlign="center">
          {failure && !pending && !score ? (
            <Box minHeight="132px" paddingBlock="800">
              <Text as="p" tone="critical" alignment="center">
                {failureText}
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
          {/* The line keeps its height while there is no time yet, so the card does not grow when it comes. */}
          <Text as="p" variant="bodySm" tone="subdued" alignment="center">
            {checkedAt && score && !pending ? (
              <time dateTime={new Date(checkedAt).toISOString()} title={formatDateTime(checkedAt, language, timeZone)}>
                {t('main.score.checkedAt', { when: formatTimeAgo(checkedAt, now, language, timeZone) })}
              </time>
            ) : (
              '\u00a0'
            )}
          </Text>
        </BlockStack>
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
            {failureText}
          </Text>
        )}
        {upToDate && score && !pending && (
          <Text as="p" tone="subdued">
            {t('main.score.upToDate')}
          </Text>
        )}
        <InlineStack align="space-between" blockAlign="center" gap="200">
          <Text as="p" variant="bodySm" tone="subdued">
            {t('main.score.note')}
          </Text>
          <Button onClick={() => void recheck()} loading={starting} disabled={pending}>
            {t('main.score.recheck')}
          </Button>
        </InlineStack>
        <ScoreHistory checkedAt={checkedAt} language={language} />
      </BlockStack>
    </Card>
  );
}

/** The last checks per device: read again whenever a newer check is shown; the chart code loads on use. */
function ScoreHistory({ checkedAt, language }: { checkedAt: number | null; language: string }) {
  const { t } = useTranslation();
  const history = useApiQuery({
    key: ['pageSpeedHistory', checkedAt],
    call: getPageSpeedHistory,
    select: (body) => body.data?.list ?? [],
    enabled: checkedAt !== null, // nothing to draw before the first finished check
    keepPrevious: true,
    errorToast: false,
  });
  const points = checkedAt === null ? [] : (history.data ?? []);
  // Sized like the chart (same aspect ratio) while the chunk or the first read is on its way.
  const placeholder = <div style={{ aspectRatio: HISTORY_ASPECT, width: '100%' }} data-testid="score-history-skeleton" />;
  return (
    <BlockStack gap="200">
      <InlineStack align="space-between" blockAlign="center" gap="200">
        <Text as="h3" variant="headingSm">
          {t('main.history.title')}
        </Text>
        <InlineStack gap="300" blockAlign="center">
          {HISTORY_SERIES.map((s) => (
            <InlineStack key={s.key} gap="100" blockAlign="center">
              <svg width="18" height="8" aria-hidden="true">
                <line x1="1" x2="17" y1="4" y2="4" stroke={s.colour} strokeWidth="2" strokeDasharray={s.dash} />
              </svg>
              <Text as="span" variant="bodySm">
                {t(s.labelKey)}
              </Text>
            </InlineStack>
          ))}
        </InlineStack>
      </InlineStack>
      {checkedAt !== null && history.data === undefined ? (
        placeholder
      ) : points.length === 0 ? (
        <div style={{ aspectRatio: HISTORY_ASPECT, width: '100%', display: 'grid', placeItems: 'center' }}>
          <Text as="p" variant="bodySm" tone="subdued" alignment="center">
            {t('main.history.empty')}
          </Text>
        </div>
      ) : (
        <Suspense fallback={placeholder}>
          <ScoreHistoryChart points={points} language={language} />
        </Suspense>
      )}
    </BlockStack>
  );
}
