import { useCallback, useEffect, useRef, useState } from 'react';
import { checkThemeAppExtension } from '../api/calls';
import { useApiQuery } from '../api/query';

/** Embed status polling interval after a Speed up / Turn off click. */
export const EMBED_POLL_MS = 3000;
/** After this long without a change the page stops waiting and says how to go on (issue 15). */
export const EMBED_WATCH_LIMIT_MS = 2 * 60_000;

export type EmbedState = {
  loaded: boolean;
  on: boolean;
  url: string;
  watching: boolean;
  /** What the merchant went to the theme editor for: switch the embed on, or off. */
  intent: 'on' | 'off' | null;
  /** The wait ended with no change: the card shows a hint and a way to check again. */
  timedOut: boolean;
  openEditor: () => void;
  recheck: () => void;
};

/**
 * The theme app-embed status: read once; after the merchant opens the theme
 * editor, polled every 3 s until the status differs from what it was at the click, then polling stops.
 * A merchant who never saves the theme would otherwise leave the buttons spinning: after two minutes
 * the wait ends with a hint.
 */
export function useEmbedStatus(): EmbedState {
  const [watching, setWatching] = useState(false);
  const [timedOut, setTimedOut] = useState(false);
  const [intent, setIntent] = useState<'on' | 'off' | null>(null);
  const statusAtClick = useRef<boolean | null>(null);
  const startedAt = useRef(0);

  // Read once; while watching, every 3 s until the two minutes are up (no read after that).
  const read = useApiQuery({
    key: ['themeAppExtension'],
    call: checkThemeAppExtension,
    select: (body) => body.data ?? null,
    errorToast: false, // keep the last known status; a watch keeps trying
    refetchInterval: () => (watching && Date.now() - startedAt.current < EMBED_WATCH_LIMIT_MS ? EMBED_POLL_MS : false),
  });
  const data = read.data;
  const state = data
    ? { loaded: true, on: Number(data.status) === 1, url: data.url ?? '' }
    : { loaded: false, on: false, url: '' };

  // The status differs from the one at the click: the merchant saved the theme, the wait is over.
  useEffect(() => {
    if (!data || statusAtClick.current === null) return;
    if ((Number(data.status) === 1) !== statusAtClick.current) {
      statusAtClick.current = null;
      setWatching(false);
      setTimedOut(false);
      setIntent(null);
    }
  }, [data, read.updatedAt]);

  // A merchant who never saves the theme: the wait ends with a hint after two minutes.
  useEffect(() => {
    if (!watching) return;
    const id = setTimeout(
      () => {
        setWatching(false);
        setTimedOut(true);
      },
      Math.max(0, startedAt.current + EMBED_WATCH_LIMIT_MS - Date.now()),
    );
    return () => clearTimeout(id);
  }, [watching]);

  const openEditor = useCallback(() => {
    if (state.url) window.open(state.url, '_blank', 'noopener');
    statusAtClick.current = state.on;
    startedAt.current = Date.now();
    setIntent(state.on ? 'off' : 'on');
    setTimedOut(false);
    setWatching(true);
  }, [state.on, state.url]);

  const { refetch } = read;
  const recheck = useCallback(() => {
    // The hint stays while the status is still the one at the click (the effect above clears it on a change).
    void refetch().then((r) => {
      const changed = r.data != null && statusAtClick.current !== null && (Number(r.data.status) === 1) !== statusAtClick.current;
      setTimedOut(statusAtClick.current !== null && !changed);
    });
  }, [refetch]);

  return { ...state, watching, intent, timedOut, openEditor, recheck };
}
