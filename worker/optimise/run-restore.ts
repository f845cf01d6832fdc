// Restore of one image: the original bytes from R2 back on Shopify in place, with the merchant's own alt
// text and file name, then the row marked Restored. Free of charge. Resumable like the optimisation, with
// the same lease and the same "already on Shopify" check:
//   restoring (persisted before Shopify is called; a retry checks what Shopify serves first) -> restored
// It ends in one of two true states (decisions.md): Restored, or Failed with the reason on the row. What
// Shopify serves is checked first: a picture we did not write is never replaced by an older original.
import { LEASE_RELEASED, type ImageRow } from '../db/images';
import type { ItemRow } from '../db/items';
import type { ShopRow } from '../db/shops';
import { english } from '../../shared/messages';
import { DATA_TYPES, mimeOf } from './decide';
import { MSG_DELETED, MSG_EXPIRED, PermanentImageError } from './errors';
import { leasedImage, type LeasedImage } from './lease';
import { replaceOnShopify, underFreeName } from './on-shopify';
import type { ImageUpdate, PipelineDeps } from './ports';
import type { Outcome, RunContext } from './run-context';
import { moveToNewPicture, readServed } from './served';
import { formatOf, readKept } from './stored-bytes';

/** What goes back: bytes unless Shopify serves the original already; alt and name only when we changed them. */
async function restoreUpdate(deps: PipelineDeps, image: ImageRow, bytesNeeded: boolean): Promise<ImageUpdate> {
  const update: ImageUpdate = {};
  if (image.compressed && bytesNeeded) {
    const bytes = await readKept(deps, image.originalKey);
    update.file = { bytes, mime: mimeOf(formatOf(bytes)), filename: image.originalFileName ?? image.fileName };
  }
  if (image.altEdited && image.originalAlt !== null) update.alt = image.originalAlt;
  if (image.fileNameEdited && image.originalFileName) update.fileName = image.originalFileName;
  return update;
}

/** Puts the update on Shopify; the file name actually used (a nearby one when the original is taken). */
async function restoreOnShopify(
  deps: PipelineDeps,
  shop: ShopRow,
  item: ItemRow,
  lease: LeasedImage,
  update: ImageUpdate,
  resuming: boolean,
): Promise<string | undefined> {
  return underFreeName(update.fileName, (name, tries) =>
    replaceOnShopify(deps, shop, item, lease, {
      update: {
        ...update,
        ...(name !== undefined ? { fileName: name } : {}),
        ...(update.file && name ? { file: { ...update.file, filename: name } } : {}),
      },
      expectedSha: lease.row.originalSha256,
      resuming: resuming && tries === 0,
      marker: { step: 'restoring', status: 'processing' },
    }),
  );
}

export async function runRestore(deps: PipelineDeps, ctx: RunContext): Promise<Outcome> {
  const { shop, item, image } = ctx;
  if (image.status === 'restored' && image.step === 'restored')
    return { kind: 'done', status: 'skipped', note: 'already restored' };
  if (image.deleted || item.deleted) throw new PermanentImageError(MSG_DELETED);
  if (image.expired || (image.expiresAt !== null && image.expiresAt < deps.now())) throw new PermanentImageError(MSG_EXPIRED);

  const lease = leasedImage(deps, ctx.leaseToken, image);
  const resuming = image.step === 'restoring';
  let bytesNeeded = true;
  // Resumed too: the retry may come after the merchant replaced the picture, which an old original must not overwrite.
  if (image.compressed && item.dataType !== DATA_TYPES.upload) {
    const served = await readServed(deps, shop, item, image);
    if (served.kind === 'gone') throw new PermanentImageError(MSG_DELETED);
    if (served.kind === 'other') {
      await moveToNewPicture(deps, image, served, 'server.optimise.changedInShopify', lease);
      return { kind: 'done', status: 'failed', note: english('server.optimise.changedNotRestored') };
    }
    bytesNeeded = served.kind === 'result';
  }
  // A merchant's edit the sync recorded since the run read the row is newer than our words: it stays.
  await lease.refreshWords();
  const update = await restoreUpdate(deps, lease.row, bytesNeeded);
  const asRead = { alt: lease.row.alt, fileName: lease.row.fileName };
  let usedName = update.fileName;
  if (item.dataType !== DATA_TYPES.upload && (update.file || update.alt !== undefined || update.fileName !== undefined))
    usedName = await restoreOnShopify(deps, shop, item, lease, update, resuming);
  const renamed = usedName !== undefined && usedName !== update.fileName;
  // The merchant's words go back into the row unless the sync recorded a newer edit meanwhile.
  if (update.alt !== undefined) await lease.writeIfUnchanged({ alt: update.alt, altEdited: false }, { alt: asRead.alt });
  if (usedName !== undefined)
    await lease.writeIfUnchanged({ fileName: usedName, fileNameEdited: false }, { fileName: asRead.fileName });
  await lease.write({
    status: 'restored',
    step: 'restored',
    restored: true,
    failReason: null,
    noteKey: renamed ? 'server.optimise.restoredAs' : null,
    noteParams: renamed ? { name: usedName ?? '', original: update.fileName ?? '' } : null,
    ...LEASE_RELEASED,
  });
  return { kind: 'done', status: 'done' };
}
