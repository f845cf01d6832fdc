import { describe, expect, it } from 'vitest';
import {
  bulkValidationKey,
  completionToastKey,
  detailSuccessText,
  failedCount,
  downloadHref,
  formatRatio,
  quotaBarRed,
  quotaUsedUp,
  showPageSize,
  type HistoryRow,
  type TabSchedule,
} from '../../../admin/src/image-opt/rules';
import { formatSize } from '../../../admin/src/lib/format-size';

const row = (over: Partial<HistoryRow> = {}): HistoryRow => ({
  id: 1,
  data_type: 1,
  prod_id: '1',
  coll_id: '',
  art_id: '',
  blog_id: '',
  title: 'Hat',
  image: null,
  is_delete: 0,
  opt_status: 2,
  status: 'finished',
  comp_ratio: 10,
  ...over,
});
const quota = { img_usage_use: 0, img_usage_all: 150, impressions_use: 0, impressions_all: 0, is_capped: 0, is_over_quota: 0 };
const sched = (over: Partial<TabSchedule>): TabSchedule => ({
  data_type: 1,
  process_type: 'optimize',
  page_type: 1,
  process_result: 1,
  opt_in: 0,
  opt_total: 3,
  status: 'done',
  plan_limit_message: null,
  ...over,
});

describe('image page rules', () => {
  it('shows the page-size selector only wider than 550 px', () => {
    expect(showPageSize(551)).toBe(true);
    expect(showPageSize(550)).toBe(false);
    expect(showPageSize(375)).toBe(false);
  });

  it('turns the quota bar red at 80 % on the free plan only', () => {
    expect(quotaBarRed(0, 119, 150)).toBe(false);
    expect(quotaBarRed(0, 120, 150)).toBe(true);
    expect(quotaBarRed(1, 1000, 1000)).toBe(false);
  });

  it('quota used up: plan images gone and no overage left to pay for more', () => {
    expect(quotaUsedUp({ ...quota, img_usage_use: 149 })).toBe(false);
    expect(quotaUsedUp({ ...quota, img_usage_use: 150 })).toBe(true);
    expect(quotaUsedUp({ ...quota, img_usage_use: 150, is_over_quota: 1, impressions_all: 1000, impressions_use: 10 })).toBe(
      false,
    );
    expect(quotaUsedUp({ ...quota, img_usage_use: 150, is_over_quota: 1, impressions_all: 1000, impressions_use: 1000 })).toBe(
      true,
    );
  });

  it('formats ratios with two decimals and sizes at 1048576 / 1073741824', () => {
    expect(formatRatio(50.9)).toBe('50.90%');
    expect(formatRatio(0)).toBe('0.00%');
    expect(formatSize(1048575)).toBe('1,024.00 KB');
    expect(formatSize(1048576)).toBe('1.00 MB');
    expect(formatSize(1073741823)).toMatch(/ MB$/);
    expect(formatSize(1073741824)).toBe('1.00 GB');
  });

  it('downloads go over https; no link is "Url is empty" (null)', () => {
    expect(downloadHref('http://app.example.com/files/1/2/after?sig=x')).toBe('https://app.example.com/files/1/2/after?sig=x');
    expect(downloadHref('https://app.example.com/f')).toBe('https://app.example.com/f');
    expect(downloadHref('http://localhost:8787/files/1')).toBe('http://localhost:8787/files/1');
    expect(downloadHref('')).toBeNull();
    expect(downloadHref(undefined)).toBeNull();
  });

  it('bulk actions need a selected row that is not deleted; the message names the tab', () => {
    expect(bulkValidationKey([row()], 0)).toBeNull();
    expect(bulkValidationKey([], 0)).toBe('imageOpt.bulk.invalidProduct');
    expect(bulkValidationKey([row({ is_delete: 1 })], 1)).toBe('imageOpt.bulk.invalidCollection');
    expect(bulkValidationKey([row({ is_delete: 1 })], 2)).toBe('imageOpt.bulk.invalidBlog');
    expect(bulkValidationKey([], 3)).toBe('imageOpt.bulk.invalid');
  });

  it('completion toast only when the job ended with images', () => {
    expect(completionToastKey(sched({}))).toBe('imageOpt.done.productsOptimized');
    expect(completionToastKey(sched({ data_type: 2, process_type: 'restore' }))).toBe('imageOpt.done.collectionsRestored');
    expect(completionToastKey(sched({ data_type: 3, process_type: 'reoptimize' }))).toBe('imageOpt.done.blogsOptimized');
    expect(completionToastKey(sched({ opt_total: 0 }))).toBeNull();
    expect(completionToastKey(sched({ process_result: 0 }))).toBeNull();
    // Every image failed: no success toast, the failure count is shown instead.
    expect(completionToastKey(sched({ opt_total: 3, opt_done: 0, opt_failed: 3 }))).toBeNull();
    expect(failedCount(sched({ opt_total: 3, opt_done: 1, opt_failed: 2 }))).toBe(2);
    expect(failedCount(sched({ process_result: 0, opt_failed: 2 }))).toBe(0);
  });

  it('the detail page announces only what finished: never "restored" for a failed restore, "All" only when none failed', () => {
    const t = (key: string, o?: Record<string, unknown>) => (o ? `${key} ${JSON.stringify(o)}` : key);
    const restore = (over: Partial<TabSchedule>) => detailSuccessText(sched({ process_type: 'restore', ...over }), 'restore', t);
    expect(restore({ opt_total: 1, opt_done: 1 })).toBe('imageDetails.restored');
    expect(restore({ opt_total: 3, opt_done: 3, opt_failed: 0 })).toBe('imageDetails.allRestored');
    expect(restore({ opt_total: 4, opt_done: 3, opt_failed: 1 })).toBe('imageOpt.done.otherRestored {"n":3}');
    expect(restore({ opt_total: 1, opt_done: 0, opt_failed: 1 })).toBeNull();
    expect(detailSuccessText(sched({ opt_total: 2, opt_done: 2 }), 'reoptimize', t)).toBe('imageDetails.optimized');
    expect(detailSuccessText(sched({ opt_total: 2, opt_done: 0, opt_failed: 2 }), 'reoptimize', t)).toBeNull();
  });
});

describe('dimensions of an optimised image', () => {
  it('shows before -> after when a resize changed them, else the size once, nothing when unknown', async () => {
    const { dimensionsOf } = await import('../../../admin/src/image-opt/image-row');
    expect(dimensionsOf({ width: 2048, height: 1365, orig_width: 6120, orig_height: 4080 })).toBe('6120 × 4080 → 2048 × 1365');
    expect(dimensionsOf({ width: 2048, height: 1365, orig_width: 2048, orig_height: 1365 })).toBe('2048 × 1365');
    expect(dimensionsOf({ width: 2048, height: 1365, orig_width: 0, orig_height: 0 })).toBe('2048 × 1365');
    expect(dimensionsOf({ width: 0, height: 0, orig_width: 0, orig_height: 0 })).toBeNull();
  });
});
