// The review_scores table: every review score given (0 = Dismiss).
import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { reviewScores, shops } from './schema';

/** Records a review score and stops asking for one (review_tips 0), in one batch. */
export async function recordReviewScore(db: Db, shopId: number, score: number): Promise<void> {
  await db.batch([
    db.insert(reviewScores).values({ shopId, score }),
    db.update(shops).set({ reviewScore: score, showReviewRequest: false, updatedAt: Date.now() }).where(eq(shops.id, shopId)),
  ]);
}
