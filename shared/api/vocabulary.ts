// The domain vocabulary both sides speak: data types and tabs, page sizes, job and score statuses.

/** data_type on the wire: which kind of item an image belongs to. */
export const DATA_TYPES = { product: 1, collection: 2, blogs: 3, upload: 4 } as const;
export type DataType = (typeof DATA_TYPES)[keyof typeof DATA_TYPES];

/** The image page's tabs in order; a tab's data_type is its index + 1 (uploads show under Other). */
export const TABS = ['product', 'collection', 'blog', 'other'] as const;
export type TabKey = (typeof TABS)[number];
/** getOptSchedule without data_type answers one schedule per tab under these keys. */
export const TAB_KEYS = { 1: 'product', 2: 'collection', 3: 'blog', 4: 'other' } as const satisfies Record<DataType, TabKey>;

/** Page sizes the history, manual and detail calls accept (5 is the small variant); default 10, page 1. */
export const PAGE_SIZES = [5, 10, 30, 50, 70, 100] as const;
/** The page-size selector's choices. */
export const PAGE_SIZE_CHOICES = [10, 30, 50, 70, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;

/** page_type: 0 the history (re-optimise from originals), 1 the manual list (not optimised yet). */
export const PAGE_TYPES = { history: 0, manual: 1 } as const;
export type PageType = (typeof PAGE_TYPES)[keyof typeof PAGE_TYPES];

/** A job's status in getOptSchedule ('idle' when nothing ran recently). */
export const JOB_STATUSES = ['idle', 'queued', 'running', 'done', 'stopped', 'plan_limit'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** What a job does ('' when nothing ran recently). */
export const PROCESS_TYPES = ['optimize', 'reoptimize', 'restore', 'upload', 'auto'] as const;
export type ProcessType = (typeof PROCESS_TYPES)[number];

/** A history row's status. */
export const HISTORY_STATUSES = ['finished', 'implement', 'monitor', 'restored', 'deleted'] as const;

/** getPageSpeedScore status: 0 never checked (a check starts), 1 ready, 2 in progress, 3 failed. */
export const SCORE_STATUS = { neverChecked: 0, ready: 1, inProgress: 2, failed: 3 } as const;
export type ScoreStatus = (typeof SCORE_STATUS)[keyof typeof SCORE_STATUS];
/** Why a page-speed check failed; the admin translates by reason. */
export type ScoreFailureReason = 'password_protected' | 'unreachable' | 'unavailable';

/** checkThemeAppExtension status: 1 the prefetch embed is on, 0 off. */
export type EmbedStatus = { url: string; status: 0 | 1 };
