import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getOptSchedule, stopImageOptTask } from '../api/calls';
import { useApiAction, useApiQuery } from '../api/query';
import { usePolling } from '../hooks/use-polling';
import { useToast } from '../hooks/use-toast';
import {
  completionToastKey,
  failureText,
  isRunning,
  HISTORY_FIRST_READ_MS,
  HISTORY_PROGRESS_POLL_MS,
  PROGRESS_POLL_MS,
  RELOAD_AFTER_DONE_MS,
  TABS,
  type TabSchedule,
} from './rules';
import './page-strings';

/** The job is planned when the start call answers; a read this soon after shows its counts. */
export const FIRST_READ_MS = 1000;

/** Where a job was started: the page (manual optimise, upload) or the history's Restore / Re-optimize. */
export type StartedFrom = 'page' | 'history';

export type OptProgress = {
  /** -1 when nothing runs, else the tab index of the running job. */
  tab: number;
  schedule: TabSchedule | null;
  /** A job was started on `tab`: show the panel and poll (every 5 s from the history, else 6 s). */
  watch: (tab: number, from?: StartedFrom) => void;
  stop: () => Promise<void>;
  stopping: boolean;
};

/**
 * The image page's progress panel state: getOptSchedule every 6 s while a job runs. When it ends with
 * images (opt_total > 0, process_result 1) the completion toast shows, progress clears and `onDone`
 * (the history reload) runs 3 s later. A job running when the page opens is picked up on the first read.
 */
export function useOptProgress(onDone: () => void, onPlanLimit?: (message: string) => void): OptProgress {
  const { t } = useTranslation();
  const toast = useToast();
  const [tab, setTab] = useState(-1);
  const [from, setFrom] = useState<StartedFrom>('page');
  const [schedule, setSchedule] = useState<TabSchedule | null>(null);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const later = useCallback((fn: () => void, ms: number) => timers.current.push(setTimeout(fn, ms)), []);
  // The reload runs 3 s after the end: it must be the screen's current one, not a stale render's.
  const onDoneLatest = useRef(onDone);
  onDoneLatest.current = onDone;
  const done = useCallback(() => onDoneLatest.current(), []);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  // Every tab's schedule: read when the page opens (a running job is followed), once more 1 s after a
  // start, and every 6 s while a job is watched (a fixed grid from the start, as before).
  const schedules = useApiQuery({
    key: ['optSchedule', 'all'],
    call: () => getOptSchedule(),
    select: (body) => body.data ?? {},
    errorToast: false,
  });
  const { refetch } = schedules;
  const all = schedules.data;
  const tabNow = useRef(tab);
  tabNow.current = tab;
  const planLimitLatest = useRef(onPlanLimit);
  planLimitLatest.current = onPlanLimit;
  // Each answer is handled once (the same state may come twice in a row; a re-render is not an answer).
  const handled = useRef(0);
  const answeredAt = schedules.updatedAt;
  useEffect(() => {
    if (!all || answeredAt === handled.current) return;
    handled.current = answeredAt;
    const watched = tabNow.current;
    if (watched < 0) {
      // Page open: follow a job that is already running.
      const running = TABS.findIndex((k) => isRunning(all[k]));
      if (running >= 0) {
        setTab(running);
        setSchedule(all[TABS[running] ?? 'product'] ?? null);
      }
      return;
    }
    const s = all[TABS[watched] ?? 'product'];
    if (!s) return;
    if (isRunning(s)) {
      setSchedule(s);
      return;
    }
    const key = completionToastKey(s);
    if (key) toast(t(key, { n: s.opt_done ?? s.opt_total - s.opt_in }));
    const failure = failureText(s, t);
    if (failure) toast(failure, { error: true });
    if (s.plan_limit_message) planLimitLatest.current?.(s.plan_limit_message);
    setTab(-1);
    setSchedule(null);
    later(done, RELOAD_AFTER_DONE_MS);
  }, [all, answeredAt, done, later, t, toast]);
  usePolling(() => void refetch(), from === 'history' ? HISTORY_PROGRESS_POLL_MS : PROGRESS_POLL_MS, tab >= 0);

  const watch = useCallback(
    (next: number, startedFrom: StartedFrom = 'page') => {
      setTab(next);
      setFrom(startedFrom);
      setSchedule(null);
      // One early read so the panel shows counts soon (1 s; 3 s after the history's Restore or
      // Re-optimize, as documented); the polling follows.
      later(() => void refetch(), startedFrom === 'history' ? HISTORY_FIRST_READ_MS : FIRST_READ_MS);
    },
    [later, refetch],
  );

  const stopAction = useApiAction(stopImageOptTask, {
    // Stop clears progress, answered or not; the history shows what finished.
    onSettled: () => {
      setTab(-1);
      setSchedule(null);
      later(done, RELOAD_AFTER_DONE_MS);
    },
  });
  const { run: runStop } = stopAction;
  const stop = useCallback(async () => {
    await runStop();
  }, [runStop]);

  return { tab, schedule, watch, stop, stopping: stopAction.pending };
}
