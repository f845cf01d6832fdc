import { atom, useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { showAdminToast } from '../lib/app-bridge';

// One toast at a time. Embedded in Shopify's admin the toast is the admin's own
// (App Bridge `shopify.toast.show`); standalone, ToastHost shows it inside the app Frame (Polaris).
export type ToastMessage = { content: string; error?: boolean; id: number };
export const toastAtom = atom<ToastMessage | null>(null);

let seq = 0;
export function useToast() {
  const set = useSetAtom(toastAtom);
  return useCallback(
    (content: string, opts: { error?: boolean } = {}) => {
      if (showAdminToast(content, { error: opts.error })) return;
      set({ content, error: opts.error, id: ++seq });
    },
    [set],
  );
}
