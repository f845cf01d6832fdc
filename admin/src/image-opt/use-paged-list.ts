import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getImageOptDataPage } from '../api/calls';
import { isOk, messageOf } from '../api/client';
import { useToast } from '../hooks/use-toast';
import { dataTypeOf, DEFAULT_PAGE_SIZE, SEARCH_DEBOUNCE_MS, type HistoryRow } from './rules';

export type PagedList = {
  rows: HistoryRow[];
  total: number;
  page: number;
  pageSize: number;
  loading: boolean;
  search: string;
  setSearch: (text: string) => void;
  setPage: (page: number) => void;
  setPageSize: (size: number) => void;
  reload: () => Promise<void>;
};

/**
 * One tab of the history (page_type 0) or of the manual list (page_type 1): page, page size and a
 * title search sent 500 ms after the last keystroke (section 9).
 */
export function usePagedList(tab: number, pageType: 0 | 1, enabled = true): PagedList {
  const { t } = useTranslation();
  const toast = useToast();
  const [rows, setRows] = useState<HistoryRow[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeState] = useState(DEFAULT_PAGE_SIZE);
  const [search, setSearchText] = useState('');
  const [title, setTitle] = useState('');
  const [loading, setLoading] = useState(true);
  const seq = useRef(0);

  useEffect(() => {
    const id = setTimeout(() => {
      setTitle(search.trim());
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [search]);

  useEffect(() => {
    setPage(1);
  }, [tab]);

  // reload() may be called late (3 s after a job ends, from a timer set before the tab changed): it
  // always asks for the list on screen now, never the one of the render that created the timer.
  const params = { page, pageSize, title, tab, pageType };
  const current = useRef(params);
  current.current = params;

  const reload = useCallback(async () => {
    const mine = ++seq.current;
    const q = current.current;
    try {
      const body = await getImageOptDataPage({ page: q.page, pageSize: q.pageSize, title: q.title || undefined, data_type: dataTypeOf(q.tab), page_type: q.pageType });
      if (mine !== seq.current) return; // a newer request (tab, page, search) answers instead
      if (!isOk(body)) {
        toast(messageOf(body, t('common.tryAgainLater')), { error: true });
        return;
      }
      setRows((body.data?.data ?? []) as HistoryRow[]);
      setTotal(Number(body.data?.total ?? 0));
    } catch (e) {
      if (mine === seq.current) toast(e instanceof Error ? e.message : t('common.tryAgainLater'), { error: true });
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [t, toast]);

  useEffect(() => {
    if (!enabled) return;
    setLoading(true);
    void reload();
  }, [reload, enabled, page, pageSize, title, tab, pageType]);

  return {
    rows,
    total,
    page,
    pageSize,
    loading,
    search,
    setSearch: setSearchText,
    setPage,
    setPageSize: (size) => {
      setPageSizeState(size);
      setPage(1);
    },
    reload,
  };
}
