// The rules of the image optimisation screens, pure so the
// component tests and the screens read the same definitions. The wire types and the vocabulary (tabs,
// page sizes) are the contract's, in shared/api/.
import type { HistoryRow as WireHistoryRow, QuotaSchedule, Schedule } from '../../../shared/api/image-opt';
import {
  DEFAULT_PAGE_SIZE,
  PAGE_SIZE_CHOICES,
  PAGE_SIZES as ALL_PAGE_SIZES,
  TABS,
  type TabKey,
} from '../../../shared/api/vocabulary';
import { formatPercent } from '../lib/intl';
import './page-strings';

/** History tabs, indexed 0 to 2 (+3 for Other): data_type is the index + 1. */
export { TABS, type TabKey };
export const dataTypeOf = (tab: number) => tab + 1;

/** Page sizes of the history, manual and detail tables' selector; default 10, page 1. */
export const PAGE_SIZES = PAGE_SIZE_CHOICES;
export { DEFAULT_PAGE_SIZE };
/** The page-size selector shows only when the window is wider than 550 px. */
export const PAGE_SIZE_MIN_WIDTH = 550;
export const showPageSize = (windowWidth: number) => windowWidth > PAGE_SIZE_MIN_WIDTH;
/**
 * "choices 10, 30, 50, 70, 100 (5 added in the small variant)" (image-optimisation.md section 9): the
 * small variant is the narrow layout (Polaris' small breakpoint, under 768 px) in which the selector
 * still shows (above 550 px). A size already chosen stays listed when the window widens.
 */
export const SMALL_VARIANT_MAX_WIDTH = 768;
export function pageSizeChoices(windowWidth: number, current: number): number[] {
  const choices: number[] = windowWidth < SMALL_VARIANT_MAX_WIDTH ? [...ALL_PAGE_SIZES] : [...PAGE_SIZE_CHOICES];
  return choices.includes(current) ? choices : [...choices, current].sort((a, b) => a - b);
}

/**
 * Polling intervals and delays of the image screens (image-optimisation.md section 9: "progress every 6 s
 * on the image page, every 5 s on the history/detail area"; section 4: "After a restore or re-optimize
 * succeeds, the schedule is read after 3 s (history) or 1.5 to 3 s (detail)").
 */
export const PROGRESS_POLL_MS = 6000;
export const DETAIL_PROGRESS_POLL_MS = 5000;
export const HISTORY_PROGRESS_POLL_MS = 5000;
export const HISTORY_FIRST_READ_MS = 3000;
export const AUTO_HISTORY_REFRESH_MS = 3000;
export const RELOAD_AFTER_DONE_MS = 3000;
export const SEARCH_DEBOUNCE_MS = 500;
export const COMPARE_LOADING_MS = 500;

/** Free quota shown on the image page before the statistics arrive. */
export const FREE_QUOTA = 150;
/** The free-plan quota bar turns red at 80 % use. */
export const FREE_RED_PERCENT = 80;
export const quotaPercent = (used: number, all: number) => (all > 0 ? Math.min(100, (used / all) * 100) : 0);
export const quotaBarRed = (level: number, used: number, all: number) =>
  level === 0 && quotaPercent(used, all) >= FREE_RED_PERCENT;

/** The quota of getImgOptTotal's opt_schedule; next_reset_at absent or 0 when unknown. */
export type OptSchedule = Omit<QuotaSchedule, 'next_reset_at'> & Partial<Pick<QuotaSchedule, 'next_reset_at'>>;

/** The plan's images are used up and overage cannot pay for more: Manually optimize becomes Upgrade plan. */
export function quotaUsedUp(s: OptSchedule): boolean {
  if (s.img_usage_all <= 0 || s.img_usage_use < s.img_usage_all) return false;
  const overageLeft = s.is_over_quota === 1 && s.impressions_use < s.impressions_all;
  return !overageLeft;
}

/** Ratios are shown as percentages with two decimals. */
/** A saving in percent, written as the merchant's language writes percentages. */
export const formatRatio = (ratio: number, language = 'en') => formatPercent(ratio, language);

/**
 * Download links: none means 'Url is empty'; http becomes https so the browser does not block a mixed
 * download from the https admin (loopback hosts of a local run stay as served, like the Worker's rule).
 */
export function downloadHref(url: string | null | undefined): string | null {
  if (!url) return null;
  if (/^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:|\/|$)/.test(url)) return url;
  return url.replace(/^http:\/\//, 'https://');
}

