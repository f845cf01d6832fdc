import { act } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

/**
 * What the image screens' tests share: fake timers that still advance (polling, debounces), a clean
 * session (dismissed banners), a desktop-wide window (the page-size selector shows above 550 px), and
 * room per test (the whole admin renders on a shared 2-core machine). Returns a timer advancer.
 */
export function setUpImagePageEnvironment() {
  vi.setConfig({ testTimeout: 20_000 });
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    sessionStorage.clear();
    Object.defineProperty(window, 'innerWidth', { value: 1280, configurable: true });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
  return (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
}
