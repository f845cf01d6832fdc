import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { getImgOptTotal } from '../api/calls';
import { useApiQuery } from '../api/query';
import { defaultImageSettings, readImageSettings, type ImageSettings } from '../../../shared/image-settings-base';
import { FREE_QUOTA, type OptSchedule } from './rules';
import type { Totals } from './stats-cards';

export type ImagePageData = { totals: Totals; settings: ImageSettings; quota: OptSchedule };

const EMPTY: ImagePageData = {
  totals: { total_saved_size: 0, avg_saved_space: 0, avg_saved_percent: 0, un_opt_num: 0 },
  settings: defaultImageSettings(),
  quota: { img_usage_use: 0, img_usage_all: FREE_QUOTA, impressions_use: 0, impressions_all: 0, is_capped: 0, is_over_quota: 0 },
};

const KEY = ['imgOptTotal'];

/** getImgOptTotal: statistics, settings and quota of the image page (the skeleton shows until it answers). */
export function useImagePage() {
  const client = useQueryClient();
  const page = useApiQuery({
    key: KEY,
    call: getImgOptTotal,
    select: (body): ImagePageData => {
      return {
        totals: { ...EMPTY.totals, ...body.total },
        settings: readImageSettings(body.settings) ?? EMPTY.settings,
        quota: { ...EMPTY.quota, ...body.opt_schedule },
      };
    },
  });
  const { refetch } = page;
  const reload = useCallback(async () => {
    await refetch();
  }, [refetch]);

  /** A change saved elsewhere on the page (the auto switch) shows at once; the next read replaces it. */
  const patchSettings = (patch: Partial<ImageSettings>) =>
    client.setQueryData<Awaited<ReturnType<typeof getImgOptTotal>>>(
      KEY,
      (body) => body && { ...body, settings: { ...(body.settings ?? EMPTY.settings), ...patch } },
    );
  return { data: page.data ?? EMPTY, loading: page.loading, reload, patchSettings };
}
