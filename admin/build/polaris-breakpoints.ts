import type { Plugin } from 'vite';

// Polaris' useBreakpoints (Card, Frame, the shell, the history table...) starts every component with
// default matches, for server rendering, then in a layout effect reads the window's 12 media queries and
// sets a new object: every such component renders twice, the second time synchronously inside the
// commit, after 12 matchMedia calls (on a phone that made each screen's commit a long task, issue 26).
// This admin renders only in the browser: the first render reads the live matches, and the effect keeps
// the state when nothing changed. Only the built bundle is changed; the component tests run Polaris as is.

const FILE = /@shopify[\\/]polaris[\\/]build[\\/]esm[\\/]utilities[\\/]breakpoints\.js$/;

const INITIAL_FROM = 'useState(getDefaultMatches(options?.defaults))';
const INITIAL_TO =
  'useState(() => options?.defaults === undefined && typeof window !== "undefined" ? getLiveMatches() : getDefaultMatches(options?.defaults))';
const EFFECT_FROM = 'setBreakpoints(getLiveMatches());';
const EFFECT_TO =
  'setBreakpoints(prev => { const live = getLiveMatches(); return Object.keys(live).every(k => live[k] === prev[k]) ? prev : live; });';

export function liveBreakpoints(): Plugin {
  return {
    name: 'polaris-live-breakpoints',
    enforce: 'pre',
    transform(code, id) {
      if (!FILE.test(id)) return null;
      if (!code.includes(INITIAL_FROM) || !code.includes(EFFECT_FROM))
        this.error('polaris-live-breakpoints: Polaris changed useBreakpoints; review admin/build/polaris-breakpoints.ts');
      return { code: code.replace(INITIAL_FROM, INITIAL_TO).replace(EFFECT_FROM, EFFECT_TO), map: null };
    },
  };
}
