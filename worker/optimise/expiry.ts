// The daily expiry sweep: 30 days after optimisation the original (and the result) leave R2 and the row
// shows Expired (is_overdue); restore and re-optimise refuse it from then on. In production the bucket's
// lifecycle rule on originals/ deletes the same objects; deleting twice is harmless.
import type { Db } from '../db/client';
import { forgetVersionFiles, listExpiredImages, listExpiredVersions, liveKeys, updateImage } from '../db/images';
import type { Logger } from '../lib/log';

const BATCH = 200;
/** Bounds one cron run; the next day continues where this one stopped. */
const MAX_BATCHES = 50;

export async function sweepExpired(deps: { db: Db; bucket: R2Bucket; log: Logger; now: () => number }): Promise<number> {
  let marked = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const rows = await listExpiredImages(deps.db, deps.now(), BATCH);
    if (rows.length === 0) break;
    const keys = rows.flatMap((r) => [r.originalKey, r.resultKey]).filter((k): k is string => !!k);
    if (keys.length > 0) await deps.bucket.delete(keys);
    for (const r of rows) {
      await updateImage(deps.db, r.shopId, r.id, { expired: true, originalKey: null, resultKey: null });
    }
    marked += rows.length;
    if (rows.length < BATCH) break;
  }
  // Pairs retired when the merchant changed the picture (served.ts) leave R2 on the same date.
  for (let i = 0; i < MAX_BATCHES; i++) {
    const versions = await listExpiredVersions(deps.db, deps.now(), BATCH);
    if (versions.length === 0) break;
    const keys = versions.flatMap((v) => [v.originalKey, v.resultKey]).filter((k): k is string => !!k);
    // A retired original's key may be the row's current one again (the merchant put the old picture back).
    const live = new Set((await liveKeys(deps.db, keys)).filter(Boolean));
    const gone = keys.filter((k) => !live.has(k));
    if (gone.length > 0) await deps.bucket.delete(gone);
    await forgetVersionFiles(
      deps.db,
      versions.map((v) => v.id),
    );
    if (versions.length < BATCH) break;
  }
  deps.log.info('expiry_sweep_done', { marked });
  return marked;
}
