-- Issue 23: the rating prompt (review_tips) starts once the shop's first optimisation has finished, no longer
-- at install. Shops that never had an image optimised and never gave a score stop being asked until their
-- first optimisation ends (worker/db/review-scores.ts requestReviewAfterOptimisation); shops that did keep it.
UPDATE `shops` SET `review_tips` = 0
WHERE `review_tips` = 1 AND `review_score` IS NULL
  AND NOT EXISTS (SELECT 1 FROM `images` WHERE `images`.`shop_id` = `shops`.`id` AND `images`.`optimised_at` IS NOT NULL);
