import { Component, createElement, lazy, type ComponentType, type ReactNode } from 'react';

// Issue 26 (first-screen JavaScript): what a screen mounts one transition after its first render
// (<Later>, hooks/use-later.ts: below the fold, the footer) is in neither the Worker's markup nor the
// hydration, so its code need not come before them: it is a chunk of its own, which the screen starts
// fetching when its own module runs (while the first screen hydrates), and which shows, inside a
// <Suspense fallback={null}> as <Later> shows nothing until then, once it is there.
// A chunk that fails to download is fetched again (RETRY_DELAYS_MS); a part that still fails shows
// nothing (its own error boundary), the rest of the screen stays (not the router's error screen).

export type LazyPart<P> = {
  /** The component, for <Suspense fallback={null}> inside <Later>. */
  Part: ComponentType<P>;
  /** Starts fetching its code (once); resolves with the component. */
  prefetch: () => Promise<ComponentType<P>>;
};

/** Waits before each further attempt at a chunk that failed to download. */
export const RETRY_DELAYS_MS = [300, 1500];

class PartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

async function withRetry<T>(load: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await load();
    } catch (e) {
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined) throw e;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** A lazily loaded part of a screen whose code is fetched once, from `prefetch` or its first render. */
export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loading: Promise<ComponentType<P>> | undefined;
  const prefetch = () =>
    (loading ??= withRetry(load).catch((e: unknown) => {
      loading = undefined; // a later render tries again
      throw e;
    }));
  const Inner = lazy(async () => ({ default: await prefetch() }));
  const Part = (props: P) => createElement(PartBoundary, null, createElement(Inner as unknown as ComponentType<P>, props));
  return { prefetch, Part };
}
