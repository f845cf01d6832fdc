import { ActionList, Popover, type ActionListItemDescriptor } from '@shopify/polaris';
import type { ReactElement } from 'react';
import { useFocusBack } from '../hooks/use-focus-back';

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
  useFocusBack(focusId);
  return (
    <Popover active={active} activator={activator} onClose={onToggle} preferredAlignment="left" preferredPosition="below">
      <ActionList items={items} onActionAnyItem={onToggle} />
    </Popover>
  );
}
