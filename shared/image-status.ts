// Image row status rules (label, tags, View / Download / Restore), shared by the detail API and the admin.

export type ImageStatusLabel = 'Deleted' | 'Expired' | 'Failed' | 'Restored' | 'Compressed' | 'Not Compressed';

export type ImageFlags = {
  is_delete: number;
  is_overdue: number;
  is_restore: number;
  is_compress: number;
  is_to_jpg: number;
  is_edit_alt: number;
  is_edit_name: number;
  is_watermark: number;
  has_before_file: boolean;
  has_after_file: boolean;
  /** The processing state: 'failed' shows Failed (a failed restore never reads Compressed). */
  process_status?: string;
};

export type ImageStatus = {
  label: ImageStatusLabel;
  /** Tags shown beside the label. */
  tags: ('PNG -> JPG' | 'Alt text' | 'File name' | 'Watermark')[];
  /** Deleted and expired (overdue) rows cannot be selected. */
  disabled: boolean;
  /**
   * View (compare): compressed and not expired or restored. A deleted item's image stays viewable while
   * both files are kept (30 days from optimisation, issue 15); otherwise deleted rows show no View.
   */
  can_view: boolean;
  /** Download: a before or after file exists. */
  can_download: boolean;
  /** Restore: not deleted, expired or restored, and something was changed. */
  can_restore: boolean;
};

/** Label precedence: Deleted, then Expired, then Failed, then Restored, then Compressed / Not Compressed. */
export function imageStatusOf(f: ImageFlags): ImageStatus {
  const deleted = f.is_delete === 1;
  const expired = f.is_overdue === 1;
  const restored = f.is_restore === 1;
  const label: ImageStatusLabel = deleted
    ? 'Deleted'
    : expired
      ? 'Expired'
      : f.process_status === 'failed'
        ? 'Failed'
        : restored
          ? 'Restored'
          : f.is_compress === 1
            ? 'Compressed'
            : 'Not Compressed';
  const tags: ImageStatus['tags'] = [];
  if (f.is_to_jpg === 1) tags.push('PNG -> JPG');
  if (f.is_edit_alt === 1) tags.push('Alt text');
  if (f.is_edit_name === 1) tags.push('File name');
  if (f.is_watermark === 1) tags.push('Watermark');
  const changed = f.is_compress === 1 || f.is_to_jpg === 1 || f.is_edit_alt === 1 || f.is_edit_name === 1 || f.is_watermark === 1;
  const live = !deleted && !expired && !restored;
  return {
    label,
    tags,
    disabled: deleted || expired,
    can_view: f.is_compress === 1 && !expired && !restored && (!deleted || (f.has_before_file && f.has_after_file)),
    can_download: f.has_before_file || f.has_after_file,
    can_restore: live && changed,
  };
}
