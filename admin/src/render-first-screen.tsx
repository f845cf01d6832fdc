import { createMemoryHistory } from '@tanstack/react-router';
import { createStore } from 'jotai';
import { renderToString } from 'react-dom/server';
import { SETTING_INFO } from '../../shared/api/first-reads';
import { AppRoot } from './app-root';
import { i18next, initI18n } from './i18n';
import { createAppRouter } from './router';
import { flagKey, GUIDE_OFFERED } from './lib/session-flags';
import { firstScreenPath, settingsOf, startWithSettings } from './shell/first-screen';
import { PUBLIC_PATHS } from './shell/public-paths';
import { polarisCatalogueReady } from './shell/polaris-provider';
import { renderOnServer, type ServerRender } from './shell/render-env';
import { languageAtom } from './state/atoms';
import type * as Declared from '../../worker/admin-render';

// The Worker's render of the document's first screen (worker/document-render.ts, issue 26): the same tree
// the browser's first render makes (app-root.tsx, main.tsx), from the same state: the route of the
// document's URL, the session's settings and the screen's reads the Worker answered for the document
// (api/first-reads.ts), the merchant's language, and the viewport the Worker guessed. The browser then
// hydrates it, so the screen's text paints with the document instead of after the JavaScript.

export type FirstScreenInput = Omit<ServerRender, 'reads' | 'flagsRead' | 'timeZone' | 'timeZoneUsed'> & {
  /** The request's time zone (Cloudflare's `request.cf.timezone`), if known. */
  timeZone: string | null;
  /** The document's path and query. */
  href: string;
  reads: Record<string, unknown>;
};

/**
 * The screens rendered here: the shop's screens whose first render is what a merchant reads, and the
 * public ones. The launch and install screens (they act, then move on) and the recommendations (their
 * content loads as a lazy part, which the server cannot wait for) are left to the browser. The details
 * screen is rendered with the item its address names (`?item=<id>`: the document carries its read,
 * shared/api/first-reads.ts itemImagesRead), or, when the read did not come (late, not the shop's item),
 * with its loading table, as the browser's first render has it too.
 */
export const SERVER_RENDERED = [
  '/main',
  '/guidance',
  '/image_optimisation',
  '/image_optimisation_details',
  '/pricing',
  '/setting',
  '/privacy-policy',
  '/404',
  '/cookieError',
  '/error',
];

/**
 * The history state a screen reads when its address does not say (an entry of the details screen made
 * before its links named the item: the item in the state only): the Worker renders the screen as such an
 * address opens it, without; a reload of such an entry has it, and the document drops the markup.
 */
const stateRead = (pathname: string, search: Record<string, unknown>): string[] =>
  pathname === '/image_optimisation_details' && search.item === undefined ? ['prodId'] : [];

/** The markup of the first screen, its language and whether it used the session's settings; null: not rendered. */
export type FirstScreen = Declared.FirstScreen;

// Typed by the Worker's declaration of this module (worker/admin-render.d.ts), which this holds to it.
export const renderFirstScreen: typeof Declared.renderFirstScreen = async (
  input: FirstScreenInput,
): Promise<FirstScreen | null> => {
  initI18n();
  const store = createStore();
  const url = new URL(input.href, 'http://admin');
  const info = settingsOf(input.reads[SETTING_INFO]);
  // A session's first visit (the browser hydrates only then: main.tsx), so the wizard was not offered yet.
  const pathname = firstScreenPath(url.pathname, info, false);
  if (!SERVER_RENDERED.includes(pathname)) return null;
  // A shop's screen without its settings (no credential, a refused one, a late read) shows the shell's
  // waiting state in the browser: the browser renders it.
  if (!info && !PUBLIC_PATHS.includes(pathname)) return null;
  if (info) startWithSettings(store, info);
  const language = store.get(languageAtom);
  await polarisCatalogueReady(language);
  const history = createMemoryHistory({ initialEntries: [`${pathname}${url.search}`] });
  const router = createAppRouter({ history });
  await router.load();
  const matches = router.state.matches;
  // A redirect (/, /admin, an unknown path) or a route that failed: the browser renders it as before.
  if (router.state.location.pathname !== pathname || !matches.every((m) => m.status === 'success')) return null;
  // From here on synchronous: i18next is one instance for every request of this isolate, and no other
  // request's code runs before this render has read it.
  void i18next.changeLanguage(language); // the catalogue is loaded: i18next switches at once
  if (i18next.language !== language) return null;
  const pathFlags = pathname !== url.pathname && pathname === '/guidance' ? [GUIDE_OFFERED] : [];
  const flagsRead = new Set<string>(pathFlags);
  const env: ServerRender = { ...input, reads: { ...input.reads }, flagsRead, timeZone: input.timeZone || 'UTC' };
  const html = renderOnServer(env, () => renderToString(<AppRoot store={store} router={router} />));
  return {
    html,
    language,
    settings: info !== null,
    flags: [...flagsRead].map(flagKey),
    timeZone: env.timeZoneUsed ? env.timeZone : null,
    path: pathname,
    pathFlags: pathFlags.map(flagKey),
    stateKeys: stateRead(pathname, router.state.location.search),
  };
};
