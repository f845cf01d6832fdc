import { Button } from '@shopify/polaris';
import { lazy, startTransition, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
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
  // The latest handlers, for the markup below, which stays the same object until what it shows changes: the
  // table renders again right after the browser hydrated the Worker's rows (details screen opened by its
  // link), and a Suspense boundary handed new children before it hydrated is thrown away by React (#421).
  const latest = useRef({ want, download });
  useEffect(() => {
    latest.current = { want, download };
  });
  const label = t('imageDetails.download');
  const original = t('imageDetails.downloadOriginal');
  const optimised = t('imageDetails.downloadOptimized');
  return useMemo(() => {
    const onWant = () => latest.current.want();
    const activator = (
      <Button
        id={buttonId}
        size="slim"
        disclosure
        onClick={() => {
          onWant();
          setOpen((o) => !o);
        }}
        loading={busy}
      >
        {label}
      </Button>
    );
    const closed = (
      <div onPointerEnter={onWant} onFocus={onWant} onTouchStart={onWant}>
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
              { content: original, onAction: () => void latest.current.download('before_file_path') },
              { content: optimised, onAction: () => void latest.current.download('after_file_path') },
            ]}
          />
        ) : (
          closed
        )}
      </Suspense>
    );
  }, [wanted, open, busy, buttonId, label, original, optimised]);
}
