// Responses of the page-speed calls (/api/v2/home/*).
import type { ScoreFailureReason } from './vocabulary';

export type { EmbedStatus } from './vocabulary';

/**
 * getPageSpeedScore: score and status at the top level, as documented. status (SCORE_STATUS) 0 never
 * checked (a check starts now), 2 in progress, 1 ready, 3 failed (message says why; score keeps the
 * last good scores).
 */
export type ScoreAnswer = {
  score: { pc: number; mb: number };
  status: number;
  message: string;
  reason?: ScoreFailureReason;
  /** When the scores in `score` were measured (epoch ms); null before the first finished check. */
  checked_at: number | null;
};

/** One finished check of getPageSpeedHistory: desktop (pc) and mobile (mb) scores, 0-100. */
export type ScorePoint = { checked_at: number; pc: number; mb: number };

/** getPageSpeedHistory: the shop's last finished checks, oldest first. */
export type ScoreHistory = { list: ScorePoint[] };
