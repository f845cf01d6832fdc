import { BlockStack, Card, InlineGrid, InlineStack, Text } from '@shopify/polaris';
import { useTranslation } from 'react-i18next';
import { formatDay, formatNumber, formatSize, useTimeZone } from '../lib/intl';
import { formatRatio, quotaBarRed, quotaPercent, type OptSchedule } from './rules';
import './page-strings';

export type Totals = {
  total_saved_size: number;
  avg_saved_space: number;
  avg_saved_percent: number;
  un_opt_num: number;
  total_opt_num?: number;
};

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h3" variant="bodyMd" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="headingLg">
          {value}
        </Text>
      </BlockStack>
    </Card>
  );
}

/** A quota bar: red on the free plan from 80 % use, green otherwise. */
export function QuotaBar({ label, used, all, red }: { label: string; used: number; all: number; red: boolean }) {
  const { i18n } = useTranslation();
  const percent = quotaPercent(used, all);
  return (
    <BlockStack gap="100">
      <InlineStack align="space-between">
        <Text as="span" variant="bodySm">
          {label}
        </Text>
        <Text as="span" variant="bodySm" tone={red ? 'critical' : 'subdued'}>
          {`${formatNumber(used, i18n.language)}/${formatNumber(all, i18n.language)}`}
        </Text>
      </InlineStack>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuenow={Math.round(percent)}
        aria-valuemin={0}
        aria-valuemax={100}
        data-tone={red ? 'red' : 'normal'}
        style={{ height: 8, borderRadius: 4, background: '#e3e3e3', overflow: 'hidden' }}
      >
        <div style={{ width: `${percent}%`, height: '100%', background: red ? '#e51c00' : '#29845a' }} />
      </div>
    </BlockStack>
  );
}

/** Total saved space, average saved space and percent, and the plan card with its quota bars. */
export function StatsCards({ totals, quota, level }: { totals: Totals; quota: OptSchedule; level: number }) {
  const { t, i18n } = useTranslation();
  const timeZone = useTimeZone();
  return (
    <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="400">
      <Stat label={t('imageOpt.stats.totalSaved')} value={formatSize(totals.total_saved_size, i18n.language)} />
      <Stat label={t('imageOpt.stats.avgSaved')} value={formatSize(totals.avg_saved_space, i18n.language)} />
      <Stat label={t('imageOpt.stats.avgPercent')} value={formatRatio(totals.avg_saved_percent, i18n.language)} />
      <Card>
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            {level === 0 ? t('imageOpt.plan.free') : t('imageOpt.plan.pre')}
          </Text>
          <QuotaBar
            label={t('imageOpt.plan.quota')}
            used={quota.img_usage_use}
            all={quota.img_usage_all}
            red={quotaBarRed(level, quota.img_usage_use, quota.img_usage_all)}
          />
          {quota.impressions_all > 0 && (
            <QuotaBar label={t('imageOpt.plan.addons')} used={quota.impressions_use} all={quota.impressions_all} red={false} />
          )}
          {(quota.next_reset_at ?? 0) > 0 && (
            <Text as="p" variant="bodySm" tone="subdued">
              {t('imageOpt.plan.nextReset', { date: formatDay(quota.next_reset_at ?? 0, i18n.language, timeZone) })}
            </Text>
          )}
        </BlockStack>
      </Card>
    </InlineGrid>
  );
}
