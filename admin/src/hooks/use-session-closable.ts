import { useState } from 'react';
import { isClosed, markClosed } from '../lib/session-flags';

/**
 * A banner or card the merchant closed stays closed for the browser session. `onClose`
 * runs once per close, e.g. to record the click with updateCustomerClick.
 */
export function useSessionClosable(name: string, onClose?: () => void): [boolean, () => void] {
  const [closed, setClosed] = useState(() => isClosed(name));
  return [
    closed,
    () => {
      markClosed(name);
      setClosed(true);
      onClose?.();
    },
  ];
}
