import { useAtomValue } from 'jotai';
import { lazy, Suspense, useState, type ComponentType } from 'react';
import type { Atom } from 'jotai';
import { toastAtom } from '../hooks/use-toast';
import { planLimitAtom } from '../pricing/plan-limit';
import { loadToastManager } from './polaris-internals';

// The shell's plan-limit dialog and toast are opened through their atoms from any screen. Their code is
// loaded the first time one opens, not with the first screen (issue 26); once loaded it stays mounted, so
// closing animates as before. (The contact form loads its dialog the same way: support/contact-form.tsx.)

function lazyHost<P extends object>(open: Atom<unknown>, load: () => Promise<ComponentType<P>>) {
  const Host = lazy(async () => ({ default: await load() })) as unknown as ComponentType<P>;
  return function LazyHost(props: P) {
    const isOpen = useAtomValue(open) !== null;
    const [wanted, setWanted] = useState(false);
    if (isOpen && !wanted) setWanted(true);
    if (!wanted && !isOpen) return null;
    return (
      <Suspense fallback={null}>
        <Host {...props} />
      </Suspense>
    );
  };
}

export const PlanLimitHost = lazyHost(planLimitAtom, async () => (await import('../pricing/plan-limit-dialog')).PlanLimitHost);

/** The toast (standalone; embedded, App Bridge shows the admin's own), with the frame's toast manager in parallel. */
export const ToastHost = lazyHost(toastAtom, async () => {
  const [host] = await Promise.all([import('../widgets/toast-host'), loadToastManager()]);
  return host.ToastHost;
});
