import '@shopify/polaris/build/esm/styles.css';
import { RouterProvider } from '@tanstack/react-router';
import { Provider as JotaiProvider } from 'jotai';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PolarisProvider } from './shell/polaris-provider';
import { initI18n } from './i18n';
import { isEmbedded, readAuthToken } from './api/auth';
import { startEarlySettingInfo } from './api/early';
import { inIframe } from './lib/app-bridge';
import { readsSessionOn } from './shell/public-paths';
import { createAppRouter } from './router';
import { store } from './state/atoms';

initI18n();
// Outside the admin frame with an admin token, or embedded with App Bridge already there, the session is
// known now: its first read starts before the code of the first render runs (api/early.ts).
if (readsSessionOn(location.pathname) && (isEmbedded() || (!inIframe() && readAuthToken() !== null))) startEarlySettingInfo();
const router = createAppRouter();

const root = document.getElementById('root');
if (root) {
  // The first render is a transition: React renders it in slices of a few milliseconds and lets the
  // browser paint and answer input in between, instead of one long task (issue 26: Total Blocking Time).
  // The router has matched the address and loaded the screen's chunk first: rendered before, the router
  // rendered nothing, then matched in a layout effect and re-rendered the whole app (shell, Polaris'
  // frame, the screen) through useSyncExternalStore, synchronously, in one 300-400 ms task on a phone.
  const app = createRoot(root);
  const render = () =>
    startTransition(() =>
      app.render(
        <StrictMode>
          <JotaiProvider store={store}>
            <PolarisProvider>
              <RouterProvider router={router} />
            </PolarisProvider>
          </JotaiProvider>
        </StrictMode>,
      ),
    );
  router.load().then(render, render);
}
