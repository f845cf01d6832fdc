import { Banner, BlockStack, Text } from '@shopify/polaris';
import { useAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isClosed, markClosed } from '../lib/session-flags';
import { settingInfoAtom } from '../state/atoms';
import { StarRating, useRate } from './star-rating';

const FLAG = 'review-banner';

/**
 * Star-rating banner, shown while settingInfo.review_tips is set: Dismiss sends score 0,
 * Remind me later hides it for the session; any star offers the public review, fewer than 4 also the
 * feedback form (useRate). `when`: the screen's own condition (e.g. after the first optimisation).
 */
export function ReviewBanner({ when = true }: { when?: boolean }) {
  const { t } = useTranslation();
  const [info, setInfo] = useAtom(settingInfoAtom);
  const [hidden, setHidden] = useState(() => isClosed(FLAG));
  const offer = useRate();
  if (!when || !info?.review_tips || hidden) return null;

  const rate = (score: number) => {
    offer(score);
    setHidden(true);
    setInfo((i) => (i ? { ...i, review_tips: 0 } : i));
  };

  return (
    <Banner
      title={t('main.review.title')}
      onDismiss={() => rate(0)}
      secondaryAction={{
        content: t('main.review.remindLater'),
        onAction: () => {
          markClosed(FLAG);
          setHidden(true);
        },
      }}
      action={{ content: t('main.review.dismiss'), onAction: () => rate(0) }}
    >
      <BlockStack gap="200">
        <Text as="p">{t('main.review.body')}</Text>
        <StarRating onRate={rate} />
      </BlockStack>
    </Banner>
  );
}
