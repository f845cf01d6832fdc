import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getImgOptTotal } from '../api/calls';
import { isOk, messageOf } from '../api/client';
import { useToast } from '../hooks/use-toast';
import { defaultImageSettings, imageSettingsSchema, type ImageSettings } from '../../../shared/image-settings';
import { FREE_QUOTA, type OptSchedule } from './rules';
import type { Totals } from './stats-cards';

export type ImagePageData = { totals: Totals; settings: ImageSettings; quota: OptSchedule };

const EMPTY: ImagePageData = {
  totals: { total_saved_size: 0, avg_saved_space: 0, avg_saved_percent: 0, un_opt_num: 0 },
  settings: defaultImageSettings(),
  quota: { img_usage_use: 0, img_usage_all: FREE_QUOTA, impressions_use: 0, impressions_all: 0, is_capped: 0, is_over_quota: 0 },
};

/** getImgOptTotal: statistics, settings and quota of the image page (the skeleton shows until it answers). */
export function useImagePage() {
  const { t } = useTranslation();
  const toast = useToast();
  const [data, setData] = useState<ImagePageData>(EMPTY);
  const [loading, setLoading] = useState(true);

  const reload = useCallback(async () => {
    try {
      const body = await getImgOptTotal();
      if (!isOk(body)) {
        toast(messageOf(body, t('common.tryAgainLater')), { error: true });
        return;
      }
      const raw = body as Record<string, unknown>;
      const parsed = imageSettingsSchema.safeParse(raw.settings);
      setData({
        totals: { ...EMPTY.totals, ...(raw.total as Partial<Totals>) },
        settings: parsed.success ? parsed.data : EMPTY.settings,
        quota: { ...EMPTY.quota, ...(raw.opt_schedule as Partial<OptSchedule>) },
      });
    } catch (e) {
      toast(e instanceof Error ? e.message : t('common.tryAgainLater'), { error: true });
    } finally {
      setLoading(false);
    }
  }, [t, toast]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const patchSettings = (patch: Partial<ImageSettings>) => setData((d) => ({ ...d, settings: { ...d.settings, ...patch } }));
  return { data, loading, reload, patchSettings };
}
