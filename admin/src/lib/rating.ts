// Review flow (page-speed-and-app.md section 4; image-optimisation.md section 4): 4 or 5 stars lead to the
// store review page, fewer to the feedback form; Dismiss sends 0.
export type RatingOutcome = 'review-page' | 'feedback-form' | 'dismissed';

export function ratingOutcome(score: number): RatingOutcome {
  if (score <= 0) return 'dismissed';
  return score >= 4 ? 'review-page' : 'feedback-form';
}

/** The app's listing reviews page in the Shopify App Store. */
export const APP_STORE_REVIEW_URL = 'https://apps.shopify.com/image-speed-app/reviews';
