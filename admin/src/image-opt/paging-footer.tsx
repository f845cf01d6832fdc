import { InlineStack, Text } from '@shopify/polaris';
import { Select } from '../widgets/select';
import { Pagination } from '../widgets/pagination';
import { useTranslation } from 'react-i18next';
import { pageSizeChoices, showPageSize } from './rules';
import { useWindowWidth } from './use-window-width';
import './strings';

/** 'Showing x - y of z results': 0 - 0 of 0 for an empty list. */
export function showingRange(page: number, pageSize: number, total: number): { from: number; to: number; total: number } {
  if (total <= 0) return { from: 0, to: 0, total: 0 };
  const from = Math.min(total, (page - 1) * pageSize + 1);
  return { from, to: Math.min(total, page * pageSize), total };
}

type Props = {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
};

/** Page-size choice (only wider than 550 px) and previous / next paging under a table. */
export function PagingFooter({ page, pageSize, total, onPage, onPageSize }: Props) {
  const { t } = useTranslation();
  const width = useWindowWidth();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <InlineStack align="space-between" blockAlign="center" gap="300">
      {showPageSize(width) ? (
        <InlineStack gap="200" blockAlign="center">
          <Select
            label={t('imageOpt.paging.pageSize')}
            labelInline
            options={pageSizeChoices(width, pageSize).map((n) => ({ label: String(n), value: String(n) }))}
            value={String(pageSize)}
            onChange={(v) => onPageSize(Number(v))}
          />
        </InlineStack>
      ) : (
        <span />
      )}
      <InlineStack gap="200" blockAlign="center">
        <Text as="span" variant="bodySm" tone="subdued">
          {t('imageOpt.paging.showing', showingRange(page, pageSize, total))}
        </Text>
        <Pagination
          hasPrevious={page > 1}
          hasNext={page < pages}
          onPrevious={() => onPage(page - 1)}
          onNext={() => onPage(page + 1)}
          previousTooltip={t('imageOpt.paging.previous')}
          nextTooltip={t('imageOpt.paging.next')}
        />
      </InlineStack>
    </InlineStack>
  );
}
