import { BlockStack, Card, InlineStack, Link, Text } from '@shopify/polaris';
import { useTranslation } from 'react-i18next';
import { formatDay, formatNumber, formatSize, useTimeZone } from '../lib/intl';
import { priceLine } from './price-line';
import { UsageBar } from '../widgets/usage-bar';
import type { PricingData } from './pricing-data';
import './strings';

/** Account info: plan, quota bars, totals, and the link to the overcharge setting. */
export function AccountCard({ data }: { data: PricingData }) {
  const { t, i18n } = useTranslation();
  const timeZone = useTimeZone();
  const row = (label: string, value: string) => (
    <InlineStack align="space-between">
      <Text as="span" tone="subdued">
        {label}
      </Text>
      <Text as="span" fontWeight="semibold">
        {value}
      </Text>
    </InlineStack>
  );
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t('pricing.account.title')}
        </Text>
        {row(t('pricing.account.plan'), data.level > 0 ? t('pricing.paid.title') : t('pricing.free.title'))}
        {data.current_price && row(t('pricing.account.price'), priceLine(data.current_price, t, i18n.language, timeZone))}
        <UsageBar label={t('pricing.account.quota')} used={data.img_usage_use} all={data.img_usage_all} />
        {data.impressions_all > 0 && (
          <UsageBar label={t('pricing.account.addons')} used={data.impressions_use} all={data.impressions_all} />
        )}
        {data.next_reset_at > 0 && row(t('pricing.account.nextReset'), formatDay(data.next_reset_at, i18n.language, timeZone))}
        {row(t('pricing.account.optimised'), formatNumber(data.total.total_opt_num, i18n.language))}
        {row(t('pricing.account.saved'), formatSize(data.total.total_saved_size, i18n.language))}
        {row(t('pricing.account.waiting'), formatNumber(data.total.un_opt_num, i18n.language))}
        <Link url="/setting">{t('pricing.account.overchargeLink')}</Link>
      </BlockStack>
    </Card>
  );
}
