// vitest globalSetup for the Workers project: starts the Shopify store emulator (and its PageSpeed
// emulator) on a free port and provides its origin; vitest.config.ts injects it as the Worker's
// SHOPIFY_ORIGIN and PAGESPEED_ORIGIN bindings. Tests reach its control API through
// tests/worker/emulator-client.ts.
import type { TestProject } from 'vitest/node';
import { APP_HANDLE, DEFAULT_SCOPES, startEmulator } from '../emulator/server';

declare module 'vitest' {
  export interface ProvidedContext {
    emulatorOrigin: string;
  }
}

/** The app identity the emulator knows; the same values as TEST_VARS in vitest.config.ts. */
export const EMULATOR_TEST_APP = {
  apiKey: 'test-api-key',
  apiSecret: 'test-api-secret-0123456789abcdef',
  appUrl: 'https://app.test',
  handle: APP_HANDLE,
  scopes: DEFAULT_SCOPES.split(','),
};

export default async function setup(project: TestProject) {
  // Webhooks stay queued (no webhookUrl): the app runs in-process, so tests post them themselves.
  const running = await startEmulator({
    port: 0,
    app: EMULATOR_TEST_APP,
    seedDevStore: true,
    defaults: { webhookUrl: '', storefrontTtfbMs: [0, 0] },
  });
  project.provide('emulatorOrigin', running.origin);
  return async () => {
    await running.close();
  };
}
