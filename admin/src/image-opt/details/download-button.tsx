import { ActionList, Button, Popover } from '@shopify/polaris';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateIsDownload } from '../../api/calls';
import { useToast } from '../../hooks/use-toast';
import type { ImageRow } from '../image-row';
import { downloadHref } from '../rules';

/** Downloads the original or the optimised file; a missing link is 'Url is empty' (section 5). */
export function DownloadButton({ row }: { row: ImageRow }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const download = (url: string) => {
    setOpen(false);
    const href = downloadHref(url);
    if (!href) {
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
    void updateIsDownload(row.opt_id).catch(() => undefined);
  };
  return (
    <Popover
      active={open}
      onClose={() => setOpen(false)}
      activator={
        <Button size="slim" disclosure onClick={() => setOpen((o) => !o)}>
          {t('imageDetails.download')}
        </Button>
      }
    >
      <ActionList
        items={[
          { content: t('imageDetails.downloadOriginal'), onAction: () => download(row.before_file_path) },
          { content: t('imageDetails.downloadOptimized'), onAction: () => download(row.after_file_path) },
        ]}
      />
    </Popover>
  );
}
