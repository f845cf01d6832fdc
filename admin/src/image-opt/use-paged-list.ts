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

  const reload = useCallback(async () => {
    const mine = ++seq.current;
    try {
      const body = await getImageOptDataPage({ page, pageSize, title: title || undefined, data_type: dataTypeOf(tab), page_type: pageType });
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
  }, [page, pageSize, title, tab, pageType, t, toast]);

  useEffect(() => {
    if (!enabled) return;
    setLoading(true);
    void reload();
  }, [reload, enabled]);

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
