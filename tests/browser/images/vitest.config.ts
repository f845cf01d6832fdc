import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The merchant's image journey in Debian's Chromium against `npm start` (`npm run test:browser:images`).
// Not part of `npm test`: it needs the whole product up. The file is *.journey.ts so the default
// browser project (tests/browser/**/*.test.ts) does not pick it up.
export default defineConfig({
  root: fileURLToPath(new URL('../../..', import.meta.url)),
  test: {
    name: 'browser-images',
    environment: 'node',
    include: ['tests/browser/images/**/*.journey.ts'],
    testTimeout: 300_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
