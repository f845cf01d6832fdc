import { imageStatusOf, type ImageStatus } from '../../../shared/image-status';
import type { CompareImages } from './compare-modal';

/** An image row of getProductImagesData (section 3). */
export type ImageRow = {
  id: number;
  img_id: string;
  opt_id: number;
  src: string;
  alt: string;
  file_name: string;
  file_type: string;
  img_size: number;
  comp_size: number;
  comp_ratio: number;
  before_file_path: string;
  after_file_path: string;
  is_compress: number;
  is_to_jpg: number;
  is_edit_alt: number;
  is_edit_name: number;
  is_watermark: number;
  is_restore: number;
  is_overdue: number;
  is_delete: number;
  process_status?: string;
};

/** Section 4's label, tags and which of View / Download / Restore show, from the row's flags. */
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