/**
 * View and download links are signed with an expiry (`exp`, epoch ms; worker/files/download-links.ts).
 * A page left open longer than that asks for fresh ones before using a link (a minute's margin).
 */
export const LINK_MARGIN_MS = 60_000;
export function linkExpired(url: string | null | undefined, now = Date.now()): boolean {
  if (!url) return false;
  const exp = Number(new URL(url, 'http://x').searchParams.get('exp'));
  return Number.isFinite(exp) && exp > 0 && exp - LINK_MARGIN_MS <= now;
}

/** A history row as the history/manual calls answer it; the rules need only these fields. */
export type HistoryRow = Pick<
  WireHistoryRow,
  | 'id'
  | 'data_type'
  | 'prod_id'
  | 'coll_id'
  | 'art_id'
  | 'blog_id'
  | 'title'
  | 'image'
  | 'is_delete'
  | 'opt_status'
  | 'status'
  | 'comp_ratio'
> &
  Partial<WireHistoryRow>;

/** Rows a bulk Restore / Re-optimize may act on: not deleted. */
export const actionableRows = (rows: readonly HistoryRow[]) => rows.filter((r) => r.is_delete !== 1);

/**
 * Bulk action with no selectable, non-deleted item: the generic message, or the version naming the tab.
 * Returns the catalogue key, or null when the action may go ahead.
 */
export function bulkValidationKey(selected: readonly HistoryRow[], tab: number): string | null {
  if (actionableRows(selected).length > 0) return null;
  const named = ['imageOpt.bulk.invalidProduct', 'imageOpt.bulk.invalidCollection', 'imageOpt.bulk.invalidBlog'][tab];
  return named ?? 'imageOpt.bulk.invalid';
}

/** Progress of one tab (getOptSchedule); the rules need only these fields. */
export type TabSchedule = Pick<
  Schedule,
  'data_type' | 'process_type' | 'page_type' | 'opt_in' | 'opt_total' | 'status' | 'plan_limit_message'
> & {
  process_result: number;
} & Partial<Pick<Schedule, 'opt_done' | 'opt_failed' | 'fail_reasons'>>;

export const isRunning = (s: TabSchedule | undefined) =>
  !!s && s.process_result !== 1 && (s.status === 'queued' || s.status === 'running');

/** Completion toast key: '{n} products images/collections/blogs optimized' or 'restored'. */
export function completionToastKey(s: TabSchedule): string | null {
  if (!(s.opt_total > 0 && s.process_result === 1)) return null;
  // Nothing finished (every image failed or was stopped): no success toast; the failure toast says why.
  if (s.opt_done !== undefined && s.opt_done === 0) return null;
  const noun = (['products', 'collections', 'blogs', 'other'] as const)[s.data_type - 1] ?? 'products';
  return `imageOpt.done.${noun}${s.process_type === 'restore' ? 'Restored' : 'Optimized'}`;
}

/** Images of a finished job that failed after every retry (0 when the server does not say). */
export function failedCount(s: TabSchedule): number {
  return s.process_result === 1 ? (s.opt_failed ?? 0) : 0;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The error toast of a finished job with failed images ('n images could not be restored.' and why), or null. */
export function failureText(s: TabSchedule, t: Translate): string | null {
  const failed = failedCount(s);
  if (failed <= 0) return null;
  const reasons = (s.fail_reasons ?? []).map((r) => t(r.message_key, r.params)).join(' ');
  const what = s.process_type === 'restore' ? 'imageOpt.done.restoreFailed' : 'imageOpt.done.failed';
  return [t(what, { n: failed }), reasons].filter(Boolean).join(' ');
}

/**
 * The detail page's success toast for a finished restore or re-optimise, or null when no image of it
 * finished (a failed restore is never announced as restored): one picture 'Your picture has been restored',
 * several 'All your pictures have been restored' only when none failed, else 'n images restored'.
 */
export function detailSuccessText(s: TabSchedule, kind: 'restore' | 'reoptimize', t: Translate): string | null {
  const done = s.opt_done ?? s.opt_total - s.opt_in;
  if (!(s.opt_total > 0 && done > 0)) return null;
  if (kind !== 'restore') return t('imageDetails.optimized');
  if (done === 1) return t('imageDetails.restored');
  return failedCount(s) === 0 ? t('imageDetails.allRestored') : t('imageOpt.done.otherRestored', { n: done });
}
