import { Button, ButtonGroup } from '@shopify/polaris';
import { ChevronLeftIcon, ChevronRightIcon } from '@shopify/polaris-icons';
import { lazy, startTransition, Suspense, useEffect, useRef, useState, type ReactElement } from 'react';
import { paginationStyles as styles, useI18n } from './polaris-parts';

// Polaris' <Pagination> (page type, previous / next with tooltips) with its tooltips loaded on use
// (issue 26: first-screen JavaScript): Polaris' Tooltip brings PositionedOverlay and its portal, about 5 KB
// gzipped, for a label that shows after a hover. This renders Pagination's markup and classes
// (tests/admin/screen-markup.test.tsx); an enabled button sits in the span Polaris' Tooltip wraps it in,
// and Polaris' Tooltip takes that place once the pointer or the focus reaches the buttons.

const Tooltip = lazy(async () => ({
  default: (await import('@shopify/polaris/build/cjs/components/Tooltip/Tooltip.js')).Tooltip,
}));

type Props = {
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  previousTooltip?: string;
  nextTooltip?: string;
};

export function Pagination({ hasPrevious, hasNext, onPrevious, onNext, previousTooltip, nextTooltip }: Props) {
  const i18n = useI18n();
  const nav = useRef<HTMLElement>(null);
  const [tipsWanted, setTipsWanted] = useState(false);
  const focused = useRef<string | null>(null);
  const want = () => {
    if (tipsWanted) return;
    const active = document.activeElement;
    focused.current = active && nav.current?.contains(active) ? active.id : null;
    startTransition(() => setTipsWanted(true));
  };
  // Polaris' Tooltip replaces the wrapper the button sat in: a button that had the focus gets it back.
  useEffect(() => {
    if (!tipsWanted || !focused.current) return;
    const id = focused.current;
    const timer = setTimeout(() => {
      if (document.activeElement === document.body) nav.current?.querySelector<HTMLElement>(`#${id}`)?.focus();
    });
    return () => clearTimeout(timer);
  });

  const withTip = (button: ReactElement, tip: string | undefined, enabled: boolean) => {
    if (!tip || !enabled) return button;
    const wrapped = <span className="">{button}</span>;
    if (!tipsWanted) return wrapped;
    return (
      <Suspense fallback={wrapped}>
        <Tooltip activatorWrapper="span" content={tip} preferredPosition="below">
          {button}
        </Tooltip>
      </Suspense>
    );
  };
  const prev = (
    <Button
      icon={ChevronLeftIcon}
      accessibilityLabel={i18n.translate('Polaris.Pagination.previous')}
      onClick={onPrevious}
      disabled={!hasPrevious}
      id="previousURL"
    />
  );
  const next = (
    <Button
      icon={ChevronRightIcon}
      accessibilityLabel={i18n.translate('Polaris.Pagination.next')}
      onClick={onNext}
      disabled={!hasNext}
      id="nextURL"
    />
  );
  return (
    <nav
      aria-label={i18n.translate('Polaris.Pagination.pagination')}
      ref={nav}
      className={styles.Pagination}
      onPointerEnter={want}
      onFocus={want}
      onTouchStart={want}
    >
      <ButtonGroup variant="segmented">
        {withTip(prev, previousTooltip, hasPrevious)}
        {withTip(next, nextTooltip, hasNext)}
      </ButtonGroup>
    </nav>
  );
}
