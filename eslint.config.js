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
      // A leading underscore marks a binding kept on purpose: a parameter a signature needs, a catch
      // binding the ES2017 storefront script must name, a property left out of a rest object.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Off: every `async` without an `await` here fills a Promise-returning slot on purpose (webhook
      // handler tables, ports such as a token source, fakes of async APIs, an async generator); the
      // forgotten `await` this rule hints at is caught by no-floating-promises instead.
      '@typescript-eslint/require-await': 'off',
      // URLSearchParams print as a query string; the Worker's copy is declared by workers-types, not by lib.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        {
          allow: [
            { from: 'lib', name: ['Error', 'URL', 'URLSearchParams'] },
            { from: 'file', name: ['URL', 'URLSearchParams'], path: 'worker/worker-configuration.d.ts' },
          ],
        },
      ],
      // TanStack Router's `throw redirect(...)` is how a route redirects: the thrown value is its Redirect.
      '@typescript-eslint/only-throw-error': [
        'error',
        { allow: [{ from: 'package', package: '@tanstack/router-core', name: 'Redirect' }] },
      ],
    },
  },

  {
    // Tests: vitest refers to methods it spies on (`vi.mocked(env.QUEUE.send)`, `expect(obj.fn)`) without
    // calling them unbound. Its asymmetric matchers (`expect.any(String)`, `expect.objectContaining`) are
    // typed `any`, and fakes and assertions read JSON bodies and GraphQL variables as `any` on purpose:
    // there the values are checked by expect(), so the no-unsafe family (which keeps `any` out of typed
    // production code) only adds casts. Promise rules stay on: an unawaited `expect(...).rejects` passes.
    files: ['tests/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },

  {
    // The admin's React code: the rules of hooks, complete effect dependencies, and the React Compiler's
    // checks except three. The admin is not built with the React Compiler, and these three flag patterns
    // it uses on purpose: a ref holding the latest callback written during render (polling, the data
    // layer), state reset when a dialog opens or its input changes, Date.now() in render for countdowns.
    files: ['admin/src/**/*.{ts,tsx}', 'tests/admin/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: globals.browser },
    rules: {
      'react-hooks/exhaustive-deps': 'error',
      'react-hooks/refs': 'off',
      'react-hooks/set-state-in-effect': 'off',
      'react-hooks/purity': 'off',
    },
  },

  {
    // Plain JavaScript: Node scripts (start, i18n, codec builds, fixtures) and browser-side scripts.
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }] },
  },
  {
    files: ['storefront-script/src/**/*.js', 'tests/browser/**/*.js', 'emulator/http/app-bridge-stand-in.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
]);
