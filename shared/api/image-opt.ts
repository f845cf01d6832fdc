// Responses of the image-optimisation calls (/api/v2/image-opt/*) as the Worker answers them.
import type { ImageSettings } from '../image-settings';
import type { ImageStatus, ImageStatusLabel } from '../image-status';
import type { KeyedMessage } from '../messages';

/** A page of rows (history, manual list, item images). */
export type Paged<T> = { data: T[]; current_page: number; per_page: number; total: number };

/** getImageOptDataPage: one history (page_type 0) or manual-list (page_type 1) row per item. */
export type HistoryRow = {
  id: number;
  data_type: number;
  /** The item's Shopify id on its own kind's field; '' on the others. */
  prod_id: string;
  coll_id: string;
  art_id: string;
  blog_id: string;
  upload_id: string;
  title: string;
  image: string | null;
  is_delete: number;
  /** 0 none, 1 running, 2 optimised, 3 restored. */
  opt_status: number;
  /** finished, implement, monitor, restored, deleted (HISTORY_STATUSES). */
  status: string;
  /** How the item was optimised: automatic, manual or upload. */
  pattern: string;
  comp_ratio: number;
  image_count: number;
  opt_num: number;
  un_opt_num: number;
  is_published: number;
  date: number | string | null;
  /** Images of the item that failed (not deleted), and why the newest of them failed (null when none). */
  fail_num: number;
  fail_reason: KeyedMessage | null;
};
export type HistoryPage = Paged<HistoryRow>;

/** getProductImagesData: one image of an item, with the status rules of shared/image-status applied. */
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
  /** Pixel size Shopify serves (the result's once optimised); 0 when not known. */
  width: number;
  height: number;
  /** The original's pixel size when the result was made (differs after a resize on request); 0 when not known. */
  orig_width: number;
  orig_height: number;
  /** Signed download links ('' when there is no such file). */
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
  is_download: number;
  status: ImageStatusLabel;
  /** The image's processing state (pending, done, ...). */
  process_status: string;
  tags: ImageStatus['tags'];
  disabled: boolean;
  can_view: boolean;
  can_download: boolean;
  can_restore: boolean;
  optimised_at: number | null;
  /** When the original leaves R2 (the restore date): the same date the bucket's lifecycle rule deletes it. */
  expires_at: number | null;
  /** Why the row is as it is, when that needs saying: a failure's reason, a restore under another name, a picture changed in Shopify. */
  note: KeyedMessage | null;
};
export type DetailItem = {
  id: number;
  data_type: number;
  resource_id: string;
  title: string;
  image: string | null;
  is_delete: number;
};
export type ItemImagesPage = Paged<ImageRow> & { item: DetailItem };

/** The image page's statistics cards. */
export type OptTotals = {
  total_saved_size: number;
  avg_saved_space: number;
  avg_saved_percent: number;
  total_original_size: number;
  total_compress_size: number;
  total_opt_num: number;
  un_opt_num: number;
};

/** The shop's image quota this period, as the image page shows it. */
export type QuotaSchedule = {
  /** Plan images used / included. */
  img_usage_use: number;
  img_usage_all: number;
  /** Overage images charged / allowed by the usage cap. */
  impressions_use: number;
  impressions_all: number;
  is_capped: number;
  is_over_quota: number;
  /** When the monthly quota starts again (epoch ms; the shop's billing-cycle day). */
  next_reset_at: number;
};

/** getImgOptTotal: documented at the top level, and the same object under data. */
export type ImgOptTotal = { total: OptTotals; settings: ImageSettings; opt_schedule: QuotaSchedule };

export type ItemProgress = { data_id: number; opt_in: number; opt_total: number };
/** getOptSchedule of one tab. */
export type Schedule = {
  data_type: number;
  /** optimize, reoptimize, restore, upload, auto (PROCESS_TYPES); '' when nothing ran recently. */
  process_type: string;
  page_type: number;
  /** 1 when the job has ended (done, stopped or plan limit), 0 while it runs. */
  process_result: 0 | 1;
  /** Images still waiting. */
  opt_in: number;
  opt_total: number;
  /** Finished images (done or already optimal) and images that failed after every retry. */
  opt_done: number;
  opt_failed: number;
  /** Why the failed images failed, each reason once, in the merchant's words (message keys). */
  fail_reasons: KeyedMessage[];
  /** idle, queued, running, done, stopped, plan_limit (JOB_STATUSES). */
  status: string;
  /** Set when the job stopped at the plan limit: the documented banner text. */
  plan_limit_message: string | null;
  list: ItemProgress[];
};
/** getOptSchedule without data_type: one schedule per tab, keyed by TAB_KEYS; blog posts' also as `article` (documented name). */
export type SchedulesByTab = Partial<Record<'product' | 'collection' | 'blog' | 'other' | 'article', Schedule>>;

/** restore and reOptimize: the planned job. */
export type PlannedJob = { job_id: string | null; total: number };
/** uploadImagesOpt: the job, the accepted names and the refused files with their reasons. */
export type UploadRejection = { name: string; message: string } & KeyedMessage;
export type UploadAnswer = { job_id: string | null; accepted: string[]; rejected: UploadRejection[] };
export type StopAnswer = { stopped: number };
export type DownloadMarked = { opt_id: number; marked: number };

// Requests.
export type HistoryQuery = { page: number; pageSize: number; title?: string; data_type: number; page_type: 0 | 1 };
export type ItemImagesQuery = { prod_id: number | string; page: number; pageSize: number; data_type?: number };
export type RestoreRequest = {
  data_type: number;
  data_list: { data_id: number; img_ids?: number[]; blog_id?: string; restore_type?: '' | 'all' }[];
};
export type ReOptimizeRequest = {
  data_type: number;
  data_list: { data_id: number; img_ids?: number[] }[];
  re_opt_type: '' | 'all';
  page_type: number;
};
export type UploadRequest = {
  file_list: { name: string; data: string; type: string }[];
  opt_cfg: { pngtojpg: number; is_watermark: number };
};
