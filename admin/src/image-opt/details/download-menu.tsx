import { ActionList, Popover, type ActionListItemDescriptor } from '@shopify/polaris';
import type { ReactElement } from 'react';
import { useFocusBack } from '../../hooks/use-focus-back';

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
  useFocusBack(focusId);
  return (
    <Popover active={active} onClose={onClose} activator={activator}>
      <ActionList items={items} />
    </Popover>
  );
}
