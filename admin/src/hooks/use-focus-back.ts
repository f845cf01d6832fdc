import { useEffect } from 'react';

/**
 * For a lazily loaded menu that replaced its closed button: the focus goes back to the button (`focusId`,
 * when it had the focus as the merchant reached for it), unless the merchant moved on meanwhile.
 */
export function useFocusBack(focusId: string | undefined): void {
  useEffect(() => {
    if (focusId && (document.activeElement === null || document.activeElement === document.body))
      document.getElementById(focusId)?.focus();
  }, [focusId]);
}
