import { BlockStack, InlineStack, Text } from '@shopify/polaris';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../lib/intl';
import { USAGE_COLOURS, usagePercent, usageTone } from '../lib/plan-stepping';

/** Quota bar: orange above 50 % used, red above 90 %. */
export function UsageBar({ label, used, all }: { label: string; used: number; all: number }) {
  const { i18n } = useTranslation();
  const percent = usagePercent(used, all);
  const tone = usageTone(percent);
  return (
    <BlockStack gap="100">
      <InlineStack align="space-between">
        <Text as="span" variant="bodySm">
          {label}
        </Text>
        <Text as="span" variant="bodySm" tone="subdued">
          {`${formatNumber(used, i18n.language)} / ${formatNumber(all, i18n.language)}`}
        </Text>
      </InlineStack>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        data-tone={tone}
        style={{ height: 8, borderRadius: 4, background: '#e3e3e3', overflow: 'hidden' }}
      >
        <div style={{ width: `${percent}%`, height: '100%', background: USAGE_COLOURS[tone] }} />
      </div>
    </BlockStack>
  );
}
