import { Banner, Spinner, InlineStack, Text } from '@shopify/polaris';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getImageSyncStatus } from '../api/calls';
import { isOk } from '../api/client';
import { usePolling } from '../hooks/use-polling';

export const IMAGE_SYNC_POLL_MS = 3000;

/** Image sync status (section 4): polled every 3 s until imageSync is true, then the count is shown. */
export function ImageSyncStatus() {
  const { t } = useTranslation();
  const [state, setState] = useState<{ done: boolean; count: number } | null>(null);

  const read = useCallback(async () => {
    try {
      const body = await getImageSyncStatus();
      if (isOk(body) && body.data) setState({ done: body.data.imageSync === true || Number(body.data.imageSync) === 1, count: Number(body.data.imageCount) || 0 });
    } catch {
      // next tick tries again
    }
  }, []);
  useEffect(() => {
    void read();
  }, [read]);
  usePolling(read, IMAGE_SYNC_POLL_MS, state?.done !== true);

  if (state?.done) {
    return (
      <Banner tone="info">
        <p>{t('pricing.sync.done', { count: state.count })}</p>
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
