// worker/images is grouped by format (jpeg/, png/, webp/), the guard (guard/) and shared pixel work
// (pixels/); its imports must not form a circle (issue 24 broke codecs.ts -> libwebp.ts -> guard.ts ->
// codecs.ts by giving the guard's rule its own codec-free module, guard/policy.ts). Type-only imports
// vanish at build time and are not counted.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const IMAGES = join(ROOT, 'worker/images');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'codecs' ? [] : sources(p);
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** Value imports and re-exports of one file, resolved to files of worker/images. */
function valueImports(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?\sfrom\s+'(\.[^']*)'/gms)) {
    const base = resolve(dirname(file), m[1]!);
    const hit = [`${base}.ts`, join(base, 'index.ts')].find((p) => existsSync(p));
    if (hit) out.push(hit);
  }
  return out;
}

/** Every circle in the graph, as a list of paths relative to worker/images. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, 'open');
    stack.push(n);
    for (const d of graph.get(n) ?? []) {
      if (state.get(d) === 'open') found.push([...stack.slice(stack.indexOf(d)), d]);
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of graph.keys()) if (!state.has(n)) visit(n);
  return found.map((c) => c.map((p) => relative(IMAGES, p)));
}

describe('worker/images imports', () => {
  it('the circle finder sees a circle (so the check below can fail)', () => {
    const a = join(IMAGES, 'a.ts');
    const b = join(IMAGES, 'b.ts');
    expect(
      circles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts', 'a.ts']]);
  });

  it('type-only imports are not counted, value imports are', () => {
    const f = join(IMAGES, 'index.ts');
    expect(valueImports(f, "import type { Rgba } from './types';\n")).toEqual([]);
    expect(valueImports(f, "import { ImageDecodeError } from './errors';\n")).toEqual([join(IMAGES, 'errors.ts')]);
  });

  it('form no circle', () => {
    const files = sources(IMAGES);
    expect(files.length).toBeGreaterThan(25);
    const graph = new Map(files.map((f) => [f, valueImports(f, readFileSync(f, 'utf8'))]));
    expect([...graph.values()].flat().length).toBeGreaterThan(50);
    expect(circles(graph)).toEqual([]);
  });
});
