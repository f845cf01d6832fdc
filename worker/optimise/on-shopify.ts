// Changing an image on Shopify in place, never twice. Optimise and restore persist a marker step
// ('replacing' / 'restoring') before they call Shopify; a retry that finds the marker first asks what
// Shopify serves now: when those bytes already are what we meant to put there, the upload is skipped.
import type { ImagePatch, ImageRow } from '../db/images';
import type { ItemRow } from '../db/items';
import type { ShopRow } from '../db/shops';
import { sha256HexOfBytes } from '../lib/crypto';
import { kindOfDataType } from './decide';
import type { LeasedImage } from './lease';
import type { ImageTarget, ImageUpdate, PipelineDeps } from './ports';
import type { Timings } from './run-context';

export function targetOf(image: ImageRow, item: ItemRow): ImageTarget {
  const kind = kindOfDataType(item.dataType);
  return {
    kind: kind === 'upload' ? 'product' : kind,
    imgId: image.imgId,
    resourceId: item.resourceId,
    blogId: item.blogId,
    src: image.src,
  };
}

/** Whether Shopify serves exactly the bytes with this SHA-256 for the image now. */
export async function alreadyOnShopify(deps: PipelineDeps, shop: ShopRow, target: ImageTarget, sha256: string): Promise<boolean> {
  const url = await deps.shopify.currentImageUrl(shop, target);
  const now = url ? await deps.fetchImage(url).catch(() => null) : null;
  return !!now && (await sha256HexOfBytes(now)) === sha256;
}

export type Replacement = {
  update: ImageUpdate;
  /** The SHA-256 of update.file's bytes as the row knows it; null: no check possible. */
  expectedSha: string | null;
  /** The previous attempt persisted the marker: it may have died after Shopify accepted the file. */
  resuming: boolean;
  /** Persisted before Shopify is called. */
  marker: ImagePatch;
};

/** Applies the update on Shopify under the lease (skipped when a resumed attempt finds it done). */
export async function replaceOnShopify(
  deps: PipelineDeps,
  shop: ShopRow,
  item: ItemRow,
  lease: LeasedImage,
  r: Replacement,
  timings?: Timings,
): Promise<void> {
  const target = targetOf(lease.row, item);
  if (r.resuming && r.update.file && r.expectedSha && (await alreadyOnShopify(deps, shop, target, r.expectedSha))) return;
  // The marker write renews the lease: a delivery that lost it stops here, before Shopify. Shopify's file
  // processing can take longer than the lease, so it is renewed while we wait.
  await lease.write(r.marker);
  const t0 = Date.now();
  let res: { src: string | null };
  try {
    res = await lease.during(() => deps.shopify.updateImage(shop, target, r.update));
  } finally {
    if (timings) timings.shopifyMs += Date.now() - t0;
  }
  if (res.src && res.src !== lease.row.src) await lease.write({ src: res.src });
}

/** How many nearby names ("name-1.jpg" ... ) are tried when the wanted file name is taken. */
const NAME_TRIES = 20;

/** "shirt.jpg", 2 -> "shirt-2.jpg": the nearest free name when Shopify has given "shirt.jpg" to another file. */
export function nearbyFileName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`;
}

const nameTaken = (err: unknown) =>
  err instanceof Error &&
  ((err as { codes?: unknown }).codes as string[] | undefined)?.includes('FILENAME_ALREADY_EXISTS') === true;

/**
 * Runs `attempt` under the wanted file name, then under "name-1.jpg", "name-2.jpg" ... while Shopify
 * answers that another file has it (FILENAME_ALREADY_EXISTS: a refused mutation changed nothing, so the
 * next try is safe). Answers the name Shopify took; without a wanted name, one attempt.
 */
export async function underFreeName(
  wanted: string | undefined,
  attempt: (name: string | undefined, tries: number) => Promise<void>,
): Promise<string | undefined> {
  for (let n = 0; ; n++) {
    const name = n === 0 || !wanted ? wanted : nearbyFileName(wanted, n);
    try {
      await attempt(name, n);
      return name;
    } catch (err) {
      if (!wanted || n >= NAME_TRIES || !nameTaken(err)) throw err;
    }
  }
}
