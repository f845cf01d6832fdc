import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getOptSchedule, getProductImagesData, reOptimize, restore } from '../../api/calls';
import { isOk, messageOf } from '../../api/client';
import { usePolling } from '../../hooks/use-polling';
import { usePlanLimitRefusal } from '../../pricing/plan-limit-dialog';
import { useToast } from '../../hooks/use-toast';
import type { ImageRow } from '../image-row';
import { DEFAULT_PAGE_SIZE, DETAIL_PROGRESS_POLL_MS, isRunning, type TabSchedule } from '../rules';

/** Section 4: after a restore or re-optimize is accepted, the detail page reads the schedule 1.5 s later. */
export const DETAIL_FIRST_READ_MS = 1500;

type Item = { id: number; data_type: number; title: string };

/** The detail page's data: one item's images, paging, restore / re-optimize and the 5 s progress poll. */
export function useItemImages(prodId: number | undefined) {
  const { t } = useTranslation();
  const toast = useToast();
  const planLimit = usePlanLimitRefusal();
  const [rows, setRows] = useState<ImageRow[]>([]);
  const [item, setItem] = useState<Item | null>(null);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [loading, setLoading] = useState(prodId !== undefined);
  const [restoring, setRestoring] = useState<ReadonlySet<number>>(new Set());
  const [schedule, setSchedule] = useState<TabSchedule | null>(null);
  const [polling, setPolling] = useState(false);
  const [resetSeq, setResetSeq] = useState(0);
  const kind = useRef<'restore' | 'reoptimize'>('reoptimize');
  /** Set while a job of ours (or one found running) is followed; its end is announced once. */
  const watching = useRef(false);

  const load = useCallback(async () => {
    if (prodId === undefined) return;
    try {
      const body = await getProductImagesData({ prod_id: prodId, page, pageSize });
      if (!isOk(body)) {
        toast(messageOf(body, t('common.tryAgainLater')), { error: true });
        return;
      }
      setRows((body.data?.data ?? []) as ImageRow[]);
      setTotal(Number(body.data?.total ?? 0));
      const it = (body.data as { item?: Item } | undefined)?.item;
      if (it) setItem(it);
    } catch (e) {
      toast(e instanceof Error ? e.message : t('common.tryAgainLater'), { error: true });
    } finally {
      setLoading(false);
    }
  }, [prodId, page, pageSize, t, toast]);

  useEffect(() => {
    void load();
  }, [load]);

  /** The page again with fresh signed links (a page left open past their lifetime); the row asked for. */
  const freshRow = useCallback(
    async (id: number): Promise<ImageRow | null> => {
      if (prodId === undefined) return null;
      const body = await getProductImagesData({ prod_id: prodId, page, pageSize });
      if (!isOk(body)) return null;
      const list = (body.data?.data ?? []) as ImageRow[];
      setRows(list);
      return list.find((r) => r.id === id) ?? null;
    },
    [prodId, page, pageSize],
  );

  const readSchedule = useCallback(async () => {
    const body = await getOptSchedule(item?.data_type ?? 1).catch(() => null);
    if (!body || !isOk(body)) return;
    const s = body.data as TabSchedule;
    if (isRunning(s)) {
      watching.current = true;
      setSchedule(s);
      setPolling(true);
      return;
    }
    if (!watching.current) return; // page open and nothing running: nothing to report
    watching.current = false;
    setPolling(false);
    setSchedule(null);
    setRestoring(new Set());
    // A restore of several pictures says all of them are back (section 8); one picture, the singular.
    if (s.opt_total > 0) toast(t(kind.current === 'restore' ? (s.opt_total > 1 ? 'imageDetails.allRestored' : 'imageDetails.restored') : 'imageDetails.optimized'));
    await load();
  }, [item?.data_type, load, t, toast]);

  // A job already running on this item's tab when the page opens is followed too.
  const itemType = item?.data_type;
  useEffect(() => {
    if (itemType !== undefined) void readSchedule();
    // once per item type; later reads are the polling
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [itemType]);

  usePolling(readSchedule, DETAIL_PROGRESS_POLL_MS, polling);
  const run = async (which: 'restore' | 'reoptimize', chosen: ImageRow[]) => {
    if (!item) return;
    const ids = chosen.map((r) => r.id);
    kind.current = which;
    if (which === 'restore') setRestoring((s) => new Set([...s, ...ids]));
    try {
      const body =
        which === 'restore'
          ? await restore({ data_type: item.data_type, data_list: [{ data_id: item.id, img_ids: ids, restore_type: '' }] })
          : await reOptimize({ data_type: item.data_type, data_list: [{ data_id: item.id, img_ids: ids }], re_opt_type: '', page_type: 0 });
      if (!isOk(body)) {
        if (planLimit(body)) return setRestoring((s) => new Set([...s].filter((id) => !ids.includes(id))));
        throw new Error(messageOf(body, t('common.tryAgainLater')));
      }
      setResetSeq((n) => n + 1);
      watching.current = true;
      setTimeout(() => void readSchedule(), DETAIL_FIRST_READ_MS);
    } catch (e) {
      // A failed restore clears the row's loading state and shows an error toast (section 4).
      setRestoring((s) => new Set([...s].filter((id) => !ids.includes(id))));
      toast(e instanceof Error ? e.message : t('common.tryAgainLater'), { error: true });
    }
  };

  return {
    rows,
    item,
    total,
    page,
    pageSize,
    loading,
    restoring,
    schedule,
    running: polling,
    resetSeq,
    freshRow,
    setPage,
    setPageSize: (n: number) => {
      setPageSize(n);
      setPage(1);
    },
    run,
  };
}
