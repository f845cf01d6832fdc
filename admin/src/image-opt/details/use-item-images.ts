import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getOptSchedule, getProductImagesData, reOptimize, restore } from '../../api/calls';
import { isOk } from '../../api/client';
import { failureText as readFailureText, RefusedError, useApiAction, useApiQuery } from '../../api/query';
import { usePlanLimitRefusal } from '../../pricing/plan-limit';
import { useToast } from '../../hooks/use-toast';
import type { ImageRow } from '../image-row';
import {
  DEFAULT_PAGE_SIZE,
  DETAIL_PROGRESS_POLL_MS,
  detailSuccessText,
  failureText,
  isRunning,
  type TabSchedule,
} from '../rules';
import { ITEM_NOT_FOUND_KEY } from '../../../../shared/message-keys';
import '../strings';

/** The Worker's answer for an item id that is not the shop's (worker/routes/history.ts). */
const ITEM_NOT_FOUND = ITEM_NOT_FOUND_KEY;
const messageKeyOf = (body: unknown) => (body as { message_key?: unknown } | null)?.message_key;

/** After a restore or re-optimize is accepted, the detail page reads the schedule 1.5 s later. */
export const DETAIL_FIRST_READ_MS = 1500;

/** The detail page's data: one item's images, paging, restore / re-optimize and the 5 s progress poll. */
export function useItemImages(prodId: number | undefined) {
  const { t } = useTranslation();
  const toast = useToast();
  const planLimit = usePlanLimitRefusal();
  const client = useQueryClient();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [restoring, setRestoring] = useState<ReadonlySet<number>>(new Set());
  const [schedule, setSchedule] = useState<TabSchedule | null>(null);
  const [polling, setPolling] = useState(false);
  const [resetSeq, setResetSeq] = useState(0);
  const kind = useRef<'restore' | 'reoptimize'>('reoptimize');
  /** Set while a job of ours (or one found running) is followed; its end is announced once. */
  const watching = useRef(false);

  // The page on screen; the previous page stays shown while the next one loads.
  const key = ['productImagesData', prodId, page, pageSize];
  const list = useApiQuery({
    key,
    call: () => getProductImagesData({ prod_id: prodId ?? 0, page, pageSize }),
    select: (body) => body.data,
    enabled: prodId !== undefined,
    keepPrevious: true,
    errorToast: false, // below: an item that is not the shop's is said on the page, not in a toast
  });
  const rows: ImageRow[] = list.data?.data ?? [];
  const total = Number(list.data?.total ?? 0);
  const item = list.data?.item ?? null;
  // A link to an item that is not this shop's (another shop's, or none): the Worker's 404.
  const missing = list.error instanceof RefusedError && messageKeyOf(list.error.body) === ITEM_NOT_FOUND;
  useEffect(() => {
    if (list.error && !missing) toast(readFailureText(list.error, t('common.tryAgainLater')), { error: true });
    // Once per failed read (each is a new error), not again when the toast or the text change:
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the dependencies are chosen, see above
  }, [list.error]);
  // The skeleton shows until the first answer, success or not.
  const loading = prodId !== undefined && list.data === undefined && !list.error;
  const { refetch } = list;
  const load = useCallback(async () => {
    await refetch();
  }, [refetch]);

  /** The page again with fresh signed links (a page left open past their lifetime); the row asked for. */
  const freshRow = useCallback(
    async (id: number): Promise<ImageRow | null> => {
      if (prodId === undefined) return null;
      const body = await getProductImagesData({ prod_id: prodId, page, pageSize });
      if (!isOk(body)) return null;
      client.setQueryData(['productImagesData', prodId, page, pageSize], body);
      return (body.data?.data ?? []).find((r) => r.id === id) ?? null;
    },
    [client, prodId, page, pageSize],
  );

  // The item's tab schedule: read once per item type (a job already running is followed too), then every
  // 5 s while a job runs; a failed read waits for the next one.
  const itemType = item?.data_type;
  const scheduleRead = useApiQuery({
    key: ['optSchedule', itemType],
    call: () => getOptSchedule(itemType ?? 1),
    select: (body) => body.data ?? null,
    enabled: itemType !== undefined,
    errorToast: false,
    refetchInterval: polling ? DETAIL_PROGRESS_POLL_MS : false,
  });
  const { refetch: readSchedule } = scheduleRead;
  const answer = scheduleRead.data;
  useEffect(() => {
    const s = answer;
    if (!s) return;
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
    // What finished is announced as done, what failed as an error with its reason (never "restored").
    const success = detailSuccessText(s, kind.current, t);
    if (success) toast(success);
    const failure = failureText(s, t);
    if (failure) toast(failure, { error: true });
    void load();
    // Each answer once (the same state may come twice in a row), not again when load, t or toast change:
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the dependencies are chosen, see above
  }, [answer, scheduleRead.updatedAt]);

  const clearRestoring = (ids: number[]) => setRestoring((s) => new Set([...s].filter((id) => !ids.includes(id))));
  const start = useApiAction(
    (which: 'restore' | 'reoptimize', target: { id: number; data_type: number }, ids: number[]) =>
      which === 'restore'
        ? restore({ data_type: target.data_type, data_list: [{ data_id: target.id, img_ids: ids, restore_type: '' }] })
        : reOptimize({
            data_type: target.data_type,
            data_list: [{ data_id: target.id, img_ids: ids }],
            re_opt_type: '',
            page_type: 0,
          }),
    {
      onSuccess: () => {
        setResetSeq((n) => n + 1);
        watching.current = true;
        setTimeout(() => void readSchedule(), DETAIL_FIRST_READ_MS);
      },
      onRefused: (body, _which, _target, ids) => {
        if (!planLimit(body)) return false;
        clearRestoring(ids);
        return true;
      },
      // A failed restore clears the row's loading state and shows an error toast.
      onError: (_e, _which, _target, ids) => clearRestoring(ids),
    },
  );
  const run = async (which: 'restore' | 'reoptimize', chosen: ImageRow[]) => {
    if (!item) return;
    const ids = chosen.map((r) => r.id);
    kind.current = which;
    if (which === 'restore') setRestoring((s) => new Set([...s, ...ids]));
    await start.run(which, item, ids);
  };

  return {
    rows,
    item,
    missing,
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
