import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { polarisTokensLightOnly, trimPolarisCss } from './build/polaris-trim';
import { preloadFirstScreen } from './build/screen-preload';
import { liveBreakpoints } from './build/polaris-breakpoints';
import { polarisHydration } from './build/polaris-hydration';
import { polarisLazyParts } from './build/polaris-lazy-parts';
import { trimPolarisLocales } from './build/polaris-locale-trim';
import { englishParts } from './build/english-parts';

// The admin SPA, built into dist/admin and served by the Worker as static assets.
// The shopify-api-key meta stays empty in the build: the Worker fills it per request (worker/document.ts).
export default defineConfig({
  root: __dirname,
  plugins: [
    react(),
    polarisTokensLightOnly(),
    trimPolarisCss(),
    preloadFirstScreen(`${__dirname}/src/router.tsx`),
    liveBreakpoints(),
    polarisHydration(),
    polarisLazyParts(),
    trimPolarisLocales(`${__dirname}/src`),
    englishParts(`${__dirname}/locales/en.json`),
  ],
  // shell/polaris-internals.ts imports a few Polaris files by their CommonJS path (the copy Node loads in
  // the tests); the bundle takes the ES module copy of the same file, the one Polaris' index points to.
  // React 18 has useSyncExternalStore: TanStack Store's selector hook takes the variant that uses React's
  // own rather than the shim for React 17 (about 0.4 KB gzipped in every screen's first JavaScript). And
  // deepmerge: admin/build/unused-deepmerge.ts.
  resolve: {
    alias: [
      { find: /^@shopify\/polaris\/build\/cjs\//, replacement: '@shopify/polaris/build/esm/' },
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector.js' },
      { find: /^deepmerge$/, replacement: `${__dirname}/build/unused-deepmerge.ts` },
    ],
  },
  // No source maps in the build: they would be public static assets next to the code (issue 26).
  build: {
    outDir: '../dist/admin',
    emptyOutDir: true,
    sourcemap: false,
    // Browsers without <link rel="modulepreload"> (Safari before 17) still load every module, only without
    // the early fetch: Vite's polyfill for them was code in the entry for every merchant (issue 26).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // What the entry imports statically is three chunks (issue 26): React, the other libraries
        // (TanStack Router and Query, i18next, jotai) and Polaris with the app's shell. Left to itself,
        // Rolldown splits the entry's modules by which lazy chunks also use them, into a dozen small files
        // every screen downloads anyway (each compresses on its own: about 9 KB gzipped more on /main, and
        // a request each); one chunk of it all was as small but its single long compile and evaluation
        // tripled mobile Total Blocking Time in Lighthouse (image optimisation: 485 ms against 196 ms for
        // the three, same runs). Lazy chunks import what they share with these from them.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, tags: ['$initial'], priority: 3 },
            {
              name: 'vendor',
              test: /node_modules[\\/](@tanstack|i18next|react-i18next|jotai|use-sync-external-store)[\\/]/,
              tags: ['$initial'],
              priority: 2,
            },
            { name: 'index', tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:8787',
      '/shopify': 'http://localhost:8787',
      '/files': 'http://localhost:8787',
      '/imageAddWatermark': 'http://localhost:8787',
    },
  },
});
