// The image lease (images.lock_job_id / lock_expires_at): the consumer takes it with one conditional
// UPDATE (claimImage) before a run and releases it after; while a run holds it, every write goes through
// here and fails loudly once another job took the image over (our lease expired).
import { updateImageLocked, type ImagePatch, type ImageRow } from '../db/images';
import type { PipelineDeps } from './ports';

/** The image row as this run last wrote it, and the only way the run writes it. */
export type LeasedImage = {
  readonly row: ImageRow;
  write(patch: ImagePatch): Promise<void>;
};

export function leasedImage(deps: Pick<PipelineDeps, 'db'>, jobId: string, image: ImageRow): LeasedImage {
  let row = image;
  return {
    get row() {
      return row;
    },
    async write(patch) {
      if (!(await updateImageLocked(deps.db, row.shopId, row.id, jobId, patch)))
        throw new Error('processing lease lost to another job');
      row = { ...row, ...patch };
    },
  };
}
