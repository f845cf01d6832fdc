import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The admin SPA, built into dist/admin and served by the Worker as static assets.
// %SHOPIFY_API_KEY% in index.html is filled from the environment at build time (App Bridge reads it).
export default defineConfig({
  root: __dirname,
  plugins: [
    react(),
    {
      name: 'shopify-api-key',
      transformIndexHtml: (html) => html.replace('%SHOPIFY_API_KEY%', process.env.SHOPIFY_API_KEY ?? 'local-dev-api-key'),
    },
  ],
  build: { outDir: '../dist/admin', emptyOutDir: true, sourcemap: true },
  server: { proxy: { '/api': 'http://localhost:8787', '/shopify': 'http://localhost:8787', '/files': 'http://localhost:8787', '/imageAddWatermark': 'http://localhost:8787' } },
});
