// The first screen's chunks are preloaded from index.html (admin/build/screen-preload.ts, issue 26).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { preloadScript, screenPreloads, screensOfRouter } from '../../admin/build/screen-preload';
import { ADMIN_ROUTES } from '../../bench/admin-routes';

const ROUTER = readFileSync(join(import.meta.dirname, '../../admin/src/router.tsx'), 'utf8');

describe('screen preload table', () => {
  it('knows the screen of every route the benchmark opens', () => {
    const screens = screensOfRouter(ROUTER);
    for (const route of ADMIN_ROUTES) expect(screens[route], route).toMatch(/^[\w-]+$/);
    expect(screens['/main']).toBe('main');
    // A route of its own (router.tsx: the details screen's search and loader).
    expect(screens['/image_optimisation_details']).toBe('image-optimisation-details');
  });

  it("lists a screen's chunk and its imports, leaving out what the entry already loads", () => {
    const chunk = (fileName: string, imports: string[], facade: string | null = null, isEntry = false) => ({
      fileName,
      imports,
      facadeModuleId: facade,
      isEntry,
    });
    const chunks = [
      chunk('assets/index.js', ['assets/react.js'], '/a/admin/index.html', true),
      chunk('assets/react.js', []),
      chunk('assets/main.js', ['assets/react.js', 'assets/Card.js'], '/a/admin/src/screens/main.tsx'),
      chunk('assets/Card.js', ['assets/react.js']),
    ];
    expect(screenPreloads(chunks, { '/main': 'main' })).toEqual({ '/main': ['assets/main.js', 'assets/Card.js'] });
    expect(() => screenPreloads(chunks, { '/x': 'missing' })).toThrow(/screens\/missing/);
  });

  it('the inline script adds one modulepreload link per file of the current path', () => {
    const added: { rel: string; href: string; crossOrigin: string; nonce?: string }[] = [];
    const document = {
      currentScript: { nonce: 'n0nce' },
      createElement: () => ({ rel: '', href: '', crossOrigin: 'x' }),
      head: { appendChild: (l: (typeof added)[0]) => added.push(l) },
    };
    const table = { '/main': ['assets/main.js', 'assets/Card.js'] };
    runInNewContext(preloadScript(table, '/'), { document, location: { pathname: '/main/' } });
    expect(added).toEqual([
      { rel: 'modulepreload', href: '/assets/main.js', crossOrigin: '', nonce: 'n0nce' },
      { rel: 'modulepreload', href: '/assets/Card.js', crossOrigin: '', nonce: 'n0nce' },
    ]);
    added.length = 0;
    runInNewContext(preloadScript(table, '/'), { document, location: { pathname: '/unknown' } });
    expect(added).toEqual([]);
  });
});
