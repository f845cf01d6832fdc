import { InlineStack } from '@shopify/polaris';
import type { BulkActionsProps } from '@shopify/polaris/build/ts/src/components/BulkActions/BulkActions';
import { forwardRef, lazy, Suspense, useEffect, useState, type ForwardedRef } from 'react';
import { bulkActionsStyles as styles, CheckableButton } from './polaris-parts';

// Polaris' IndexTable renders its BulkActions from the first paint, but while nothing is selected that is
// only a hidden "select all" checkbox: the bar's promoted actions, their measuring and overflow menu
// (Popover, ActionList with its filter TextField, BulkActionMenu: about 12 KB gzipped) show once the
// merchant selects a row. The admin build points IndexTable's import of BulkActions here
// (admin/build/polaris-lazy-parts.ts; issue 26: first-screen JavaScript): until a row is selected this
// renders BulkActions' own markup for that state (tests/admin/screen-markup.test.tsx), and Polaris'
// BulkActions is fetched at the merchant's first pointer, touch or key press on the page, and shown once a
// selection needs it (until it arrives, the bar keeps the markup it had).

type Props = BulkActionsProps & { width?: number };

const loadBulkActions = async () =>
  (await import('@shopify/polaris/build/cjs/components/BulkActions/BulkActions.js')).BulkActions;
const PolarisBulkActions = lazy(async () => ({ default: await loadBulkActions() }));

let fetched = false;
/** Fetches Polaris' BulkActions once, at the first sign the merchant is about to use the page. */
function useFetchOnFirstInput() {
  useEffect(() => {
    if (fetched) return;
    const events = ['pointerdown', 'touchstart', 'keydown'] as const;
    const fetchNow = () => {
      fetched = true;
      for (const e of events) document.removeEventListener(e, fetchNow, true);
      void loadBulkActions();
    };
    for (const e of events) document.addEventListener(e, fetchNow, { capture: true, passive: true });
    return () => {
      for (const e of events) document.removeEventListener(e, fetchNow, true);
    };
  }, []);
}

/**
 * BulkActions while nothing is selected: the select-all checkbox, as Polaris renders it then. With
 * Polaris' children too, the `null`s included: React's useId counts a parent's children (its "tree
 * context"), and the Worker renders Polaris' own BulkActions (worker/document-render.ts: this build step is
 * the admin's only), so the checkbox's id must come out the same here for the browser to hydrate a table
 * the Worker rendered (the details screen's, on a phone).
 */
const Idle = forwardRef(function Idle(props: Props, ref: ForwardedRef<unknown>) {
  const { accessibilityLabel, label, selected, disabled, width } = props;
  return (
    <div className={styles.BulkActions} style={width ? { width } : undefined}>
      <InlineStack gap="400" blockAlign="center">
        <div className={styles.BulkActionsSelectAllWrapper}>
          <CheckableButton
            ref={ref}
            accessibilityLabel={accessibilityLabel}
            label={label}
            selected={selected}
            onToggleAll={() => props.onToggleAll?.()}
            disabled={disabled}
          />
          {/* Polaris: paginatedSelectAllMarkup */ null}
        </div>
        {/* Polaris: the promoted actions, in select mode */ null}
      </InlineStack>
    </div>
  );
});

export const BulkActions = forwardRef(function LazyBulkActions(props: Props, ref: ForwardedRef<unknown>) {
  useFetchOnFirstInput();
  // Once Polaris' BulkActions has been needed it stays: leaving select mode is its own markup again.
  const [needed, setNeeded] = useState(false);
  if (!needed && (props.selectMode || props.paginatedSelectAllAction)) setNeeded(true);
  if (!needed) return <Idle {...props} ref={ref} />;
  return (
    <Suspense fallback={<Idle {...props} ref={ref} />}>
      <PolarisBulkActions {...props} ref={ref} />
    </Suspense>
  );
});
