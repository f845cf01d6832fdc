import { useCallback, useEffect, useRef, useState } from 'react';
import { getPageSpeedScore, refreshPageSpeedOnline } from '../api/calls';
import { useApiAction, useApiQuery } from '../api/query';
import { isScorePending } from '../lib/score-bands';

/** Score polling interval. */
export const SCORE_POLL_MS = 5000;

/** Why the last check failed (status 3): password_protected | unreachable | unavailable. */
export type PageSpeedState = {
  score: { pc: number; mb: number } | null;
  pending: boolean;
  failure: string | null;
  /** Starts a new test (a refusal, e.g. the 5-minute cooldown, shows as the error toast). */
  recheck: () => Promise<void>;
  /** The Recheck call is on its way. */
  starting: boolean;
};

/**
 * The dashboard score: read once, then every 5 s while status is 0 or 2. Status 0 means no
 * test has run yet, so it also starts one (once per page view). Recheck starts a new test and polls.
 */
export function usePageSpeed(): PageSpeedState {
  const [score, setScore] = useState<{ pc: number; mb: number } | null>(null);
  const [pending, setPending] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  // Read once, then every 5 s while pending; a failed read keeps the current state and the next tick tries again.
  const read = useApiQuery({
    key: ['pageSpeedScore'],
    call: getPageSpeedScore,
    select: (body) => body,
    errorToast: false,
    refetchInterval: pending ? SCORE_POLL_MS : false,
  });
  const body = read.data;
  useEffect(() => {
    if (!body) return;
    const status = typeof body.status === 'number' ? body.status : Number(body.status ?? 1);
    if (status === 0 && !started.current) {
      started.current = true;
      void refreshPageSpeedOnline().catch(() => undefined);
    }
    const pendingNow = isScorePending(status);
    const failedWithoutScore = status === 3 && !Number(body.score?.pc) && !Number(body.score?.mb);
    if (body.score && !pendingNow && !failedWithoutScore)
      setScore({ pc: Number(body.score.pc) || 0, mb: Number(body.score.mb) || 0 });
    setPending(pendingNow);
    setFailure(status === 3 ? String(body.reason ?? 'unavailable') : null);
  }, [body, read.updatedAt]);

  // Recheck starts a new test and polls; a refusal (e.g. the 5-minute cooldown) is the error toast.
  const start = useApiAction(refreshPageSpeedOnline, {
    onSuccess: () => {
      setScore(null);
      setFailure(null);
      setPending(true);
    },
  });
  const { run } = start;
  const recheck = useCallback(async () => {
    started.current = true;
    await run();
  }, [run]);

  return { score, pending, failure, recheck, starting: start.pending };
}
