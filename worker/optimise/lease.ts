// The image lease (images.lock_job_id / lock_token / lock_expires_at). Queues deliver at least once: a
// message whose consumer outlived its wall time or whose batch failed comes again, possibly while the
// first delivery still runs in another isolate. Both deliveries carry the same job, so the lease belongs
// to one delivery (a random token the consumer draws), not to the job, and it is short: each write renews
// it, and work that waits (Shopify's file processing, the isolate's engine queue) renews it on a timer.
// Timers do not fire while the WASM engine encodes, so LEASE_MS (deps.ts) outlasts the longest encode.
// Another delivery takes the image over only once the lease has expired; the delivery that lost it finds
// out at its next write or renewal and stops there (LeaseLostError): it changes nothing after that, and
// in particular never calls Shopify, because every Shopify write comes right after a renewal
// (on-shopify.ts) and every other side effect (R2 writes, the version history) after one too.
import { readImageWords, updateImageLocked, type ImagePatch, type ImageRow, type ImageWordsExpected } from '../db/images';
import type { PipelineDeps } from './ports';

/** This delivery no longer holds the image: another one took it over after our lease expired. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
  constructor(imageId: number) {
    super(`processing lease of image ${imageId} taken over by another delivery`);
  }
}

/** The image row as this run last wrote it, and the only way the run writes it. */
export type LeasedImage = {
  readonly row: ImageRow;
  /** Writes the row and renews the lease; throws LeaseLostError when another delivery holds it. */
  write(patch: ImagePatch): Promise<void>;
  /**
   * Writes the patch only while the row still holds `unchanged` (alt text, file name): the catalogue sync
   * records a merchant's edit without the lease, and that newer edit wins. False when it did; throws
   * LeaseLostError when another delivery holds the image.
   */
  writeIfUnchanged(patch: ImagePatch, unchanged: ImageWordsExpected): Promise<boolean>;
  /**
   * Reads the merchant's words again (the sync may have recorded an edit since the run read the row) and
   * takes them into `row`; answers which of them changed.
   */
  refreshWords(): Promise<{ alt: boolean; fileName: boolean }>;
  /** Renews the lease before a side effect outside the row (R2, the version history, Shopify). */
  renew(): Promise<void>;
  /** Runs async work that may outlast the lease, renewing it meanwhile (a third of the lease apart). */
  during<T>(work: () => Promise<T>): Promise<T>;
};

export function leasedImage(
  deps: Pick<PipelineDeps, 'db' | 'now' | 'leaseMs' | 'log'>,
  token: string,
  image: ImageRow,
): LeasedImage {
  let row = image;
  const write = async (patch: ImagePatch) => {
    if (!(await updateImageLocked(deps.db, row.shopId, row.id, token, patch, deps.now() + deps.leaseMs)))
      throw new LeaseLostError(row.id);
    row = { ...row, ...patch };
  };
  return {
    get row() {
      return row;
    },
    write,
    async writeIfUnchanged(patch, unchanged) {
      if (await updateImageLocked(deps.db, row.shopId, row.id, token, patch, deps.now() + deps.leaseMs, unchanged)) {
        row = { ...row, ...patch };
        return true;
      }
      await write({}); // the words changed, or the lease is gone (this throws then)
      return false;
    },
    async refreshWords() {
      const words = await readImageWords(deps.db, row.shopId, row.id);
      if (!words) return { alt: false, fileName: false };
      const changed = { alt: words.alt !== row.alt, fileName: words.fileName !== row.fileName };
      row = { ...row, ...words };
      return changed;
    },
    renew: () => write({}),
    async during(work) {
      const timer = setInterval(() => {
        // A failed renewal is found again by the next write, which stops the run.
        write({}).catch((err: unknown) => deps.log.warn('lease_renewal_failed', { imageId: row.id, error: String(err) }));
      }, deps.leaseMs / 3);
      try {
        return await work();
      } finally {
        clearInterval(timer);
      }
    },
  };
}
