import { RouterProvider } from '@tanstack/react-router';
import { Provider as JotaiProvider, type createStore } from 'jotai';
import { StrictMode } from 'react';
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
