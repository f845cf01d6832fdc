import { InlineStack, Text, Thumbnail } from '@shopify/polaris';
import { Badge } from '../widgets/badge';
import { ImageIcon } from '@shopify/polaris-icons';
import { useTranslation } from 'react-i18next';
import type { HistoryRow } from './rules';
import { formatDateTime, formatNumber } from '../lib/intl';
import { useHydrated } from '../shell/viewport';
import './strings';

const STATUS: Record<string, { key: string; tone?: 'success' | 'info' | 'attention' | 'critical' }> = {
  finished: { key: 'imageOpt.status.finished', tone: 'success' },
  implement: { key: 'imageOpt.status.implement', tone: 'info' },
  monitor: { key: 'imageOpt.status.monitor', tone: 'info' },
  restored: { key: 'imageOpt.status.restored', tone: 'attention' },
  deleted: { key: 'imageOpt.status.deleted', tone: 'critical' },
};

/**
 * The history status (finished, implement, monitor, restored, deleted) as a translated badge; images of
 * the item that failed add a Failed badge with the newest reason under it (decisions.md: a failure shows
 * with its reason in history and detail), wrapped so the row's actions stay in view.
 */
export function HistoryStatusBadge({ row }: { row: HistoryRow }) {
  const { t, i18n } = useTranslation();
  const s = STATUS[row.is_delete === 1 ? 'deleted' : row.status] ?? { key: 'imageOpt.status.none' };
  const badge = <Badge tone={s.tone}>{t(s.key)}</Badge>;
  const failed = row.is_delete === 1 ? 0 : (row.fail_num ?? 0);
  if (failed <= 0) return badge;
  return (
    <div style={{ whiteSpace: 'normal', maxWidth: '15rem' }}>
      <InlineStack gap="100" wrap>
        {badge}
        <Badge tone="critical">{t('imageOpt.status.failed', { n: formatNumber(failed, i18n.language) })}</Badge>
      </InlineStack>
      {row.fail_reason && (
        <Text as="p" variant="bodySm" tone="subdued">
          {t(row.fail_reason.message_key, row.fail_reason.params)}
        </Text>
      )}
    </div>
  );
}

const PATTERNS: Record<string, string> = {
  automatic: 'imageOpt.pattern.automatic',
  auto: 'imageOpt.pattern.automatic',
  manual: 'imageOpt.pattern.manual',
  upload: 'imageOpt.pattern.upload',
};

/** How a history item was optimised (catalogue "history entry": Automatic, Manual, Upload); '' if unknown. */
export function patternLabel(pattern: string | undefined, t: (key: string) => string): string {
  const key = PATTERNS[pattern ?? ''];
  return key ? t(key) : '';
}

export function RowThumbnail({ src, alt }: { src: string | null | undefined; alt: string }) {
  // In the Worker's markup (the details screen opened by its link) and while the browser hydrates it, the
  // frame without the picture: the pictures are whole product photos (hundreds of KB, up to 20 MB), which
  // the document would otherwise start fetching before the screen's own code and text on a phone's
  // connection (Lighthouse mobile: LCP 6.2 s against 2.6 s without them). The frame keeps its size.
  const hydrated = useHydrated();
  return <Thumbnail source={(hydrated && src) || ImageIcon} alt={alt} size="small" />;
}

/** A row's date (epoch ms or ISO) in the merchant's language (lib/intl.ts maps our codes to BCP 47). */
export const formatDate = formatDateTime;
