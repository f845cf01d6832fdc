import { useAtomValue } from 'jotai';
import { lazy, Suspense, useState, type ComponentType } from 'react';
import type { Atom } from 'jotai';
import { planLimitAtom } from '../pricing/plan-limit';

// The shell's plan-limit dialog is opened through its atom from any screen. Its code is loaded the first
// time it opens, not with the first screen (issue 26); once loaded it stays mounted, so closing animates as
// before. (The contact form loads its dialog the same way: support/contact-form.tsx.)

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
