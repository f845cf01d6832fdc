import { ActionList, Button, Popover } from '@shopify/polaris';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateIsDownload } from '../../api/calls';
import { useToast } from '../../hooks/use-toast';
import type { ImageRow } from '../image-row';
import { downloadHref, linkExpired } from '../rules';

type Props = {
  /** The row as listed; absent when the links are read on use (Other tab). */
  row?: ImageRow;
  /** Reads the row afresh: used when there is no row yet or its signed links have expired. */
  fresh?: () => Promise<ImageRow | null>;
};

/** Downloads the original or the optimised file; a missing link is 'Url is empty'. */
export function DownloadButton({ row, fresh }: Props) {
  const { t } = useTranslation();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const download = async (side: 'before_file_path' | 'after_file_path') => {
    setOpen(false);
    let current = row ?? null;
    if (fresh && (!current || linkExpired(current[side]))) {
      setBusy(true);
      current = (await fresh().catch(() => null)) ?? current;
      setBusy(false);
    }
    const href = downloadHref(current?.[side]);
    if (!current || !href) {
      toast(t('imageDetails.urlEmpty'), { error: true });
      return;
    }
    const link = document.createElement('a');
    link.href = `${href}${href.includes('?') ? '&' : '?'}download=1`;
    link.rel = 'noopener';
    link.download = '';
    document.body.appendChild(link);
    link.click();
    link.remove();
    void updateIsDownload(current.opt_id).catch(() => undefined);
  };
  return (
    <Popover
      active={open}
      onClose={() => setOpen(false)}
      activator={
        <Button size="slim" disclosure onClick={() => setOpen((o) => !o)} loading={busy}>
          {t('imageDetails.download')}
        </Button>
      }
    >
      <ActionList
        items={[
          { content: t('imageDetails.downloadOriginal'), onAction: () => void download('before_file_path') },
          { content: t('imageDetails.downloadOptimized'), onAction: () => void download('after_file_path') },
        ]}
      />
    </Popover>
  );
}
