import { defaultImageSettings } from '../../../shared/image-settings';

// Answers of the image calls, shaped like the Worker's (worker/history/view.ts).
export const idleTab = (data_type: number) => ({
  data_type,
  process_type: '',
  page_type: 0,
  process_result: 1,
  opt_in: 0,
  opt_total: 0,
  status: 'idle',
  plan_limit_message: null,
  list: [],
});
export const idleSchedule = () => ({
  ack: 1,
  data: { product: idleTab(1), collection: idleTab(2), blog: idleTab(3), other: idleTab(4) },
});

export function totals(
  opts: { isDefault?: 0 | 1; auto?: 0 | 1; used?: number; all?: number; addons?: number; unOpt?: number } = {},
) {
  const settings = { ...defaultImageSettings(), is_default: opts.isDefault ?? 0, auto_switch: opts.auto ?? 0 };
  return {
    ack: 1,
    total: {
      total_saved_size: 3 * 1048576,
      avg_saved_space: 300 * 1024,
      avg_saved_percent: 42.5,
      total_original_size: 0,
      total_compress_size: 0,
      total_opt_num: 10,
      un_opt_num: opts.unOpt ?? 7,
    },
    settings,
    opt_schedule: {
      img_usage_use: opts.used ?? 10,
      img_usage_all: opts.all ?? 150,
      impressions_use: 0,
      impressions_all: opts.addons ?? 0,
      is_capped: 0,
      is_over_quota: 0,
    },
  };
}

export const historyRow = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  data_type: 1,
  prod_id: String(1000 + id),
  coll_id: '',
  art_id: '',
  blog_id: '',
  title: `Product ${id}`,
  image: null,
  is_delete: 0,
  opt_status: 2,
  status: 'finished',
  comp_ratio: 33.333,
  image_count: 2,
  opt_num: 2,
  un_opt_num: 1,
  date: 1795250820518,
  ...over,
});

export const page = (rows: unknown[]) => ({ ack: 1, data: { data: rows, current_page: 1, per_page: 10, total: rows.length } });
