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
