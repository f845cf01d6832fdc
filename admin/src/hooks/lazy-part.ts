import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

// Issue 26 (first-screen JavaScript): what a screen mounts one transition after its first render
// (<Later>, hooks/use-later.ts: below the fold, the footer) is in neither the Worker's markup nor the
// hydration, so its code need not come before them: it is a chunk of its own, which the screen starts
// fetching when its own module runs (while the first screen hydrates), and which shows, inside a
// <Suspense fallback={null}> as <Later> shows nothing until then, once it is there.

export type LazyPart<P> = {
  /** The component, for <Suspense fallback={null}> inside <Later>. */
  Part: LazyExoticComponent<ComponentType<P>>;
  /** Starts fetching its code (once); resolves with the component. */
  prefetch: () => Promise<ComponentType<P>>;
};

/** A lazily loaded part of a screen whose code is fetched once, from `prefetch` or its first render. */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  const prefetch = () =>
    (loading ??= load().catch((e: unknown) => {
      loading = undefined; // a later render tries again
      throw e;
    }));
  return { prefetch, Part: lazy(async () => ({ default: await prefetch() })) };
}
