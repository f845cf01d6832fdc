import { startTransition, useDeferredValue, useEffect, useState, type ReactNode } from 'react';
import { useHydrated } from '../shell/viewport';

// Issue 26 (Total Blocking Time): TanStack Query, TanStack Router and jotai deliver their updates through
// useSyncExternalStore, which React always renders synchronously, in one task however large the tree
// (a screen's first render with its data took 300-800 ms on a phone). The update itself cannot be made
// a transition, but what it reveals can: these hooks move the heavy part of such a render into a
// transition, which React renders in slices of about 5 ms with the browser free to paint and answer
// input in between. The synchronous render that brought the data stays small (a skeleton, or the rows
// as they were).

/**
 * `ready` as the screen should show it: when it turns true inside a synchronous update, this render
 * still sees false and a transition follows that sees true (React's useDeferredValue). So the screen's
 * content mounts in an interruptible render instead of inside the data's synchronous one. Ready already
 * when the screen mounts (its data cached, e.g. back on a screen, or the settings sheet opened again), it
 * is still false on that first render: the router's update that mounts a screen is synchronous too.
 */
export function useReadyInTransition(ready: boolean): boolean {
  const [readyAtMount] = useState(ready);
  // The Worker's render of the first screen and the browser's hydration of it (issue 26: both are one
  // render, the hydration already a transition) show the content at once when its data came with the
  // document: the markup the merchant sees first is the screen, not its skeleton.
  const hydrated = useHydrated();
  const [atOnce] = useState(!hydrated && ready);
  const mounted = useLater(readyAtMount && !atOnce);
  const deferred = useDeferredValue(ready);
  return deferred && (atOnce || !readyAtMount || mounted);
}

/**
 * false on the first render, true in a transition started once that render is committed (once `when`
 * is true): the part of a screen below the fold (history, footer, dialogs) mounts in its own
 * interruptible render and its own, smaller, layout, after what the merchant sees first.
 */
export function useLater(when = true): boolean {
  const [later, setLater] = useState(false);
  useEffect(() => {
    if (when) startTransition(() => setLater(true));
  }, [when]);
  return later;
}

/** Renders `children` one transition after its first commit (useLater), `fallback` until then. */
export function Later({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return useLater() ? children : fallback;
}
