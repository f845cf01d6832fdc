import { useSyncExternalStore } from 'react';
import { renderedPhone } from '../shell/viewport';

/**
 * The width the Worker's render of a screen (and the browser's hydration of it) takes for the window: a
 * phone's (no page-size selector) or a desktop's, as the viewport it guessed (shell/viewport.ts).
 */
const RENDERED_WIDTH = { phone: 390, wide: 1024 };

function subscribe(onChange: () => void) {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

/** The window's inner width, kept current on resize (the page-size selector hides below 550 px). */
export function useWindowWidth(): number {
  return useSyncExternalStore(
    subscribe,
    () => window.innerWidth,
    () => (renderedPhone() ? RENDERED_WIDTH.phone : RENDERED_WIDTH.wide),
  );
}
