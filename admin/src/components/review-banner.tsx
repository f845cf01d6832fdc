import { Banner, BlockStack, Text } from '@shopify/polaris';
import { useAtom, useSetAtom } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reviewTipsClick } from '../api/calls';
import { isClosed, markClosed } from '../lib/session-flags';
import { APP_STORE_REVIEW_URL, ratingOutcome } from '../lib/rating';
import { settingInfoAtom } from '../state/atoms';
import { contactFormAtom } from './contact-form';
import { StarRating } from './star-rating';

const FLAG = 'review-banner';

/**
 * Star-rating banner, shown while settingInfo.review_tips is set (section 4): Dismiss sends score 0,
 * Remind me later hides it for the session; 4-5 stars open the store review page, fewer the feedback form.
 */
export function ReviewBanner() {
  const { t } = useTranslation();
  const [info, setInfo] = useAtom(settingInfoAtom);
  const openContact = useSetAtom(contactFormAtom);
  const [hidden, setHidden] = useState(() => isClosed(FLAG));
  if (!info?.review_tips || hidden) return null;

  const clearTip = () => {
    setHidden(true);
    setInfo((i) => (i ? { ...i, review_tips: 0 } : i));
  };
  const rate = (score: number) => {
    void reviewTipsClick(score).catch(() => undefined); // the answer is not used (section 7)
    clearTip();
    const outcome = ratingOutcome(score);
    if (outcome === 'review-page') window.open(APP_STORE_REVIEW_URL, '_blank', 'noopener');
    if (outcome === 'feedback-form') openContact({ title: t('main.review.feedbackTitle'), path: `review/${score}` });
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
