// Restore of one image: the original bytes from R2 back on Shopify in place, with the merchant's own alt
// text and file name, then the row marked Restored. Free of charge. Resumable like the optimisation:
//   restoring (persisted before Shopify is called; a retry checks what Shopify serves first) -> restored
import { updateImageLocked, type ImageRow } from '../db/optimise';
import { sha256HexOfBytes } from '../lib/crypto';
import { mimeOf } from './decide';
import { MSG_DELETED, MSG_EXPIRED, PermanentImageError } from './errors';
import type { ImageUpdate, PipelineDeps } from './ports';
import { targetOf, type Outcome, type RunContext } from './run-optimise';

function formatOf(bytes: Uint8Array): string {
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return 'png';
  if (bytes[0] === 0x47 && bytes[1] === 0x49) return 'gif';
  if (bytes[8] === 0x57 && bytes[9] === 0x45) return 'webp';
  return 'jpeg';
}

export async function runRestore(deps: PipelineDeps, ctx: RunContext): Promise<Outcome> {
  const { job, shop, item } = ctx;
  let image: ImageRow = ctx.image;
  const write = async (patch: Parameters<typeof updateImageLocked>[4]) => {
    if (!(await updateImageLocked(deps.db, shop.id, image.id, job.id, patch))) throw new Error('processing lease lost to another job');
    image = { ...image, ...patch } as ImageRow;
  };
  if (image.status === 'restored' && image.step === 'restored') return { kind: 'done', status: 'skipped', note: 'already restored' };
  if (image.isDelete === 1 || item.isDelete === 1) throw new PermanentImageError(MSG_DELETED);
  if (image.isOverdue === 1 || (image.expiresAt !== null && image.expiresAt < deps.now())) throw new PermanentImageError(MSG_EXPIRED);

  const update: ImageUpdate = {};
  // Bytes go back only when Shopify holds our result; alt and name only when we changed them.
  if (image.isCompress === 1) {
    const obj = image.beforeFilePath ? await deps.bucket.get(image.beforeFilePath) : null;
    if (!obj) throw new PermanentImageError(MSG_EXPIRED);
    const bytes = new Uint8Array(await obj.arrayBuffer());
    update.file = { bytes, mime: mimeOf(formatOf(bytes)), filename: image.originalFileName ?? image.fileName };
  }
  if (image.isEditAlt === 1 && image.originalAlt !== null) update.alt = image.originalAlt;
  if (image.isEditName === 1 && image.originalFileName) update.fileName = image.originalFileName;

  if (update.file || update.alt !== undefined || update.fileName !== undefined) {
    let alreadyThere = false;
    if (image.step === 'restoring' && update.file && image.originalSha256) {
      const url = await deps.shopify.currentImageUrl(shop, targetOf(image, item));
      const now = url ? await deps.fetchImage(url).catch(() => null) : null;
      alreadyThere = !!now && (await sha256HexOfBytes(now)) === image.originalSha256;
    }
    if (!alreadyThere) {
      await write({ step: 'restoring', status: 'processing' });
      const res = await deps.shopify.updateImage(shop, targetOf(image, item), update);
      if (res.src && res.src !== image.src) await write({ src: res.src });
    }
  }
  await write({
    status: 'restored',
    step: 'restored',
    isRestore: 1,
    failReason: null,
    ...(update.alt !== undefined ? { alt: update.alt, isEditAlt: 0 } : {}),
    ...(update.fileName !== undefined ? { fileName: update.fileName, isEditName: 0 } : {}),
    lockJobId: null,
    lockExpiresAt: null,
  });
  return { kind: 'done', status: 'done' };
}
