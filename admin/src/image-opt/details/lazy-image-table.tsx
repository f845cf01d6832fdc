import { Spinner, useBreakpoints } from '@shopify/polaris';
import { lazy, Suspense, useState, type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageTable as Table } from './image-table';
import { ListEmptyState } from '../../widgets/list-empty-state';
import { useI18n } from '../../widgets/polaris-parts';
import '../strings';

// The details screen's table (Polaris' IndexTable, its rows, checkboxes, thumbnails, badges) is a chunk of
// its own (issue 26: first-screen JavaScript), fetched as soon as this module runs. Opened from the history,
// the rows come from a read made once the screen runs, so the chunk arrives alongside them; until it is
// there the table is what Polaris' IndexTable renders while its first rows load
// (tests/admin/screen-markup.test.tsx), so nothing moves when it takes over. A link that names the item
// (`?item=<id>`) is rendered by the Worker with its rows (render-first-screen.tsx): the router then waits
// for this chunk before the first render (tableReady, router.tsx), in the Worker as in the browser, and the
// table renders at once, without a Suspense boundary, so the browser hydrates the Worker's rows.

type Props = ComponentProps<typeof Table>;

const load = () => import('./image-table');
void load();
const ImageTable = lazy(() => load().then((m) => ({ default: m.ImageTable })));
/** The table's component once its chunk is there. */
let loaded: typeof Table | null = null;

/** Resolves once the table's code is there: a first render from then on shows the table itself. */
export const tableReady = (): Promise<void> =>
  load().then((m) => {
    loaded = m.ImageTable;
  });

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
  // Decided once: the table is either there from the first render or comes through Suspense, never both.
  const [Ready] = useState(() => loaded);
  if (Ready) return <Ready {...props} />;
  return (
    <Suspense fallback={<IndexTableLoading condensed={smDown} plural={t('imageDetails.images')} />}>
      <ImageTable {...props} />
    </Suspense>
  );
}
