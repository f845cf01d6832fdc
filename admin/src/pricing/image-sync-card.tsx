import { Spinner, InlineStack, Text } from '@shopify/polaris';
import { Banner } from '../widgets/banner';
import { useTranslation } from 'react-i18next';
import { getImageSyncStatus } from '../api/calls';
import { useApiQuery } from '../api/query';
import { formatNumber } from '../lib/intl';
import './strings';

export const IMAGE_SYNC_POLL_MS = 3000;

/** Image sync status: polled every 3 s until imageSync is true, then the count is shown. */
export function ImageSyncStatus() {
  const { t, i18n } = useTranslation();
  // Read once, then every 3 s until the sync is done; a failed read waits for the next tick.
  const sync = useApiQuery({
    key: ['imageSyncStatus'],
    call: getImageSyncStatus,
    select: (body) =>
      body.data
        ? { done: body.data.imageSync === true || Number(body.data.imageSync) === 1, count: Number(body.data.imageCount) || 0 }
        : null,
    errorToast: false,
    refetchInterval: (state) => (state?.done === true ? false : IMAGE_SYNC_POLL_MS),
  });
  const state = sync.data;

  if (state?.done) {
    return (
      <Banner tone="info">
        <p>{t('pricing.sync.done', { count: formatNumber(state.count, i18n.language) })}</p>
      </Banner>
    );
  }
  return (
    <Banner tone="info">
      <InlineStack gap="200" blockAlign="center" wrap={false}>
        <Spinner size="small" accessibilityLabel={t('pricing.sync.counting')} />
        <Text as="span">{t('pricing.sync.counting')}</Text>
      </InlineStack>
    </Banner>
  );
}
