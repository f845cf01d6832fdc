import { BlockStack, Button, Card, InlineStack, Text } from '@shopify/polaris';
import { ProgressBar } from '../widgets/progress-bar';
import { useTranslation } from 'react-i18next';
import type { OptProgress } from './use-opt-progress';
import './strings';

/** The running job: which tab, how far, and Stop. Hidden when nothing runs. */
export function ProgressPanel({ progress }: { progress: OptProgress }) {
  const { t } = useTranslation();
  if (progress.tab < 0) return null;
  const s = progress.schedule;
  const total = s?.opt_total ?? 0;
  const done = total - (s?.opt_in ?? 0);
  const tabName = t(`imageOpt.tabs.${['product', 'collection', 'blog', 'other'][progress.tab] ?? 'product'}`);
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t('imageOpt.progress.title', { tab: tabName })}
          </Text>
          <Button tone="critical" onClick={() => void progress.stop()} loading={progress.stopping}>
            {t('imageOpt.progress.stop')}
          </Button>
        </InlineStack>
        <ProgressBar progress={total > 0 ? Math.round((done / total) * 100) : 0} size="small" tone="success" />
        <Text as="p" tone="subdued">
          {total > 0 ? t('imageOpt.progress.count', { done, total }) : t('imageOpt.progress.collecting')}
        </Text>
        <Text as="p" variant="bodySm" tone="subdued">
          {t('imageOpt.progress.later')}
        </Text>
      </BlockStack>
    </Card>
  );
}
