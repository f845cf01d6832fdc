import { Toast } from '@shopify/polaris';
import { useAtom } from 'jotai';
import { toastAtom } from '../hooks/use-toast';

/** Renders the current toast; must sit inside Polaris' Frame. */
export function ToastHost() {
  const [toast, setToast] = useAtom(toastAtom);
  if (!toast) return null;
  return <Toast key={toast.id} content={toast.content} error={toast.error} duration={3000} onDismiss={() => setToast(null)} />;
}
