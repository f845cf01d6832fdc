// What Shopify serves for an image, compared with the files the row knows. A row describes one version
// of one Shopify file (decisions.md, "The store changes after we optimise"): when Shopify serves bytes
// that are neither our result nor the original we stored, the merchant (or another app) changed the
// picture. That picture is a new original: the row moves on to it, the old pair is kept in
// image_versions for the record, and nothing is ever put back over the newer picture.
import { claimImage, getImageWithItem, listImagesToCheck, releaseImage, retireImageVersion, type ImageRow } from '../db/images';
import { refreshItemSummary, type ItemRow } from '../db/items';
import type { ShopRow } from '../db/shops';
import { sha256HexOfBytes } from '../lib/crypto';
import type { PlainMessageKey } from '../../shared/messages';
import { leasedImage, type LeasedImage } from './lease';
import { targetOf } from './on-shopify';
import type { PipelineDeps } from './ports';

/** result: our result; original: the original we stored; other: a picture we did not write; gone: no image. */
export type ServedKind = 'result' | 'original' | 'other' | 'gone';
export type Served = { kind: ServedKind; url: string | null; bytes: Uint8Array | null; sha: string | null };

export function classifyServed(image: Pick<ImageRow, 'resultSha256' | 'originalSha256'>, sha: string): ServedKind {
  if (image.resultSha256 && sha === image.resultSha256) return 'result';
  if (image.originalSha256 && sha === image.originalSha256) return 'original';
  return 'other';
}

/** Asks Shopify where the image is served now and fetches those bytes. */
export async function readServed(deps: PipelineDeps, shop: ShopRow, item: ItemRow, image: ImageRow): Promise<Served> {
  const url = await deps.shopify.currentImageUrl(shop, targetOf(image, item));
  if (!url) return { kind: 'gone', url: null, bytes: null, sha: null };
  const bytes = await deps.fetchImage(url);
  const sha = await sha256HexOfBytes(bytes);
  return { kind: classifyServed(image, sha), url, bytes, sha };
}

/**
 * Whether what Shopify serves is what a row holding a pair says: our result while it reads Compressed,
 * the original while it reads Restored or already optimal; either after a failure (a failed restore leaves
 * our result, a failed optimisation the original).
 */
export function servedAsRowSays(image: ImageRow, kind: ServedKind): boolean {
  if (image.status === 'compressed') return kind === 'result';
  if (image.status === 'restored' || image.status === 'optimal' || image.status === 'skipped') return kind === 'original';
  return kind === 'result' || kind === 'original';
}

/** Whether the row holds a pair (an original we stored) that a served picture can contradict. */
export const holdsVersion = (image: ImageRow): boolean => !!image.originalKey && !!image.originalSha256;

/**
 * The row moves on to the picture Shopify serves: the old pair goes to image_versions (its files stay in
 * R2 until their date, for the record), the row becomes a never-optimised image of the new picture with
 * a note saying why. Alt text and file name flags stay: the merchant's original words are still the ones
 * `originalAlt` / `originalFileName` hold. `holder` is the run's lease when a run holds the image: it is
 * renewed before the version is retired, so a delivery that lost the image (and may have read our own new
 * result as "a picture we did not write") records nothing.
 */
export async function moveToNewPicture(
  deps: Pick<PipelineDeps, 'db' | 'now'>,
  image: ImageRow,
  served: Served,
  noteKey: PlainMessageKey,
  holder: Pick<LeasedImage, 'write' | 'renew'>,
): Promise<void> {
  await holder.renew();
  await retireImageVersion(deps.db, image, { servedSha256: served.sha, retiredAt: deps.now() });
  await holder.write({
    status: 'pending',
    step: null,
    failReason: null,
    noteKey,
    noteParams: null,
    checkServed: false,
    ...(served.url ? { src: served.url } : {}),
    ...(served.bytes ? { originalSize: served.bytes.byteLength, optimisedSize: served.bytes.byteLength } : {}),
    originalKey: null,
    resultKey: null,
    originalSha256: null,
    resultSha256: null,
    originalStoredAt: null,
    compressed: false,
    convertedToJpg: false,
    watermarked: false,
    restored: false,
    expired: false,
    savedPercent: 0,
    optimisedAt: null,
    expiresAt: null,
  });
}

/** Images checked per catalogue message; the rest wait for the next one (or for their own job's check). */
const CHECKS_PER_RUN = 25;

/** The holder the image lease names while the check below looks at an image (images.lock_job_id). */
export const SERVED_CHECK_HOLDER = 'served-check';

/**
 * After a catalogue sync: the images it saw at a new URL while we hold their pair (`check_served`) are
 * compared with what Shopify serves. Anything but what the row says moves the row on (automatic mode then
 * sees a new pending image); the expected bytes just clear the flag. A failed look is left for later.
 * Each image is looked at under the image lease (lease.ts), and from the row as it is once the lease is
 * ours: a job that changed the image after the list was read would otherwise have its own new result taken
 * for a picture we did not write, and a job starting meanwhile would write over the moved row. An image a
 * job holds is skipped: the job compares what Shopify serves itself before it writes.
 */
export async function followServedPictures(deps: PipelineDeps, shop: ShopRow): Promise<{ checked: number; moved: number }> {
  const rows = await listImagesToCheck(deps.db, shop.id, CHECKS_PER_RUN);
  let moved = 0;
  for (const { image: listed } of rows) {
    const token = crypto.randomUUID();
    if (!(await claimImage(deps.db, shop.id, listed.id, { jobId: SERVED_CHECK_HOLDER, token }, deps.now(), deps.leaseMs)))
      continue;
    try {
      const now = await getImageWithItem(deps.db, shop.id, listed.id);
      if (!now || !now.image.checkServed || now.image.deleted) continue; // a job looked already
      const { image, item } = now;
      const lease = leasedImage(deps, token, image);
      const served = await readServed(deps, shop, item, image);
      if (served.kind === 'gone') continue; // the sync marks vanished images deleted
      // Not what the row says (a new picture, or the merchant put the original back over our result):
      // the row follows Shopify, the old pair stays on record.
      if (!servedAsRowSays(image, served.kind)) {
        await moveToNewPicture(deps, image, served, 'server.optimise.changedInShopify', lease);
        await refreshItemSummary(deps.db, shop.id, item.id); // the history row says what is optimised now
        moved++;
      } else await lease.write({ checkServed: false, ...(served.url ? { src: served.url } : {}) });
    } catch (err) {
      deps.log.warn('served_check_failed', { shopId: shop.id, imageId: listed.id, error: String(err) });
    } finally {
      await releaseImage(deps.db, shop.id, listed.id, token);
    }
  }
  return { checked: rows.length, moved };
}
