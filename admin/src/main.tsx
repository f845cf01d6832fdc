import '@shopify/polaris/build/esm/styles.css';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { initI18n } from './i18n';
import { isEmbedded, readAuthToken } from './api/auth';
import { documentAnswer, dropFirstReads } from './api/client';
import { startEarlySettingInfo } from './api/early';
import { AppRoot } from './app-root';
import { inIframe } from './lib/app-bridge';
import { setHydrationTimeZone } from './lib/intl';
import { firstScreenPath, languageReady, settingsOf, startWithSettings } from './shell/first-screen';
import { readsSessionOn } from './shell/public-paths';
import { setHydrationViewport } from './shell/viewport';
import { createAppRouter } from './router';
import { languageAtom, store } from './state/atoms';
import { SETTING_INFO } from '../../shared/api/first-reads';

initI18n();
// Outside the admin frame with an admin token, or embedded with App Bridge already there, the session is
// known now. Its settings (language, plan, guide state) come with the document when the Worker could read
// them (api/first-reads.ts): the first render starts with them. Otherwise the session's first read starts
// before the code of the first render runs (api/early.ts).
const readsSession = readsSessionOn(location.pathname) && (isEmbedded() || (!inIframe() && readAuthToken() !== null));
const settings = readsSession ? settingsOf(documentAnswer(SETTING_INFO)) : null;
if (settings) startWithSettings(store, settings);
else if (readsSession) startEarlySettingInfo();
// The wizard's rules, known now: the router starts on the screen the merchant is sent to.
const path = location.pathname.replace(/(.)\/+$/, '$1');
const first = firstScreenPath(path, settings);
if (first !== path) history.replaceState(history.state, '', `${first}${location.search}${location.hash}`);
const router = createAppRouter();
// The document's answers were the first screen's: from the first move to another screen on, every read
// goes to the server (an answer left there, e.g. the session's settings, which this file only looked at,
// would otherwise answer a later read with what the shop was at load).
const stopWatching = router.subscribe('onBeforeNavigate', (e) => {
  if (!e.fromLocation || !e.pathChanged) return;
  dropFirstReads();
  setHydrationTimeZone(undefined); // a screen mounted from now on is rendered, not hydrated
  stopWatching();
});

/**
 * The Worker's markup of this screen (worker/document-render.ts), when the browser's first render will
 * be the same: the same session mode and the same settings. Then the viewport it was rendered for; null:
 * render afresh (React replaces the markup).
 */
function serverMarkup(root: HTMLElement): { phone: boolean; timeZone: string | undefined } | null {
  const rendered = root.dataset.ssr;
  if (!rendered || !root.firstElementChild) return null;
  const mode = isEmbedded() ? 'embedded' : inIframe() ? 'waiting' : 'standalone';
  // (A tab session with a banner closed or the wizard offered: the document dropped the markup before it
  // painted, worker/document-render.ts rootGuardScript.)
  if (rendered !== mode || (root.dataset.ssrSettings === '1') !== (settings !== null)) return null;
  // Dates are hydrated in the zone the Worker wrote them in (the request's), then written in the browser's
  // (lib/intl.ts useTimeZone).
  const zone = root.dataset.ssrTz;
  const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return { phone: root.dataset.ssrPhone === '1', timeZone: zone && zone !== own ? zone : undefined };
}

const root = document.getElementById('root');
if (root) {
  // The first render is a transition: React renders it in slices of a few milliseconds and lets the
  // browser paint and answer input in between, instead of one long task (issue 26: Total Blocking Time).
  // The router has matched the address and loaded the screen's chunk first, and the merchant's language
  // is loaded: the first render is the screen in that language, as the Worker rendered it.
  const server = serverMarkup(root);
  const app = <AppRoot store={store} router={router} />;
  const render = () =>
    startTransition(() => {
      if (!server) {
        createRoot(root).render(app);
        return;
      }
      // Hydrating: the shell reads the viewport the markup was made for (shell/viewport.ts), Polaris its
      // server defaults (admin/build/polaris-breakpoints.ts), and the router renders the shape it has on the
      // server; each component reads the browser's own values once it is hydrated.
      setHydrationViewport(server);
      setHydrationTimeZone(server.timeZone);
      router.ssr = { manifest: undefined };
      hydrateRoot(
        root,
        app,
        // A mismatch is recovered by React (it renders the screen afresh); said in the console for the tests.
        { onRecoverableError: (e) => console.error('admin hydration:', e) },
      );
    });
  Promise.all([router.load(), languageReady(store.get(languageAtom))]).then(render, render);
}
