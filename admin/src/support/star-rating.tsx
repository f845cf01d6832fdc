import { InlineStack } from '@shopify/polaris';
import { useSetAtom } from 'jotai';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reviewTipsClick } from '../api/calls';
import { loadAppConfig } from '../hooks/use-app-config';
import { requestPublicReview } from '../lib/app-bridge';
import { ratingFollowUp } from '../lib/rating';
import { contactFormAtom } from './contact-form-state';
import './review-strings';

/** Five clickable stars (1..5). */
export function StarRating({ onRate }: { onRate: (score: number) => void }) {
  const { t } = useTranslation();
  const [hover, setHover] = useState(0);
  return (
    <InlineStack gap="100">
      {[1, 2, 3, 4, 5].map((n) => (
        <button
          key={n}
          type="button"
          aria-label={t('common.stars', { count: n })}
          onMouseEnter={() => setHover(n)}
          onMouseLeave={() => setHover(0)}
          onClick={() => onRate(n)}
          style={{
            background: 'none',
            border: 0,
            cursor: 'pointer',
            fontSize: 26,
            lineHeight: 1,
            padding: 2,
            color: n <= hover ? '#ffb800' : '#c9cccf',
          }}
        >
          ★
        </button>
      ))}
    </InlineStack>
  );
}

/**
 * What a rating does, wherever stars are shown (no review gating): the score is
 * recorded (0 = dismissed); any score offers the public review (Shopify's review modal when embedded,
 * the listing page otherwise) and a score under 4 also opens the feedback form beside it.
 */
export function useRate(): (score: number) => void {
  const { t } = useTranslation();
  const openContact = useSetAtom(contactFormAtom);
  return useCallback(
    (score: number) => {
      void reviewTipsClick(score).catch(() => undefined); // the answer is not used
      const offer = ratingFollowUp(score);
      // The listing comes with the runtime configuration, read once per page load (normally long done).
      if (offer.review) void loadAppConfig().then((config) => requestPublicReview(config.app_store_url));
      if (offer.feedback) openContact({ title: t('main.review.feedbackTitle'), path: `review/${score}`, feedback: true });
    },
    [t, openContact],
  );
}
