import { atom, useSetAtom } from 'jotai';
import { useCallback } from 'react';

// One toast at a time, shown by ToastHost inside the app Frame (section 8 "Toasts").
export type ToastMessage = { content: string; error?: boolean; id: number };
export const toastAtom = atom<ToastMessage | null>(null);

let seq = 0;
export function useToast() {
  const set = useSetAtom(toastAtom);
  return useCallback((content: string, opts: { error?: boolean } = {}) => set({ content, error: opts.error, id: ++seq }), [set]);
}
