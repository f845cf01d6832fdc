// What one image's run (optimise or restore) is given and what it answers; shared by the consumer and
// both runs.
import type { JobRow } from '../db/jobs';
import type { ImageRow } from '../db/images';
import type { ItemRow } from '../db/items';
import type { ShopRow } from '../db/shops';
import type { UploadOptions } from './decide';

/** Originals are kept this long after they were written to R2 (the lifecycle rule on originals/ and uploads/). */
export const KEEP_MS = 30 * 24 * 60 * 60 * 1000;

/** Where one image's time went (logged per image; the pipeline benchmark sums them). */
export type Timings = { fetchMs: number; engineMs: number; shopifyMs: number };

export type RunContext = {
  job: JobRow;
  shop: ShopRow;
  image: ImageRow;
  item: ItemRow;
  /** The image took its quota slot before (its ledger row exists): a re-optimise needs no new quota. */
  charged: boolean;
  /** Lease holder before this claim: a different job's half-done result is recomputed, not trusted. */
  previousLockJobId: string | null;
  /** This delivery's lease token (lease.ts): every write of the run is checked against it. */
  leaseToken: string;
  upload?: UploadOptions;
};

export type Outcome =
  | { kind: 'done'; status: 'done' | 'skipped' | 'failed'; note?: string; charged?: boolean; timings?: Timings }
  /** The plan limit stops the job; imageDone says whether this image itself was finished first. */
  | { kind: 'plan_limit'; imageDone: boolean };
