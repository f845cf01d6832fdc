import { useCallback, useEffect, useRef, useState } from 'react';
import { checkThemeAppExtension } from '../api/calls';
import { isOk } from '../api/client';
import { usePolling } from '../hooks/use-polling';

/** Embed status polling interval after a Speed up / Turn off click (section 9). */
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
 * The theme app-embed status (section 4 "Embed status"): read once; after the merchant opens the theme
 * editor, polled every 3 s until the status differs from what it was at the click, then polling stops.
 * A merchant who never saves the theme would otherwise leave the buttons spinning: after two minutes
 * the wait ends with a hint.
 */
export function useEmbedStatus(): EmbedState {
  const [state, setState] = useState({ loaded: false, on: false, url: '' });
  const [watching, setWatching] = useState(false);
  const [timedOut, setTimedOut] = useState(false);
  const [intent, setIntent] = useState<'on' | 'off' | null>(null);
  const statusAtClick = useRef<boolean | null>(null);
  const startedAt = useRef(0);

  const read = useCallback(async () => {
    try {
      const body = await checkThemeAppExtension();
      if (!isOk(body) || !body.data) return;
      const on = Number(body.data.status) === 1;
      setState({ loaded: true, on, url: body.data.url ?? '' });
      if (statusAtClick.current !== null && on !== statusAtClick.current) {
        statusAtClick.current = null;
        setWatching(false);
        setTimedOut(false);
        setIntent(null);
      }
    } catch {
      // keep the last known status; a watch keeps trying
    }
  }, []);

  useEffect(() => {
    void read();
  }, [read]);
  usePolling(async () => {
    if (Date.now() - startedAt.current >= EMBED_WATCH_LIMIT_MS) {
      setWatching(false);
      setTimedOut(true);
      return;
    }
    await read();
  }, EMBED_POLL_MS, watching);

  const openEditor = useCallback(() => {
    if (state.url) window.open(state.url, '_blank', 'noopener');
    statusAtClick.current = state.on;
    startedAt.current = Date.now();
    setIntent(state.on ? 'off' : 'on');
    setTimedOut(false);
    setWatching(true);
  }, [state.on, state.url]);

  const recheck = useCallback(() => {
    // The hint stays while the status is still the one at the click (read() clears it on a change).
    void read().then(() => setTimedOut(statusAtClick.current !== null));
  }, [read]);

  return { ...state, watching, intent, timedOut, openEditor, recheck };
}
