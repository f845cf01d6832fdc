// globalSetup of the admin browser scenarios: one product (`npm start` on PORT / EMULATOR_PORT) for every
// scenario file, started once and stopped after the last (each file still installs a shop of its own,
// app-under-test.ts). With ADMIN_URL set, a running `npm start` is used and nothing is started here.
import type { TestProject } from 'vitest/node';
import { startProduct } from '../npm-start';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The authenticated admin URL `npm start` printed (http://localhost:8787/main?authToken=...). */
    adminUrl: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.ADMIN_URL) {
    project.provide('adminUrl', process.env.ADMIN_URL);
    return;
  }
  const { adminUrl, stop } = await startProduct();
  project.provide('adminUrl', adminUrl);
  return stop;
}
