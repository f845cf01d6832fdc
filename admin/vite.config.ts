import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { polarisTokensLightOnly, trimPolarisCss } from './build/polaris-trim';
import { preloadFirstScreen } from './build/screen-preload';

// The admin SPA, built into dist/admin and served by the Worker as static assets.
// The shopify-api-key meta stays empty in the build: the Worker fills it per request (worker/document.ts).
export default defineConfig({
  root: __dirname,
  plugins: [react(), polarisTokensLightOnly(), trimPolarisCss(), preloadFirstScreen(`${__dirname}/src/router.tsx`)],
  // shell/polaris-internals.ts imports a few Polaris files by their CommonJS path (the copy Node loads in
  // the tests); the bundle takes the ES module copy of the same file, the one Polaris' index points to.
  resolve: { alias: [{ find: /^@shopify\/polaris\/build\/cjs\//, replacement: '@shopify/polaris/build/esm/' }] },
  // No source maps in the build: they would be public static assets next to the code (issue 26).
  build: {
    outDir: '../dist/admin',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Everything the entry imports statically is one chunk (issue 26). Left to itself, Rolldown splits
        // the entry's modules by which lazy chunks also use them, into a dozen small files that every
        // screen downloads anyway: each compresses on its own (about 4 KB gzipped more in all) and costs
        // a request. Lazy chunks import what they share with the entry from it.
        codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] },
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
