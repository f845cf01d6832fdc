// Review prompt (Shopify forbids review gating): every score is recorded, every
// merchant who rates is offered the public review whatever the score, and a score under 4 also offers
// the feedback form beside it, never instead of it. Dismiss records 0 and offers nothing.
export type RatingFollowUp = { review: boolean; feedback: boolean };

export const FEEDBACK_BELOW = 4;

export function ratingFollowUp(score: number): RatingFollowUp {
  if (score <= 0) return { review: false, feedback: false };
  return { review: true, feedback: score < FEEDBACK_BELOW };
}

/**
 * The reviews page of our Shopify App Store listing (the review path outside the admin). The listing is
 * the Worker's configuration (GET /app-config `app_store_url`: APP_STORE_HANDLE, else the app's handle).
 */
export const listingReviewsUrl = (listingUrl: string) => `${listingUrl.replace(/\/+$/, '')}/reviews`;
