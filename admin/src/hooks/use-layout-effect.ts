import { useEffect, useLayoutEffect } from 'react';

/**
 * useLayoutEffect in the browser; in the Worker's render of the first screen (worker/document-render.ts),
 * where no effect runs, useEffect, which React's server renderer takes silently (it warns about a layout
 * effect). Polaris does the same (useIsomorphicLayoutEffect).
 */
export const useLayoutEffectInBrowser = typeof document === 'undefined' ? useEffect : useLayoutEffect;
