import { useCallback, useEffect, useRef, useState } from 'react';
import { getPageSpeedScore, refreshPageSpeedOnline } from '../api/calls';
import { useApiAction, useApiQuery } from '../api/query';
import { isScorePending } from '../lib/score-bands';
import { PAGESPEED_COOLDOWN_KEY } from '../../../shared/message-keys';

/** Score polling interval. */
export const SCORE_POLL_MS = 5000;

/** The server's answer to a Recheck within 5 minutes of the last check (worker/lib/limits.ts). */
const COOLDOWN_KEY = PAGESPEED_COOLDOWN_KEY;

export type PageSpeedState = {
  score: { pc: number; mb: number } | null;
  /** When the scores shown were measured (epoch ms); null before the first. */
  checkedAt: number | null;
  pending: boolean;
  /** Why the last check failed (status 3): password_protected | unreachable | unavailable. */
  failure: string | null;
  /** A Recheck came right after the last check: the score shown is the newest, not an error. */
  upToDate: boolean;
  /** Starts a new test (a refusal other than the cooldown shows as the error toast). */
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
  const [checkedAt, setCheckedAt] = useState<number | null>(null);
  const [pending, setPending] = useState(true);
  const [failure, setFailure] = useState<string | null>(null);
  const [upToDate, setUpToDate] = useState(false);
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
    if (body.score && !pendingNow && !failedWithoutScore) {
      setScore({ pc: Number(body.score.pc) || 0, mb: Number(body.score.mb) || 0 });
      setCheckedAt(Number(body.checked_at) > 0 ? Number(body.checked_at) : null);
    }
    setPending(pendingNow);
    setFailure(status === 3 ? String(body.reason ?? 'unavailable') : null);
  }, [body, read.updatedAt]);

  // Recheck starts a new test and polls. Right after a check (the automatic first one, or a Recheck) the
  // server keeps the newest result for 5 minutes: that result is read again and shown with its time, as
  // up to date, instead of an error. Any other refusal is the error toast.
  const { refetch } = read;
  const start = useApiAction(refreshPageSpeedOnline, {
    onSuccess: () => {
      setScore(null);
      setFailure(null);
      setUpToDate(false);
      setPending(true);
    },
    onRefused: (body) => {
      if (body.message_key !== COOLDOWN_KEY) return false;
      setUpToDate(true);
      void refetch();
      return true;
    },
  });
  const { run } = start;
  const recheck = useCallback(async () => {
    started.current = true;
    await run();
  }, [run]);

  return { score, checkedAt, pending, failure, upToDate, recheck, starting: start.pending };
}
