import { Spinner, useBreakpoints } from '@shopify/polaris';
import { lazy, Suspense, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageTable as Table } from './image-table';
import { ListEmptyState } from '../../widgets/list-empty-state';
import { useI18n } from '../../widgets/polaris-parts';
import '../strings';

// The details screen's table (Polaris' IndexTable, its rows, checkboxes, thumbnails, badges) is a chunk of
// its own (issue 26: first-screen JavaScript), fetched as soon as this module runs: the screen is rendered
// by the browser only (render-first-screen.tsx) and its rows come from a read made once the screen runs,
// so the chunk arrives alongside them. Until it is there the table is what Polaris' IndexTable renders
// while its first rows load (tests/admin/screen-markup.test.tsx), so nothing moves when it takes over.

type Props = ComponentProps<typeof Table>;

const load = () => import('./image-table');
void load();
const ImageTable = lazy(() => load().then((m) => ({ default: m.ImageTable })));

/** Polaris' IndexTable with no rows yet and `loading` (condensed: a phone's list, without the panel). */
export function IndexTableLoading({ condensed, plural }: { condensed: boolean; plural: string }) {
  const i18n = useI18n();
  return (
    <div className="Polaris-IndexTable">
      <div className="Polaris-IndexTable__IndexTableWrapper">
        {!condensed && (
          <div className="Polaris-IndexTable__LoadingPanel Polaris-IndexTable__LoadingPanelEntered">
            <div className="Polaris-IndexTable__LoadingPanelRow">
              <Spinner size="small" />
              <span className="Polaris-IndexTable__LoadingPanelText">
                {i18n.translate('Polaris.IndexTable.resourceLoadingAccessibilityLabel', {
                  resourceNamePlural: plural.toLocaleLowerCase(),
                })}
              </span>
            </div>
          </div>
        )}
        <div className="Polaris-IndexTable__EmptySearchResultWrapper">
          <ListEmptyState loading />
        </div>
      </div>
    </div>
  );
}

export function LazyImageTable(props: Props) {
  const { t } = useTranslation();
  const { smDown } = useBreakpoints(); // as image-table.tsx: a phone's condensed list
  return (
    <Suspense fallback={<IndexTableLoading condensed={smDown} plural={t('imageDetails.images')} />}>
      <ImageTable {...props} />
    </Suspense>
  );
}
