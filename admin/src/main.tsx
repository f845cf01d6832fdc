import '@shopify/polaris/build/esm/styles.css';
import { RouterProvider } from '@tanstack/react-router';
import { Provider as JotaiProvider } from 'jotai';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PolarisProvider } from './shell/polaris-provider';
import { initI18n } from './i18n';
import { createAppRouter } from './router';
import { store } from './state/atoms';

initI18n();
const router = createAppRouter();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <JotaiProvider store={store}>
        <PolarisProvider>
          <RouterProvider router={router} />
        </PolarisProvider>
      </JotaiProvider>
    </StrictMode>,
  );
}
