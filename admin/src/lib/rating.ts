// Review prompt (Shopify forbids review gating): every score is recorded, every
// merchant who rates is offered the public review whatever the score, and a score under 4 also offers
// the feedback form beside it, never instead of it. Dismiss records 0 and offers nothing.
export type RatingFollowUp = { review: boolean; feedback: boolean };

export const FEEDBACK_BELOW = 4;

export function ratingFollowUp(score: number): RatingFollowUp {
  if (score <= 0) return { review: false, feedback: false };
  return { review: true, feedback: score < FEEDBACK_BELOW };
}

/** The app's listing reviews page in the Shopify App Store (the review path outside the admin). */
export const APP_STORE_REVIEW_URL = 'https://apps.shopify.com/image-speed-app/reviews';
