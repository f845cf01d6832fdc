import { Button } from '@shopify/polaris';
import { lazy, startTransition, Suspense, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { updateIsDownload } from '../../api/calls';
import { useToast } from '../../hooks/use-toast';
import type { ImageRow } from '../image-row';
import { downloadHref, linkExpired } from '../rules';
import '../strings';

// The menu (Polaris' Popover and ActionList, about 8 KB gzipped) is fetched when the pointer or the focus
// reaches the button; until then the button sits in the wrapper Polaris' closed Popover renders, so
// nothing moves when the menu arrives, and a click before it does opens it when it does (issue 26).
const DownloadMenu = lazy(async () => ({ default: (await import('./download-menu')).DownloadMenu }));

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
  const [wanted, setWanted] = useState(false);
  const focusId = useRef<string | undefined>(undefined);
  const buttonId = useId();
  // A transition: the closed button stays on screen (and keeps the focus) until the menu's code is there.
  const want = () => {
    if (wanted) return;
    focusId.current = document.activeElement?.id === buttonId ? buttonId : undefined;
    startTransition(() => setWanted(true));
  };
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
  const activator = (
    <Button
      id={buttonId}
      size="slim"
      disclosure
      onClick={() => {
        want();
        setOpen((o) => !o);
      }}
      loading={busy}
    >
      {t('imageDetails.download')}
    </Button>
  );
  const closed = (
    <div onPointerEnter={want} onFocus={want} onTouchStart={want}>
      {activator}
    </div>
  );
  return (
    <Suspense fallback={closed}>
      {wanted ? (
        <DownloadMenu
          activator={activator}
          active={open}
          onClose={() => setOpen(false)}
          focusId={focusId.current}
          items={[
            { content: t('imageDetails.downloadOriginal'), onAction: () => void download('before_file_path') },
            { content: t('imageDetails.downloadOptimized'), onAction: () => void download('after_file_path') },
          ]}
        />
      ) : (
        closed
      )}
    </Suspense>
  );
}
