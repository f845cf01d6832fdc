import { imageStatusOf, type ImageStatus } from '../../../shared/image-status';
import type { CompareImages } from './compare-modal';
import type { ImageRow } from '../../../shared/api/image-opt';

/** An image row of getProductImagesData. */
export type { ImageRow };

/** The status label, tags and which of View / Download / Restore show, from the row's flags. */
export const statusOfRow = (r: ImageRow): ImageStatus =>
  imageStatusOf({ ...r, has_before_file: !!r.before_file_path, has_after_file: !!r.after_file_path });

export const compareOf = (r: ImageRow): CompareImages => ({
  before: r.before_file_path,
  after: r.after_file_path || r.src,
  beforeSize: r.img_size,
  afterSize: r.comp_size,
  ratio: r.comp_ratio,
  name: r.file_name,
});

/**
 * The pixel size of an optimised image: "before → after" when the result has another size (a resize on
 * request), else the size once; null when the row does not know it.
 */
export function dimensionsOf(row: Pick<ImageRow, 'width' | 'height' | 'orig_width' | 'orig_height'>): string | null {
  if (!row.width || !row.height) return null;
  const after = `${row.width} × ${row.height}`;
  if (!row.orig_width || !row.orig_height || (row.orig_width === row.width && row.orig_height === row.height)) return after;
  return `${row.orig_width} × ${row.orig_height} → ${after}`;
}
