import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';

// The Worker bundles the admin for its render of the first screen (issue 26, worker/document-render.ts).
// Every Polaris file the admin imports by its CommonJS path must be mapped onto Polaris' ES module copy in
// wrangler.toml [alias] (wrangler matches whole paths): Polaris' CommonJS stylesheet modules carry no class
// names, and a second Polaris would bring a second React context.
const ROOT = join(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('wrangler.toml [alias]', () => {
  it('maps every Polaris CommonJS path the admin imports onto the ES module copy', () => {
    const imported = new Set(
      sources(join(ROOT, 'admin/src')).flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(/@shopify\/polaris\/build\/cjs\/[^'"]+/g)].map((m) => m[0]),
      ),
    );
    const alias = (parse(readFileSync(join(ROOT, 'wrangler.toml'), 'utf8')) as { alias?: Record<string, string> }).alias ?? {};
    expect(imported.size).toBeGreaterThan(0);
    for (const path of imported) expect(alias[path], path).toBe(path.replace('/build/cjs/', '/build/esm/'));
  });
});
