import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { getProductImagesData } from '../api/calls';
import { isOk, messageOf } from '../api/client';
import { useApiAction } from '../api/query';
import { useToast } from '../hooks/use-toast';
import type { CompareImages } from './compare-modal';
import { compareOf, statusOfRow, type ImageRow } from './image-row';
import type { HistoryRow } from './rules';
import './page-strings';

/**
 * Other tab: an uploaded file is one image (data_type 4). Its row is read when View or Download is
 * pressed, so the signed links are always fresh, however long the page has been open.
 */
export async function readUploadImage(row: Pick<HistoryRow, 'id'>): Promise<ImageRow | null> {
  const body = await getProductImagesData({ prod_id: row.id, data_type: 4, page: 1, pageSize: 10 });
  return isOk(body) ? (body.data?.data?.[0] ?? null) : null;
}

/** View reads the upload's image and opens the compare modal (original and result). */
export function useViewUpload(open: (images: CompareImages) => void) {
  const { t } = useTranslation();
  const toast = useToast();
  const read = useApiAction((row: HistoryRow) => getProductImagesData({ prod_id: row.id, data_type: 4, page: 1, pageSize: 10 }), {
    fallback: t('imageOpt.history.empty'),
    onSuccess: (body) => {
      const image = body.data?.data?.[0] ?? null;
      if (!image) {
        toast(messageOf(body, t('imageOpt.history.empty')), { error: true });
        return;
      }
      if (!statusOfRow(image).can_view) {
        toast(t('imageOpt.progress.later'));
        return;
      }
      open(compareOf(image));
    },
  });
  const { run } = read;
  // A click handler: run shows its own failure toast and never rejects, so nothing waits for it.
  return useCallback((row: HistoryRow) => void run(row), [run]);
}
