// admin/build/polaris-hydration.ts (issue 26, React #421): in the built admin, the two context values
// Polaris' AppProvider changes right after the first commit (the media query's isNavigationCollapsed,
// the portal container) change in a transition, so React hydrates a boundary of the Worker's markup
// before it applies them instead of throwing that markup away. The browser side of it:
// tests/browser/admin/server-render.test.ts (no #421, the heading kept).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { polarisHydration } from '../../admin/build/polaris-hydration';

const ESM = join(import.meta.dirname, '../../node_modules/@shopify/polaris/build/esm');
const MEDIA_QUERY = join(ESM, 'components/MediaQueryProvider/MediaQueryProvider.js');
const AFTER_MOUNT = join(ESM, 'utilities/use-is-after-initial-mount.js');

type Transform = (this: { error: (message: string) => never }, code: string, id: string) => { code: string } | null;

function transform(code: string, id: string): string | null {
  const hook = polarisHydration().transform as unknown as Transform;
  const context = {
    error: (message: string): never => {
      throw new Error(message);
    },
  };
  return hook.call(context, code, id)?.code ?? null;
}

describe('Polaris post-mount updates as transitions', () => {
  it("MediaQueryProvider sets the viewport's value in a transition", () => {
    const code = transform(readFileSync(MEDIA_QUERY, 'utf8'), MEDIA_QUERY)!;
    expect(code).toContain('startTransition } from');
    expect(code).toContain('startTransition(() => setIsNavigationCollapsed(navigationBarCollapsed().matches))');
    // The resize listener (the merchant turns the phone) stays as it was.
    expect(code).toContain('setIsNavigationCollapsed(!isNavigationCollapsed)');
  });

  it('useIsAfterInitialMount (PortalsManager, Spinner, TextField) turns true in a transition', () => {
    const code = transform(readFileSync(AFTER_MOUNT, 'utf8'), AFTER_MOUNT)!;
    expect(code).toContain('startTransition(() => setIsAfterInitialMount(true))');
    expect(code.match(/setIsAfterInitialMount\(true\)/g)).toHaveLength(1);
  });

  it('leaves other files alone, and stops the build when Polaris changed one of these', () => {
    expect(transform('export const x = 1;', join(ESM, 'components/Card/Card.js'))).toBeNull();
    expect(() => transform('export {}', MEDIA_QUERY)).toThrow(/Polaris changed/);
  });
});
