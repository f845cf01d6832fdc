import { vi } from 'vitest';

/** Pretends the window is a phone's (Polaris collapses its navigation below 768 px); restore the spy after. */
export function phoneViewport() {
  return vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: /max-width/.test(query),
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
        addListener: () => {},
        removeListener: () => {},
      }) as unknown as MediaQueryList,
  );
}
