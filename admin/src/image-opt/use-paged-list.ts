import { useCallback, useEffect, useState } from 'react';
import { getImageOptDataPage } from '../api/calls';
import { useApiQuery } from '../api/query';
import { dataTypeOf, DEFAULT_PAGE_SIZE, SEARCH_DEBOUNCE_MS, type HistoryRow } from './rules';

/** No rows yet: one array, so the list's deferred rows (history-section.tsx) see no change while it loads. */
const NO_ROWS: HistoryRow[] = [];

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
 * title search sent 500 ms after the last keystroke; with refreshMs, read again at that interval.
 */
export function usePagedList(tab: number, pageType: 0 | 1, enabled = true, refreshMs: number | false = false): PagedList {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeState] = useState(DEFAULT_PAGE_SIZE);
  const [search, setSearchText] = useState('');
  const [title, setTitle] = useState('');

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

  // The key is the list on screen: a newer tab, page or search answers instead of an older one, and
  // reload() (possibly from a timer set before the tab changed) asks for the list on screen now.
  const list = useApiQuery({
    key: ['imageOptDataPage', pageType, tab, page, pageSize, title],
    call: () =>
      getImageOptDataPage({ page, pageSize, title: title || undefined, data_type: dataTypeOf(tab), page_type: pageType }),
    select: (body) => ({ rows: body.data?.data ?? [], total: Number(body.data?.total ?? 0) }),
    enabled,
    keepPrevious: true,
    // Auto mode: the list on screen read again every refreshMs.
    refetchInterval: refreshMs,
  });
  const { refetch } = list;
  const reload = useCallback(async () => {
    await refetch();
  }, [refetch]);

  return {
    rows: list.data?.rows ?? NO_ROWS,
    total: list.data?.total ?? 0,
    page,
    pageSize,
    loading: list.loading,
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
