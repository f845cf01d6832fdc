import { Thumbnail } from '@shopify/polaris';
import { Badge } from '../widgets/badge';
import { ImageIcon } from '@shopify/polaris-icons';
import { useTranslation } from 'react-i18next';
import type { HistoryRow } from './rules';
import { formatDateTime } from '../lib/intl';
import './strings';

const STATUS: Record<string, { key: string; tone?: 'success' | 'info' | 'attention' | 'critical' }> = {
  finished: { key: 'imageOpt.status.finished', tone: 'success' },
  implement: { key: 'imageOpt.status.implement', tone: 'info' },
  monitor: { key: 'imageOpt.status.monitor', tone: 'info' },
  restored: { key: 'imageOpt.status.restored', tone: 'attention' },
  deleted: { key: 'imageOpt.status.deleted', tone: 'critical' },
};

/** The history status (finished, implement, monitor, restored, deleted) as a translated badge. */
export function HistoryStatusBadge({ row }: { row: HistoryRow }) {
  const { t } = useTranslation();
  const s = STATUS[row.is_delete === 1 ? 'deleted' : row.status] ?? { key: 'imageOpt.status.none' };
  return <Badge tone={s.tone}>{t(s.key)}</Badge>;
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
  return <Thumbnail source={src || ImageIcon} alt={alt} size="small" />;
}

/** A row's date (epoch ms or ISO) in the merchant's language (lib/intl.ts maps our codes to BCP 47). */
export const formatDate = formatDateTime;
