import { RouterProvider } from '@tanstack/react-router';
import { Provider as JotaiProvider, type createStore } from 'jotai';
import { StrictMode, useEffect } from 'react';
import type { createAppRouter } from './router';
import { PolarisProvider } from './shell/polaris-provider';

/**
 * The admin's whole tree, one definition for the browser (main.tsx) and the Worker's render of the first
 * screen (render-first-screen.tsx): hydration needs both to render the same tree.
 */
export function AppRoot({
  store,
  router,
}: {
  store: ReturnType<typeof createStore>;
  router: ReturnType<typeof createAppRouter>;
}) {
  // Said on the root once the tree is live (hydrated or rendered): until then the Worker's markup shows
  // but does not answer clicks (the browser tests wait for it).
  useEffect(() => {
    document.getElementById('root')?.setAttribute('data-live', '');
  }, []);
  return (
    <StrictMode>
      <JotaiProvider store={store}>
        <PolarisProvider>
          <RouterProvider router={router} />
        </PolarisProvider>
      </JotaiProvider>
    </StrictMode>
  );
}
