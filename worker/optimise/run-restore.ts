// Restore of one image: the original bytes from R2 back on Shopify in place, with the merchant's own alt
// text and file name, then the row marked Restored. Free of charge. Resumable like the optimisation, with
// the same lease and the same "already on Shopify" check:
//   restoring (persisted before Shopify is called; a retry checks what Shopify serves first) -> restored
import type { ImageRow } from '../db/images';
import { mimeOf } from './decide';
import { MSG_DELETED, MSG_EXPIRED, PermanentImageError } from './errors';
import { leasedImage } from './lease';
import { replaceOnShopify } from './on-shopify';
import type { ImageUpdate, PipelineDeps } from './ports';
import type { Outcome, RunContext } from './run-context';
import { formatOf, readKept } from './stored-bytes';

/** What goes back: bytes only when Shopify holds our result; alt and name only when we changed them. */
async function restoreUpdate(deps: PipelineDeps, image: ImageRow): Promise<ImageUpdate> {
  const update: ImageUpdate = {};
  if (image.compressed) {
    const bytes = await readKept(deps, image.originalKey);
    update.file = { bytes, mime: mimeOf(formatOf(bytes)), filename: image.originalFileName ?? image.fileName };
  }
  if (image.altEdited && image.originalAlt !== null) update.alt = image.originalAlt;
  if (image.fileNameEdited && image.originalFileName) update.fileName = image.originalFileName;
  return update;
}

export async function runRestore(deps: PipelineDeps, ctx: RunContext): Promise<Outcome> {
  const { job, shop, item, image } = ctx;
  if (image.status === 'restored' && image.step === 'restored')
    return { kind: 'done', status: 'skipped', note: 'already restored' };
  if (image.deleted || item.deleted) throw new PermanentImageError(MSG_DELETED);
  if (image.expired || (image.expiresAt !== null && image.expiresAt < deps.now())) throw new PermanentImageError(MSG_EXPIRED);

  const lease = leasedImage(deps, job.id, image);
  const update = await restoreUpdate(deps, image);
  if (update.file || update.alt !== undefined || update.fileName !== undefined) {
    const replacement = {
      update,
      expectedSha: image.originalSha256,
      resuming: image.step === 'restoring',
      marker: { step: 'restoring', status: 'processing' },
    };
    await replaceOnShopify(deps, shop, item, lease, replacement);
  }
  await lease.write({
    status: 'restored',
    step: 'restored',
    restored: true,
    failReason: null,
    ...(update.alt !== undefined ? { alt: update.alt, altEdited: false } : {}),
    ...(update.fileName !== undefined ? { fileName: update.fileName, fileNameEdited: false } : {}),
    lockJobId: null,
    lockExpiresAt: null,
  });
  return { kind: 'done', status: 'done' };
}
