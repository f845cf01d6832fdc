import { useSyncExternalStore } from 'react';
import { serverRender } from './render-env';

// The layout decisions the shell makes by viewport (the standalone tabs wrap on a phone, the page header
// takes Polaris' mobile layout), read so that the Worker's render of the first screen and the browser's
// hydration of it agree (issue 26): both render for the viewport the Worker guessed from the request (a
// phone's or a wide one; the document says which, main.tsx), and the browser renders again at once if the
// guess was wrong. A browser render that hydrates nothing reads the viewport itself from the first render.

/** Polaris' smDown: narrower than its sm breakpoint (490 px). */
export const PHONE_WIDTH = '(max-width: 489.95px)';
/** Polaris' navigationBarCollapsed: narrower than 768 px (its page header's mobile layout). */
export const NAVIGATION_COLLAPSED = '(max-width: 767.95px)';

/**
 * The guess the document was rendered for (main.tsx), read only while React hydrates a component (the
 * server snapshot below): a Suspense boundary's content hydrates after the rest has committed.
 */
let hydrating: { phone: boolean } | null = null;

export function setHydrationViewport(guess: { phone: boolean } | null): void {
  hydrating = guess;
}

function subscribe(query: string) {
  return (onChange: () => void) => {
    const list = matchMedia(query);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  };
}

const subscriptions = new Map<string, (onChange: () => void) => () => void>();

/** Whether `query` (one of the above: a phone's width or narrower) matches. */
export function useNarrow(query: typeof PHONE_WIDTH | typeof NAVIGATION_COLLAPSED): boolean {
  let sub = subscriptions.get(query);
  if (!sub) subscriptions.set(query, (sub = subscribe(query)));
  return useSyncExternalStore(sub, () => matchMedia(query).matches, renderedPhone);
}

/** Whether the markup is (the Worker's render) or was (read while hydrating it) rendered for a phone. */
export const renderedPhone = (): boolean => serverRender()?.phone ?? hydrating?.phone ?? false;

const noChange = () => () => {};

/**
 * false in the Worker's render and while the browser hydrates it, true in every other render: for what
 * only the browser can render (App Bridge's navigation menu).
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  );
