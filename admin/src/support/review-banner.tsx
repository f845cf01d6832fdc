import { BlockStack, Text } from '@shopify/polaris';
import { Banner } from '../widgets/banner';
import { atom, useAtom, useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { isClosed, markClosed } from '../lib/session-flags';
import { settingInfoAtom } from '../state/atoms';
import { StarRating, useRate } from './star-rating';
import './review-strings';

const FLAG = 'review-banner';

/** Hidden in this session (Remind me later, or a score just given); null: not decided yet, read the session flag. */
const reviewHiddenAtom = atom<boolean | null>(null);

/**
 * Whether the star-rating banner shows: the server asks for a review (review_tips, set once the shop's
 * first optimisation has finished) and the merchant has not put it off in this session. Screens that
 * show one banner at a time ask this before showing another.
 */
export function useReviewBannerShown(when = true): boolean {
  const info = useAtomValue(settingInfoAtom);
  const hidden = useAtomValue(reviewHiddenAtom) ?? isClosed(FLAG);
  return when && !!info?.review_tips && !hidden;
}

/**
 * Star-rating banner, shown while settingInfo.review_tips is set: Dismiss sends score 0,
 * Remind me later hides it for the session; any star offers the public review, fewer than 4 also the
 * feedback form (useRate). `when`: the screen's own condition (e.g. no other banner above it).
 */
export function ReviewBanner({ when = true }: { when?: boolean }) {
  const { t } = useTranslation();
  const [, setInfo] = useAtom(settingInfoAtom);
  const [, setHidden] = useAtom(reviewHiddenAtom);
  const offer = useRate();
  const shown = useReviewBannerShown(when);
  if (!shown) return null;

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
