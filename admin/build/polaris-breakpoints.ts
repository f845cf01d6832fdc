import type { Plugin } from 'vite';

// Polaris' useBreakpoints (Card, Frame, the shell, the history table...) starts every component with
// default matches, for server rendering, then in a layout effect reads the window's 12 media queries and
// sets a new object: every such component renders twice, the second time synchronously inside the
// commit, after 12 matchMedia calls (on a phone that made each screen's commit a long task, issue 26).
// In the built admin a component reads the live matches at its first render, and the effect keeps the
// state when nothing changed, except while React hydrates the Worker's markup of the first screen
// (worker/document-render.ts): then it starts from Polaris' server defaults, as the Worker's render did,
// and its layout effect reads the live matches, as Polaris does for server rendering. Whether a component
// is hydrating is React's own answer (useSyncExternalStore's server snapshot is read only then), per
// component: a Suspense boundary's content hydrates after the rest has committed. Only the built bundle
// is changed; the component tests run Polaris as is.

const FILE = /@shopify[\\/]polaris[\\/]build[\\/]esm[\\/]utilities[\\/]breakpoints\.js$/;

const IMPORT_FROM = "import { useState } from 'react';";
const IMPORT_TO = "import { useState, useSyncExternalStore } from 'react';\nconst noChange = () => () => {};";
const INITIAL_FROM = 'useState(getDefaultMatches(options?.defaults))';
const INITIAL_TO =
  'useState(() => options?.defaults === undefined && typeof window !== "undefined" && !hydrating ? getLiveMatches() : getDefaultMatches(options?.defaults))';
const HYDRATING = 'const hydrating = useSyncExternalStore(noChange, () => false, () => true);\n  ';
const EFFECT_FROM = 'setBreakpoints(getLiveMatches());';
const EFFECT_TO =
  'setBreakpoints(prev => { const live = getLiveMatches(); return Object.keys(live).every(k => live[k] === prev[k]) ? prev : live; });';

export function liveBreakpoints(): Plugin {
  return {
    name: 'polaris-live-breakpoints',
    enforce: 'pre',
    transform(code, id) {
      if (!FILE.test(id)) return null;
      const state = `const [breakpoints, setBreakpoints] = ${INITIAL_FROM}`;
      if (!code.includes(IMPORT_FROM) || !code.includes(state) || !code.includes(EFFECT_FROM))
        this.error('polaris-live-breakpoints: Polaris changed useBreakpoints; review admin/build/polaris-breakpoints.ts');
      return {
        code: code
          .replace(IMPORT_FROM, IMPORT_TO)
          .replace(state, `${HYDRATING}const [breakpoints, setBreakpoints] = ${INITIAL_TO}`)
          .replace(EFFECT_FROM, EFFECT_TO),
        map: null,
      };
    },
  };
}
