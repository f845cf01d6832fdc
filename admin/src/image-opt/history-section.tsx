import {
  BlockStack,
  Button,
  Card,
  IndexTable,
  InlineStack,
  Link,
  Text,
  useIndexResourceState,
  useBreakpoints,
} from '@shopify/polaris';
import { useNavigate } from '@tanstack/react-router';
import { Fragment, memo, useCallback, useDeferredValue, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { RowCells } from '../widgets/row-cells';
import { reOptimize, restore } from '../api/calls';
import { useApiAction } from '../api/query';
import { usePlanLimitRefusal } from '../pricing/plan-limit';
import { useToast } from '../hooks/use-toast';
import { formatDate, HistoryStatusBadge, patternLabel, RowThumbnail } from './history-row-cells';
import { useTimeZone } from '../lib/intl';
import { DownloadButton } from './details/download-button';
import { PagingFooter } from './paging-footer';
import { readUploadImage } from './use-view-upload';
import { actionableRows, bulkValidationKey, dataTypeOf, formatRatio, TABS, type HistoryRow } from './rules';
import type { PagedList } from './use-paged-list';
import { ListEmptyState } from '../widgets/list-empty-state';
import { NavTabs } from '../shell/nav-tabs';
import { SearchField } from '../widgets/search-field';
import './strings';

type Props = {
  tab: number;
  onTab: (tab: number) => void;
  list: PagedList;
  /** A restore or re-optimize was accepted on this tab: the progress panel takes over. */
  onStarted: (tab: number) => void;
  /** Other tab: an uploaded image opens the before/after compare. */
  onView: (row: HistoryRow) => void;
};

/** Optimization History: Product, Collection, Blog and Other tabs, search, table, bulk actions, paging. */
export function HistorySection({ tab, onTab, list, onStarted, onView }: Props) {
  const { t } = useTranslation();
  const { smDown } = useBreakpoints();
  const toast = useToast();
  const navigate = useNavigate();
  const planLimit = usePlanLimitRefusal();
  // A poll tick or a page's answer comes through useSyncExternalStore, rendered synchronously: that render
  // keeps the rows on screen, and the new ones render in a transition (issue 26). Rows are memoised, and
  // TanStack Query keeps an unchanged row's object, so only the rows whose data changed render again.
  const rows = useDeferredValue(list.rows);
  const ids = rows.map((r) => ({ id: String(r.id) }));
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(ids);
  const selected = rows.filter((r) => selectedResources.includes(String(r.id)));
  const isUpload = tab === 3;

  useEffect(() => clearSelection(), [tab, list.page, clearSelection]);

  const start = useApiAction(
    (kind: 'restore' | 'reoptimize', data_list: { data_id: number; blog_id?: string }[]) =>
      kind === 'restore'
        ? restore({ data_type: dataTypeOf(tab), data_list: data_list.map((d) => ({ ...d, restore_type: 'all' as const })) })
        : reOptimize({
            data_type: dataTypeOf(tab),
            data_list: data_list.map((d) => ({ data_id: d.data_id })),
            re_opt_type: '',
            page_type: 0,
          }),
    {
      onSuccess: () => {
        clearSelection();
        onStarted(tab);
      },
      onRefused: (body) => planLimit(body),
    },
  );

  const bulk = async (kind: 'restore' | 'reoptimize') => {
    const invalid = bulkValidationKey(selected, tab);
    if (invalid) {
      toast(t(invalid), { error: true });
      return;
    }
    const data_list = actionableRows(selected).map((r) => ({
      data_id: r.id,
      ...(r.blog_id ? { blog_id: String(r.blog_id) } : {}),
    }));
    await start.run(kind, data_list);
  };

  const details = useCallback(
    (row: HistoryRow) =>
      // The address names the item (a reload or a shared link opens it again); the title shows before the read.
      void navigate({
        to: '/image_optimisation_details',
        search: { item: row.id },
        state: (s) => ({ ...s, prodId: row.id, title: row.title }),
      }),
    [navigate],
  );

  return (
    <Card padding="0">
      <BlockStack gap="0">
        <div style={{ padding: 'var(--p-space-400) var(--p-space-400) 0' }}>
          <Text as="h2" variant="headingMd">
            {t('imageOpt.history.title')}
          </Text>
        </div>
        {/* Four fixed tabs: Polaris' markup without Polaris' Tabs (its overflow menu and its measuring pass,
            a long task on a phone: issue 26). */}
        <NavTabs
          tabs={TABS.map((k) => ({ id: `history-${k}`, content: t(`imageOpt.tabs.${k}`) }))}
          selected={tab}
          onSelect={onTab}
        />
        <div style={{ padding: 'var(--p-space-300) var(--p-space-400)' }}>
          <SearchField
            label={t('imageOpt.history.search')}
            value={list.search}
            onChange={list.setSearch}
            onClear={() => list.setSearch('')}
          />
        </div>
        <IndexTable
          // On a phone each row stacks its cells (RowCells): Details, View and Download stay in view.
          condensed={smDown}
          resourceName={{ singular: t('imageOpt.history.item'), plural: t('imageOpt.history.items') }}
          itemCount={rows.length}
          loading={list.loading}
          selectable={!isUpload}
          selectedItemsCount={allResourcesSelected ? 'All' : selectedResources.length}
          onSelectionChange={handleSelectionChange}
          promotedBulkActions={
            isUpload
              ? undefined
              : [
                  { content: t('imageOpt.bulk.restore'), onAction: () => void bulk('restore') },
                  { content: t('imageOpt.bulk.reoptimize'), onAction: () => void bulk('reoptimize') },
                ]
          }
          emptyState={<ListEmptyState loading={list.loading} />}
          headings={[
            { title: t('imageOpt.history.colImage') },
            { title: t('imageOpt.history.colTitle') },
            { title: t('imageOpt.history.colStatus') },
            { title: t('imageOpt.history.colPattern') },
            { title: t('imageOpt.history.colSaved'), alignment: 'end' },
            { title: t('imageOpt.history.colDate') },
            { title: t('imageOpt.history.colAction') },
          ]}
        >
          {rows.map((row, index) => (
            <HistoryRowView
              key={row.id}
              row={row}
              index={index}
              selected={selectedResources.includes(String(row.id))}
              condensed={smDown}
              isUpload={isUpload}
              onView={onView}
              onDetails={details}
            />
          ))}
        </IndexTable>
        <div style={{ padding: 'var(--p-space-300) var(--p-space-400)' }}>
          <PagingFooter
            page={list.page}
            pageSize={list.pageSize}
            total={list.total}
            onPage={list.setPage}
            onPageSize={list.setPageSize}
          />
        </div>
        {/* The history area links on-page SEO and the recommended apps (image-optimisation.md section 2). */}
        <div style={{ padding: '0 var(--p-space-400) var(--p-space-300)' }}>
          <InlineStack gap="300" blockAlign="center">
            <Text as="span" variant="bodySm" tone="subdued">
              {t('imageOpt.history.moreTools')}
            </Text>
            <Link onClick={() => void navigate({ to: '/admin/on-page-seo/index' })}>{t('imageOpt.history.onPageSeo')}</Link>
            <Link onClick={() => void navigate({ to: '/recommended-apps' })}>{t('imageOpt.history.recommendedApps')}</Link>
          </InlineStack>
        </div>
      </BlockStack>
    </Card>
  );
}

type RowProps = {
  row: HistoryRow;
  index: number;
  selected: boolean;
  condensed: boolean;
  isUpload: boolean;
  onView: (row: HistoryRow) => void;
  onDetails: (row: HistoryRow) => void;
};

/** One history row; renders again only when its own data, selection or layout changes. */
const HistoryRowView = memo(function HistoryRowView({ row, index, selected, condensed, isUpload, onView, onDetails }: RowProps) {
  const { t, i18n } = useTranslation();
  const timeZone = useTimeZone();
  return (
    <IndexTable.Row id={String(row.id)} position={index} selected={selected} disabled={row.is_delete === 1}>
      <RowCells
        condensed={condensed}
        cells={[
          <Fragment key={0}>
            <RowThumbnail src={row.image} alt={row.title} />
          </Fragment>,
          <Fragment key={1}>
            <Text as="span" fontWeight="medium" truncate>
              {row.title}
            </Text>
          </Fragment>,
          <Fragment key={2}>
            <HistoryStatusBadge row={row} />
          </Fragment>,
          <Fragment key={3}>{patternLabel(row.pattern, t)}</Fragment>,
          <Fragment key={4}>
            <Text as="span" alignment="end" numeric>
              {formatRatio(row.comp_ratio, i18n.language)}
            </Text>
          </Fragment>,
          <Fragment key={5}>{formatDate(row.date, i18n.language, timeZone)}</Fragment>,
          <Fragment key={6}>
            {/* the row itself toggles selection: the button must not. An upload that could not be made
                smaller kept its original: there is nothing to compare. */}
            <div onClick={(e) => e.stopPropagation()}>
              {isUpload ? (
                // Optimised uploads: original and result, viewable and downloadable for 30 days.
                <InlineStack gap="100" wrap={false}>
                  <Button
                    size="slim"
                    onClick={() => onView(row)}
                    disabled={row.is_delete === 1 || row.status !== 'finished' || row.comp_ratio <= 0}
                  >
                    {t('imageDetails.view')}
                  </Button>
                  {row.status === 'finished' && row.is_delete !== 1 && <DownloadButton fresh={() => readUploadImage(row)} />}
                </InlineStack>
              ) : (
                // A deleted item's images stay viewable and downloadable within 30 days (detail page).
                <Button size="slim" onClick={() => onDetails(row)}>
                  {t('imageOpt.history.details')}
                </Button>
              )}
            </div>
          </Fragment>,
        ]}
      />
    </IndexTable.Row>
  );
});
