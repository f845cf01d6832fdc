// The English catalogue comes in parts (issue 26: first-screen JavaScript; admin/src/i18n addEnglish,
// admin/build/english-parts.ts): the shell's part with the entry, every other part with the code of the
// feature that shows it. A file that writes a key of a feature's part must import that part's strings
// module itself, so that whichever chunk holds the file also brings the strings; and every top-level key
// of en.json belongs to exactly one part.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../../admin/locales/en.json';
import { splitEnglishImports } from '../../admin/build/english-parts';

const SRC = join(import.meta.dirname, '../../admin/src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The top-level keys a file imports from en.json by name. */
const namedKeys = (code: string) =>
  [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*'[^']*\/locales\/en\.json'/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  );

const files = filesUnder(SRC).map((path) => ({ path, code: readFileSync(path, 'utf8') }));
const shellPart = namedKeys(readFileSync(join(SRC, 'i18n/index.ts'), 'utf8'));
// strings module -> the keys it hands to addEnglish
const parts = new Map(
  files.filter((f) => /addEnglish\(/.test(f.code) && !f.path.endsWith('i18n/index.ts')).map((f) => [f.path, namedKeys(f.code)]),
);

describe('English catalogue parts', () => {
  it('every top-level key of en.json is in exactly one part', () => {
    const all = [...shellPart, ...[...parts.values()].flat()].sort();
    expect(all).toEqual(Object.keys(en).sort());
  });

  it.each(files.map((f) => [relative(SRC, f.path), f] as const))('%s imports the parts whose keys it writes', (_name, file) => {
    const imported = new Set(
      [...file.code.matchAll(/import\s+(?:[^'";]*\s+from\s+)?'(\.[^']+)';/g)].map((m) => resolve(dirname(file.path), m[1]!)),
    );
    for (const [module, keys] of parts) {
      const own = module === file.path || imported.has(module.replace(/\.tsx?$/, ''));
      for (const key of keys) {
        const writes = new RegExp(`['\`"]${key}\\.[A-Za-z]`).test(file.code);
        if (writes) expect(own, `${relative(SRC, file.path)} writes '${key}.…' keys: import ${relative(SRC, module)}`).toBe(true);
      }
    }
  });

  it('the build turns each named import into a module of its own', () => {
    expect(splitEnglishImports("import { main, imageOpt } from '../../locales/en.json';")).toBe(
      "import main from 'virtual:english-part/main';\nimport imageOpt from 'virtual:english-part/imageOpt';",
    );
  });
});
