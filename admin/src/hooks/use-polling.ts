import { useEffect, useRef } from 'react';

/**
 * Calls `tick` every `intervalMs` while `active` is true (score 5 s, embed status 3 s, image sync 3 s).
 * The latest `tick` is always used, so callers need not memoise it; stopping clears the timer at once.
 */
export function usePolling(tick: () => void | Promise<void>, intervalMs: number, active: boolean): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => void latest.current(), intervalMs);
    return () => clearInterval(id);
  }, [active, intervalMs]);
}
