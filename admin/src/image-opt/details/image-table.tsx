import { Button, IndexTable, InlineStack, Text, useIndexResourceState, useBreakpoints } from '@shopify/polaris';
import { Badge } from '../../widgets/badge';
import { Fragment, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { RowCells } from '../../widgets/row-cells';
import { formatDay, formatSize, useTimeZone } from '../../lib/intl';
import { RowThumbnail } from '../history-row-cells';
import { dimensionsOf, statusOfRow, type ImageRow } from '../image-row';
import { formatRatio } from '../rules';
import { DownloadButton } from './download-button';
import { ListEmptyState } from '../../widgets/list-empty-state';
import '../strings';

const LABEL_KEYS = {
  Deleted: 'deleted',
  Expired: 'expired',
  Failed: 'failed',
  Restored: 'restored',
  Compressed: 'compressed',
  'Not Compressed': 'notCompressed',
} as const;
const LABEL_TONES = {
  Deleted: 'critical',
  Expired: 'warning',
  Failed: 'critical',
  Restored: 'attention',
  Compressed: 'success',
  'Not Compressed': undefined,
} as const;
const TAG_KEYS = { 'PNG -> JPG': 'pngToJpg', 'Alt text': 'alt', 'File name': 'fileName', Watermark: 'watermark' } as const;

type Props = {
  rows: ImageRow[];
  loading: boolean;
  restoring: ReadonlySet<number>;
  onView: (row: ImageRow) => void;
  onRestore: (rows: ImageRow[]) => void;
  onReoptimize: (rows: ImageRow[]) => void;
  onSelectionReset: number;
  /** Reads a row again with fresh signed links (download on a page left open). */
  onFresh?: (id: number) => Promise<ImageRow | null>;
};

/** One item's images: status label, tags, sizes, and View / Download / Restore by status. */
export function ImageTable({ rows, loading, restoring, onView, onRestore, onReoptimize, onSelectionReset, onFresh }: Props) {
  const { t, i18n } = useTranslation();
  const timeZone = useTimeZone();
  const { smDown } = useBreakpoints();
  // The same objects while the rows and the language are: IndexTable hands them (and the selection handler
  // made from them) to its rows through context, and a context change that reaches a part of the Worker's
  // markup still waiting to hydrate (a row's Download menu) makes React throw that markup away (#421).
  const selectable = useMemo(() => rows.filter((r) => !statusOfRow(r).disabled).map((r) => ({ id: String(r.id) })), [rows]);
  const resourceName = useMemo(() => ({ singular: t('imageDetails.image'), plural: t('imageDetails.images') }), [t]);
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(selectable);
  useEffect(() => clearSelection(), [onSelectionReset, clearSelection]);
  const chosen = rows.filter((r) => selectedResources.includes(String(r.id)));

  return (
    <IndexTable
      // On a phone each row stacks its cells (RowCells): View, Download and Restore stay in view.
      condensed={smDown}
      resourceName={resourceName}
      itemCount={rows.length}
      loading={loading}
      selectedItemsCount={allResourcesSelected ? 'All' : selectedResources.length}
      onSelectionChange={handleSelectionChange}
      promotedBulkActions={[
        { content: t('imageOpt.bulk.restore'), onAction: () => onRestore(chosen) },
        { content: t('imageOpt.bulk.reoptimize'), onAction: () => onReoptimize(chosen) },
      ]}
      emptyState={<ListEmptyState loading={loading} />}
      headings={[
        { title: t('imageOpt.history.colImage') },
        { title: t('imageDetails.colFile') },
        { title: t('imageDetails.colStatus') },
        { title: t('imageDetails.colSize'), alignment: 'end' },
        { title: t('imageOpt.history.colSaved'), alignment: 'end' },
        { title: t('imageOpt.history.colAction') },
      ]}
    >
      {rows.map((row, index) => {
        const st = statusOfRow(row);
        // A restored image is the original again: its old savings and changes no longer apply.
        const undone = st.label === 'Restored';
        const shownTags = undone ? [] : st.tags;
        const compressed = row.is_compress === 1 && !undone;
        return (
          <IndexTable.Row
            id={String(row.id)}
            key={row.id}
            position={index}
            selected={selectedResources.includes(String(row.id))}
            disabled={st.disabled}
          >
            <RowCells
              condensed={smDown}
              cells={[
                <Fragment key={0}>
                  <RowThumbnail src={row.src} alt={row.alt || row.file_name} />
                </Fragment>,
                <Fragment key={1}>
                  <Text as="span" truncate>
                    {row.file_name || row.img_id}
                  </Text>
                </Fragment>,
                <Fragment key={2}>
                  <InlineStack gap="100" wrap>
                    <Badge tone={LABEL_TONES[st.label]}>{t(`imageDetails.status.${LABEL_KEYS[st.label]}`)}</Badge>
                    {shownTags.map((tag) => (
                      <Badge key={tag} tone="info">
                        {t(`imageDetails.tag.${TAG_KEYS[tag]}`)}
                      </Badge>
                    ))}
                  </InlineStack>
                  {/* The lines under the status wrap (table cells do not), so View, Download and Restore stay in view. */}
                  <div style={{ whiteSpace: 'normal', maxWidth: '15rem' }}>
                    {row.note && (
                      <Text as="p" variant="bodySm" tone="subdued">
                        {t(row.note.message_key, row.note.params)}
                      </Text>
                    )}
                    {/* What the merchant could lose: the day the original leaves R2, after which Restore is gone
                        (decisions.md: the restore date shown is the date the original is deleted, never later). */}
                    {st.can_restore && !!row.expires_at && (
                      <Text as="p" variant="bodySm" tone="subdued">
                        {t('imageDetails.restoreUntil', { date: formatDay(row.expires_at, i18n.language, timeZone) })}
                      </Text>
                    )}
                  </div>
                </Fragment>,
                <Fragment key={3}>
                  <Text as="span" alignment="end" numeric>
                    {compressed
                      ? `${formatSize(row.img_size, i18n.language)} → ${formatSize(row.comp_size, i18n.language)}`
                      : formatSize(row.img_size, i18n.language)}
                  </Text>
                  {compressed && dimensionsOf(row) && (
                    <Text as="p" variant="bodySm" tone="subdued" alignment="end" numeric>
                      {dimensionsOf(row)}
                    </Text>
                  )}
                </Fragment>,
                <Fragment key={4}>
                  <Text as="span" alignment="end" numeric>
                    {formatRatio(compressed ? row.comp_ratio : 0, i18n.language)}
                  </Text>
                </Fragment>,
                <Fragment key={5}>
                  {/* the row itself toggles selection: the buttons must not */}
                  <div onClick={(e) => e.stopPropagation()}>
                    <InlineStack gap="100" wrap={false}>
                      {st.can_view && (
                        <Button size="slim" onClick={() => onView(row)}>
                          {t('imageDetails.view')}
                        </Button>
                      )}
                      {st.can_download && <DownloadButton row={row} fresh={onFresh ? () => onFresh(row.id) : undefined} />}
                      {st.can_restore && (
                        <Button size="slim" onClick={() => onRestore([row])} loading={restoring.has(row.id)}>
                          {t('imageDetails.restore')}
                        </Button>
                      )}
                    </InlineStack>
                  </div>
                </Fragment>,
              ]}
            />
          </IndexTable.Row>
        );
      })}
    </IndexTable>
  );
}
