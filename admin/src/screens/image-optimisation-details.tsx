import { BlockStack, Card, Text } from '@shopify/polaris';
import { Banner } from '../widgets/banner';
import { ProgressBar } from '../widgets/progress-bar';
import { NavTabs } from '../shell/nav-tabs';
import { Page } from '../shell/page';
import { useNavigate, useRouterState, useSearch } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart } from '../hooks/lazy-part';
import { Later } from '../hooks/use-later';
import { useHydrated } from '../shell/viewport';
import { useToast } from '../hooks/use-toast';
import type { CompareImages } from '../image-opt/compare-modal';
import { LazyImageTable } from '../image-opt/details/lazy-image-table';
// For the route's loader (router.tsx), through this chunk: a chunk of its own would split the shared ones anew.
export { tableReady } from '../image-opt/details/lazy-image-table';
import { useItemImages } from '../image-opt/details/use-item-images';
import { compareOf, statusOfRow, type ImageRow } from '../image-opt/image-row';
import { PagingFooter } from '../image-opt/paging-footer';
import { linkExpired } from '../image-opt/rules';
import '../image-opt/strings';

// The before/after comparison is fetched when the merchant opens it (issue 26).
const CompareModal = lazy(() => import('../image-opt/compare-modal').then((m) => ({ default: m.CompareModal })));
// The footer, last on the page (nothing below it moves when it shows), comes with its own chunk
// (hooks/lazy-part.ts, issue 26), one transition after the first render: the Worker's markup of a direct
// link (render-first-screen.tsx) and its hydration have none, as on the other screens.
const footer = lazyPart(() => import('../support/footer-help').then((m) => m.AppFooterHelp));
void footer.prefetch();

/** Bulk actions on the detail page: restore what can be restored; re-optimize what is not deleted or expired. */
export const restorableRows = (rows: readonly ImageRow[]) => rows.filter((r) => statusOfRow(r).can_restore);
export const reoptimizableRows = (rows: readonly ImageRow[]) => rows.filter((r) => !statusOfRow(r).disabled);

/**
 * /image_optimisation_details?item=<id>: one history item's optimised images. The address names the item
 * (a reload, a bookmark, a shared link, a new tab open it again); the navigation from the history also
 * carries its title, shown before the read answers. An address without `item` but with the item in its
 * history state (an entry made before links carried it) still opens it.
 */
export function ImageOptimisationDetailsScreen() {
  const { t } = useTranslation();
  const toast = useToast();
  const navigate = useNavigate();
  const search = useSearch({ from: '/image_optimisation_details' });
  const state = useRouterState({ select: (s) => s.location.state });
  const prodId = search.item ?? (typeof state.prodId === 'number' ? state.prodId : undefined);
  const data = useItemImages(prodId);
  const [compare, setCompare] = useState<CompareImages | null>(null);
  // The Worker's render has no history state: hydrating, the title is the read's (or none), as it rendered.
  const hydrated = useHydrated();
  const title = data.item?.title ?? (hydrated && state.prodId === prodId ? state.title : undefined) ?? '';
  const back = () => void navigate({ to: '/image_optimisation' });

  const bulk = (which: 'restore' | 'reoptimize', chosen: ImageRow[]) => {
    const usable = which === 'restore' ? restorableRows(chosen) : reoptimizableRows(chosen);
    if (usable.length === 0) {
      toast(t('imageOpt.bulk.invalid'), { error: true });
      return;
    }
    void data.run(which, usable);
  };

  // Links expire (one hour): a page left open asks for fresh ones before showing the pictures.
  const viewFresh = async (row: ImageRow) => {
    const current =
      linkExpired(row.before_file_path) || linkExpired(row.after_file_path)
        ? ((await data.freshRow(row.id).catch(() => null)) ?? row)
        : row;
    setCompare(compareOf(current));
  };

  const s = data.schedule;
  const done = s ? s.opt_total - s.opt_in : 0;
  return (
    <Page
      backAction={{ content: t('imageDetails.back'), onAction: back }}
      title={t('screens.imageOptimisationDetails.title')}
      subtitle={title}
    >
      <BlockStack gap="400">
        {prodId === undefined ? (
          <Card>
            <Text as="p" tone="subdued">
              {t('imageOpt.history.empty')}
            </Text>
          </Card>
        ) : data.missing ? (
          // Not this shop's item (another shop's, or none): the same card, nothing of any other shop.
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t('imageDetails.missing')}
              </Text>
              <Text as="p" tone="subdued">
                {t('imageDetails.missingText')}
              </Text>
            </BlockStack>
          </Card>
        ) : (
          <>
            <Banner tone="info">
              <p>{t('imageDetails.note30')}</p>
            </Banner>
            {data.running && (
              <Card>
                <BlockStack gap="200">
                  <Text as="p">{t('imageOpt.progress.later')}</Text>
                  <ProgressBar
                    progress={s && s.opt_total > 0 ? Math.round((done / s.opt_total) * 100) : 0}
                    size="small"
                    tone="success"
                  />
                </BlockStack>
              </Card>
            )}
            <Card padding="0">
              <NavTabs
                tabs={[
                  {
                    id: 'detail-item',
                    content: t(
                      `imageOpt.tabs.${['product', 'collection', 'blog', 'other'][(data.item?.data_type ?? 1) - 1] ?? 'product'}`,
                    ),
                  },
                ]}
                selected={0}
              />
              <LazyImageTable
                rows={data.rows}
                loading={data.loading}
                restoring={data.restoring}
                onView={(row) => void viewFresh(row)}
                onRestore={(rows) => bulk('restore', rows)}
                onReoptimize={(rows) => bulk('reoptimize', rows)}
                onSelectionReset={data.resetSeq}
                onFresh={data.freshRow}
              />
              <div style={{ padding: 'var(--p-space-300) var(--p-space-400)' }}>
                <PagingFooter
                  page={data.page}
                  pageSize={data.pageSize}
                  total={data.total}
                  onPage={data.setPage}
                  onPageSize={data.setPageSize}
                />
              </div>
            </Card>
          </>
        )}
      </BlockStack>
      {/* Only while open: a boundary in the hydrated markup must not get new children before it hydrated (#421). */}
      {compare && (
        <Suspense fallback={null}>
          <CompareModal images={compare} onClose={() => setCompare(null)} />
        </Suspense>
      )}
      <Later>
        <Suspense fallback={null}>
          <footer.Part />
        </Suspense>
      </Later>
    </Page>
  );
}
