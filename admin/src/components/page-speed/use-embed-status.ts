import { useCallback, useEffect, useRef, useState } from 'react';
import { checkThemeAppExtension } from '../../api/calls';
import { isOk } from '../../api/client';
import { usePolling } from '../../hooks/use-polling';

/** Embed status polling interval after a Speed up / Turn off click (section 9). */
export const EMBED_POLL_MS = 3000;

export type EmbedState = { loaded: boolean; on: boolean; url: string; watching: boolean; openEditor: () => void };

/**
 * The theme app-embed status (section 4 "Embed status"): read once; after the merchant opens the theme
 * editor, polled every 3 s until the status differs from what it was at the click, then polling stops.
 */
export function useEmbedStatus(): EmbedState {
  const [state, setState] = useState({ loaded: false, on: false, url: '' });
  const [watching, setWatching] = useState(false);
  const statusAtClick = useRef<boolean | null>(null);

  const read = useCallback(async () => {
    try {
      const body = await checkThemeAppExtension();
      if (!isOk(body) || !body.data) return;
      const on = Number(body.data.status) === 1;
      setState({ loaded: true, on, url: body.data.url ?? '' });
      if (statusAtClick.current !== null && on !== statusAtClick.current) {
        statusAtClick.current = null;
        setWatching(false);
      }
    } catch {
      // keep the last known status; a watch keeps trying
    }
  }, []);

  useEffect(() => {
    void read();
  }, [read]);
  usePolling(read, EMBED_POLL_MS, watching);

  const openEditor = useCallback(() => {
    if (state.url) window.open(state.url, '_blank', 'noopener');
    statusAtClick.current = state.on;
    setWatching(true);
  }, [state.on, state.url]);

  return { ...state, watching, openEditor };
}
