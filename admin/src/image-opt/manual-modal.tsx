import { IndexTable, Modal, Tabs, Text, TextField, useIndexResourceState } from '@shopify/polaris';
import { Badge } from '../widgets/badge';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reOptimize } from '../api/calls';
import { useApiAction } from '../api/query';
import { usePlanLimitRefusal } from '../pricing/plan-limit';
import { useToast } from '../hooks/use-toast';
import { RowThumbnail } from './history-row-cells';
import { PagingFooter } from './paging-footer';
import { dataTypeOf, TABS } from './rules';
import { usePagedList } from './use-paged-list';
import { ListEmptyState } from '../widgets/list-empty-state';
import { formatNumber } from '../lib/intl';
import './strings';

const MANUAL_TABS = TABS.slice(0, 3);

/**
 * Manually optimize: Product, Collection and Blog lists of items with images to optimise; Optimize now
 * sends the selected rows as reOptimize page_type 1, closes and hands over to the progress panel.
 * Selecting the page offers "Select all N items" across pages (Polaris's paginated select
 * all): then one job covers the whole tab (re_opt_type 'all'). Not while a search narrows the list, as
 * the whole tab is more than what the merchant sees.
 */
export function ManualModal({
  open,
  onClose,
  onStarted,
}: {
  open: boolean;
  onClose: () => void;
  onStarted: (tab: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  const [tab, setTab] = useState(0);
  const planLimit = usePlanLimitRefusal();
  const send = useApiAction(reOptimize, {
    onSuccess: (body) => {
      const total = Number(body.data?.total ?? 0);
      onClose();
      if (total === 0) toast(t('imageOpt.manual.nothing'));
      else onStarted(tab);
    },
    onRefused: (body) => {
      if (!planLimit(body)) return false;
      onClose(); // refused at planning: the plan-limit dialog takes over
      return true;
    },
  });
  const sending = send.pending;
  const list = usePagedList(tab, 1, open);
  const acrossPages = list.search.trim() === '' && list.total > list.rows.length;
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(
    list.rows.map((r) => ({ id: String(r.id) })),
  );
  useEffect(() => clearSelection(), [tab, list.page, open, clearSelection]);

  const optimise = async () => {
    if (!allResourcesSelected && selectedResources.length === 0) {
      toast(
        t(
          ['imageOpt.bulk.invalidProduct', 'imageOpt.bulk.invalidCollection', 'imageOpt.bulk.invalidBlog'][tab] ??
            'imageOpt.bulk.invalid',
        ),
        { error: true },
      );
      return;
    }
    await send.run({
      data_type: dataTypeOf(tab),
      data_list: allResourcesSelected ? [] : selectedResources.map((id) => ({ data_id: Number(id) })),
      re_opt_type: allResourcesSelected ? 'all' : '',
      page_type: 1,
    });
  };

  return (
    <Modal
      open={open}
      onClose={onClose}
      size="large"
      title={t('imageOpt.manual.title')}
      primaryAction={{ content: t('imageOpt.manual.optimizeNow'), onAction: () => void optimise(), loading: sending }}
      secondaryActions={[{ content: t('common.cancel'), onAction: onClose }]}
    >
      <Tabs
        tabs={MANUAL_TABS.map((k) => ({ id: `manual-${k}`, content: t(`imageOpt.tabs.${k}`) }))}
        selected={tab}
        onSelect={setTab}
      />
      <Modal.Section>
        <TextField
          label={t('imageOpt.history.search')}
          labelHidden
          placeholder={t('imageOpt.history.search')}
          value={list.search}
          onChange={list.setSearch}
          autoComplete="off"
        />
      </Modal.Section>
      <IndexTable
        resourceName={{ singular: t('imageOpt.history.item'), plural: t('imageOpt.history.items') }}
        itemCount={list.rows.length}
        loading={list.loading}
        selectedItemsCount={allResourcesSelected ? 'All' : selectedResources.length}
        onSelectionChange={handleSelectionChange}
        hasMoreItems={acrossPages}
        paginatedSelectAllActionText={t('imageOpt.manual.selectAll', { count: formatNumber(list.total, i18n.language) })}
        paginatedSelectAllText={
          allResourcesSelected ? t('imageOpt.manual.allSelected', { count: formatNumber(list.total, i18n.language) }) : undefined
        }
        emptyState={<ListEmptyState loading={list.loading} roomy={false} />}
        headings={[
          { title: t('imageOpt.history.colImage') },
          { title: t('imageOpt.history.colTitle') },
          { title: t('imageOpt.manual.colImages') },
        ]}
      >
        {list.rows.map((row, index) => (
          <IndexTable.Row id={String(row.id)} key={row.id} position={index} selected={selectedResources.includes(String(row.id))}>
            <IndexTable.Cell>
              <RowThumbnail src={row.image} alt={row.title} />
            </IndexTable.Cell>
            <IndexTable.Cell>
              <Text as="span" fontWeight="medium" truncate>
                {row.title}
              </Text>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <Badge tone={(row.un_opt_num ?? 0) > 0 ? 'attention' : 'success'}>
                {t('imageOpt.manual.toOptimize', { n: row.un_opt_num ?? 0, total: row.image_count ?? 0 })}
              </Badge>
            </IndexTable.Cell>
          </IndexTable.Row>
        ))}
      </IndexTable>
      <Modal.Section>
        <PagingFooter
          page={list.page}
          pageSize={list.pageSize}
          total={list.total}
          onPage={list.setPage}
          onPageSize={list.setPageSize}
        />
      </Modal.Section>
    </Modal>
  );
}
