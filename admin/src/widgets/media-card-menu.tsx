import { ActionList, Popover, type ActionListItemDescriptor } from '@shopify/polaris';
import { useEffect, type ReactElement } from 'react';

// The "more" menu of widgets/media-card.tsx: Polaris' Popover with an ActionList, as Polaris' MediaCard
// renders it, in a chunk of its own loaded when the merchant reaches for the menu button.

export function MediaCardMenu({
  activator,
  active,
  onToggle,
  items,
  focusId,
}: {
  activator: ReactElement;
  active: boolean;
  onToggle: () => void;
  items: ActionListItemDescriptor[];
  /** The id of the menu button when it had the focus as the merchant reached for it. */
  focusId?: string;
}) {
  // Replacing the closed button took the focus off it: it goes back, unless the merchant moved on.
  useEffect(() => {
    if (focusId && (document.activeElement === null || document.activeElement === document.body))
      document.getElementById(focusId)?.focus();
  }, [focusId]);
  return (
    <Popover active={active} activator={activator} onClose={onToggle} preferredAlignment="left" preferredPosition="below">
      <ActionList items={items} onActionAnyItem={onToggle} />
    </Popover>
  );
}
