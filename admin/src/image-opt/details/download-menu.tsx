import { ActionList, Popover, type ActionListItemDescriptor } from '@shopify/polaris';
import { useEffect, type ReactElement } from 'react';

// The Download button's menu (original or optimised file): Polaris' Popover with an ActionList, in a chunk
// of its own loaded when the merchant reaches for the button (details/download-button.tsx).

export function DownloadMenu({
  activator,
  active,
  onClose,
  items,
  focusId,
}: {
  activator: ReactElement;
  active: boolean;
  onClose: () => void;
  items: ActionListItemDescriptor[];
  /** The id of the button when it had the focus as the merchant reached for it. */
  focusId?: string;
}) {
  // Replacing the closed button took the focus off it: it goes back, unless the merchant moved on.
  useEffect(() => {
    if (focusId && (document.activeElement === null || document.activeElement === document.body))
      document.getElementById(focusId)?.focus();
  }, [focusId]);
  return (
    <Popover active={active} onClose={onClose} activator={activator}>
      <ActionList items={items} />
    </Popover>
  );
}
