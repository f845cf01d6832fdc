import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Admin browser scenarios: Debian's Chromium (playwright-core) against a running `npm start`
// (`npm run test:browser`). Not part of `npm test`: they need the whole product up.
export default defineConfig({
  root: fileURLToPath(new URL('../../..', import.meta.url)),
  test: {
    name: 'browser-admin',
    environment: 'node',
    include: ['tests/browser/admin/**/*.test.ts'],
    // One `npm start` for every scenario file (each installs a shop of its own).
    globalSetup: ['tests/browser/admin/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
