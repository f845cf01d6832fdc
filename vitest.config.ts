import { mkdirSync, readFileSync } from 'node:fs';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import react from '@vitejs/plugin-react';
import { parse } from 'smol-toml';
import { defineConfig } from 'vitest/config';

// wrangler.toml serves ./dist/admin as assets; tests do not need the build, only the folder.
mkdirSync('dist/admin', { recursive: true });

/** Test values for the Worker's secrets (the real ones live in wrangler secrets / .dev.vars). */
export const TEST_VARS = {
  APP_URL: 'https://app.test',
  SHOPIFY_API_KEY: 'test-api-key',
  SHOPIFY_API_SECRET: 'test-api-secret-0123456789abcdef',
  TOKEN_ENCRYPTION_KEY: 'dGVzdC1lbmNyeXB0aW9uLWtleS0zMi1ieXRlcy0hISE=',
  PAGESPEED_API_KEY: 'test-pagespeed-key',
  SHOPIFY_ORIGIN: '',
  PAGESPEED_ORIGIN: 'https://www.googleapis.com',
  BILLING_TEST_CHARGES: 'true',
};

/**
 * The image consumer Worker (wrangler.images.toml) runs the same handler as the test Worker
 * (worker/jobs/queue.ts registers it too), so the tests run one Worker that also consumes image-optimise
 * with the image Worker's settings. What only the deployed split changes (the CPU limit) is held by
 * tests/config/limits.test.ts.
 */
type ImageConsumer = {
  queue: string;
  max_batch_size?: number;
  max_batch_timeout?: number;
  max_retries?: number;
  dead_letter_queue?: string;
};
const imageConsumers = (parse(readFileSync('wrangler.images.toml', 'utf8')) as { queues: { consumers: ImageConsumer[] } }).queues
  .consumers;
const imageQueueConsumers = Object.fromEntries(
  imageConsumers.map((c) => [
    c.queue,
    {
      maxBatchSize: c.max_batch_size,
      maxBatchTimeout: c.max_batch_timeout,
      maxRetries: c.max_retries,
      deadLetterQueue: c.dead_letter_queue,
    },
  ]),
);

export default defineConfig({
  test: {
    // A root-only option (vitest rejects it inside a project): logs only from failing tests.
    silent: 'passed-only',
    projects: [
      {
        plugins: [
          // tests/global-setup.ts starts the store emulator; its origin is where Shopify and PSI calls go.
          cloudflareTest(async ({ inject }) => ({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              compatibilityFlags: ['nodejs_compat', 'service_binding_extra_handlers'],
              queueConsumers: imageQueueConsumers,
              bindings: {
                ...TEST_VARS,
                SHOPIFY_ORIGIN: inject('emulatorOrigin'),
                PAGESPEED_ORIGIN: inject('emulatorOrigin'),
                TEST_MIGRATIONS: await readD1Migrations('./migrations'),
                // Thorough settings of the hardening suites (npm run test:fuzz / test:chaos); empty: quick.
                FUZZ_RUNS: process.env.FUZZ_RUNS ?? '',
                CHAOS_IMAGES: process.env.CHAOS_IMAGES ?? '',
                STORE_LIFE_RUNS: process.env.STORE_LIFE_RUNS ?? '',
                STORE_LIFE_STEPS: process.env.STORE_LIFE_STEPS ?? '',
                STORE_LIFE_SEED: process.env.STORE_LIFE_SEED ?? '',
                // Deeper random interleavings of two deliveries of one image message (tests/worker/optimise/overlap.test.ts).
                OVERLAP_RUNS: process.env.OVERLAP_RUNS ?? '',
                OVERLAP_SEED: process.env.OVERLAP_SEED ?? '',
                // Every 25 MP JPEG sampling through the engine (npm run test:images-deep); empty: the 4:4:4 one only.
                IMAGES_DEEP: process.env.IMAGES_DEEP ?? '',
              },
            },
          })),
        ],
        // The Worker renders the admin's first screen (worker/document-render.ts): the admin imports Polaris
        // pieces by their CommonJS path (shell/polaris-internals.ts), which a bundle maps onto the ES module
        // copy the package index resolves to (admin/vite.config.ts; wrangler.toml [alias] path by path).
        resolve: { alias: [{ find: /^@shopify\/polaris\/build\/cjs\//, replacement: '@shopify/polaris/build/esm/' }] },
        test: {
          name: 'worker',
          globalSetup: ['tests/global-setup.ts'],
          include: ['tests/worker/**/*.test.ts'],
          setupFiles: ['tests/worker/setup.ts'],
          // Image tests encode and decode megapixels inside workerd: seconds each on a loaded 2-CPU machine.
          testTimeout: 20_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'admin',
          environment: 'happy-dom',
          include: ['tests/admin/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/admin/setup.ts'],
          // Screens and catalogues are lazy chunks: on a loaded 2-CPU machine (CI shares the cores with the
          // worker project) a test that opens several can take seconds. The limit only costs time on failure.
          testTimeout: 30_000,
        },
      },
      {
        // The app's configuration files held against Shopify's own rules and tools (shopify.app.toml the way
        // Shopify CLI reads it, theme-check over the theme app extension, one source for key and scopes).
        test: {
          name: 'config',
          environment: 'node',
          include: ['tests/config/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
      {
        // Real Chromium (/usr/bin/chromium) driven from Node; one folder per browser scenario.
        test: {
          name: 'browser',
          environment: 'node',
          // The storefront script's scenarios run on pages of their own; the embedded journey starts the
          // whole product (`npm start` on free ports). The other admin journeys run with
          // `npm run test:browser` / `test:browser:images`.
          include: ['tests/browser/prefetch/**/*.test.ts', 'tests/browser/embedded/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
