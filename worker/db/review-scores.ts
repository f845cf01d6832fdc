// The review_scores table: every review score given (0 = Dismiss).
import { and, eq, exists, isNull } from 'drizzle-orm';
import type { Db } from './client';
import { jobImages, reviewScores, shops } from './schema';

/** Records a review score and stops asking for one (review_tips 0), in one batch. */
export async function recordReviewScore(db: Db, shopId: number, score: number): Promise<void> {
  await db.batch([
    db.insert(reviewScores).values({ shopId, score }),
    db.update(shops).set({ reviewScore: score, showReviewRequest: false, updatedAt: Date.now() }).where(eq(shops.id, shopId)),
  ]);
}

/**
 * The rating prompt starts once the shop's first optimisation has finished (issue 23): review_tips is set
 * when a job ends with at least one image changed, unless the merchant already gave a score (the wizard's
 * rating, the banner's stars or Dismiss). One conditional UPDATE: safe to run for every job that ends, and
 * twice for the same one. Returns whether it set the flag now.
 */
export async function requestReviewAfterOptimisation(db: Db, shopId: number, jobId: string): Promise<boolean> {
  const changed = db
    .select({ one: jobImages.imageId })
    .from(jobImages)
    .where(and(eq(jobImages.jobId, jobId), eq(jobImages.shopId, shopId), eq(jobImages.status, 'done')));
  const rows = await db
    .update(shops)
    .set({ showReviewRequest: true, updatedAt: Date.now() })
    .where(and(eq(shops.id, shopId), eq(shops.showReviewRequest, false), isNull(shops.reviewScore), exists(changed)))
    .returning({ id: shops.id })
    .all();
  return rows.length > 0;
}
