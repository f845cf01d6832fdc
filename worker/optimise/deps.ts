// The real dependencies of the pipeline, built from the Worker's bindings. Tests build their own.
import { chargeImageOnce, quotaStatus } from '../billing';
import { createDb, type Db } from '../db/client';
import { getStoredImageSettings } from '../db/image-settings';
import { optimiseImage, type EngineSettings } from '../images';
import type { Logger } from '../lib/log';
import { PermanentImageError } from './errors';
import type { PlanDeps } from './plan';
import type { PipelineDeps, QuotaPort } from './ports';
import { shopifyImages } from './shopify-images';

/**
 * The image lease (lease.ts), renewed at every step and on a timer while a step waits (Shopify's file
 * processing, the isolate's engine queue). Timers stop while the WASM engine encodes, so it outlasts the
 * longest encode: 25 MP at the engine's worst measured 2,435 CPU ms/MP is about 61 s (tests/config/limits
 * .test.ts), twice that here. A delivery that stalls longer loses the image to the next delivery and stops
 * at its next step; a dead worker's image is free again after it.
 */
export const LEASE_MS = 2 * 60 * 1000;

/** CDN bytes; 404/410 mean the image is gone on Shopify (permanent), other failures are retried. */
export async function fetchImageBytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (res.status === 404 || res.status === 410) {
    await res.body?.cancel();
    throw new PermanentImageError(`image not found on Shopify (${res.status})`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`image download failed: HTTP ${res.status}`);
  }
  return new Uint8Array(await res.arrayBuffer());
}

export function quotaPort(db: Db): QuotaPort {
  return {
    canOptimise: async (shop) => (await quotaStatus(db, shop)).canOptimise,
    charge: (shop, ref) => chargeImageOnce(db, shop, ref),
  };
}

/**
 * Runs one call at a time. The codec holds decoded pixels (up to ~100 MB for the largest image it takes
 * in the isolate, see worker/images/budget.ts); messages of a batch run side by side, so without this
 * two decodes could overlap in one 128 MB isolate. Network waits (CDN, upload, READY polling) still overlap.
 */
export function oneAtATime<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  let tail: Promise<unknown> = Promise.resolve();
  return (...args: A) => {
    const run = tail.then(() => fn(...args));
    tail = run.catch(() => undefined);
    return run;
  };
}

/** One codec run at a time per isolate, across every batch the isolate is handling. */
const isolateEngine = oneAtATime((input: Uint8Array, settings: EngineSettings) => optimiseImage(input, settings));

export function pipelineDeps(env: Env, log: Logger): PipelineDeps {
  const db = createDb(env.DB);
  return {
    db,
    bucket: env.BUCKET,
    log,
    now: () => Date.now(),
    optimiseImage: (input, settings) => isolateEngine(input, settings),
    fetchImage: fetchImageBytes,
    shopify: shopifyImages(env, db),
    quota: quotaPort(db),
    loadSettings: (shopId) => getStoredImageSettings(db, shopId),
    leaseMs: LEASE_MS,
  };
}

export function planDeps(env: Env, db: Db, log: Logger): PlanDeps {
  const quota = quotaPort(db);
  return { db, queue: env.OPTIMISE_QUEUE, log, now: () => Date.now(), canOptimise: quota.canOptimise };
}
