// ESLint for the whole repository (`npm run lint`, part of `npm test`).
// typescript-eslint's type-checked rules: above all no floating or misused promises, since on Workers a
// promise nobody awaits (or hands to ctx.waitUntil) may be cancelled when the response is sent.
// Formatting is Prettier's job (`npm run format`), so no stylistic rules here.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig([
  globalIgnores([
    'node_modules/',
    'dist/',
    '**/.wrangler/',
    'coverage/',
    'bench-results/',
    // Generated: `npm run types` and `npm run build:script` write these.
    'worker/worker-configuration.d.ts',
    'storefront-script/build/',
    'storefront-script/extension/assets/',
  ]),

  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // One program per tsconfig, each file linted with the first one that includes it: the Worker,
        // shared modules and Workers-runtime tests (tsconfig.json), the admin (admin/tsconfig.json),
        // Node-side code: scripts, emulator, benchmarks, browser tests, configs (tsconfig.node.json).
        project: ['./tsconfig.json', './admin/tsconfig.json', './tsconfig.node.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Fire-and-forget must be said out loud (`void promise`), everything else is awaited or handed on.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },

  {
    // The admin's React code: the rules of hooks and the React Compiler's checks.
    files: ['admin/src/**/*.{ts,tsx}', 'tests/admin/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: globals.browser },
  },

  {
    // Plain JavaScript: Node scripts (start, i18n, codec builds, fixtures) and browser-side scripts.
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['storefront-script/src/**/*.js', 'tests/browser/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
]);
