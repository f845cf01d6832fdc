// The English catalogue comes in parts (issue 26: first-screen JavaScript; admin/src/i18n addEnglish,
// admin/build/english-parts.ts): the shell's part with the entry, every other part with the code of the
// feature that shows it. A file that writes a key of a feature's part must import that part's strings
// module itself, so that whichever chunk holds the file also brings the strings; and every top-level key
// of en.json belongs to exactly one part.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../../admin/locales/en.json';
import { englishImports, englishPartModule, splitEnglishImports } from '../../admin/build/english-parts';

const SRC = join(import.meta.dirname, '../../admin/src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The parts a file hands over: a top-level key ('main'), or a branch of one ('main.review'). */
const partsOf = (code: string) =>
  englishImports(code).flatMap(({ name, branches }) => (branches ? branches.map((b) => `${name}.${b}`) : [name]));

const files = filesUnder(SRC).map((path) => ({ path, code: readFileSync(path, 'utf8') }));
const shellPart = partsOf(readFileSync(join(SRC, 'i18n/index.ts'), 'utf8'));
// strings module -> the parts it hands to addEnglish
const parts = new Map(
  files.filter((f) => /addEnglish\(/.test(f.code) && !f.path.endsWith('i18n/index.ts')).map((f) => [f.path, partsOf(f.code)]),
);

describe('English catalogue parts', () => {
  it('every top-level key of en.json is in exactly one part (whole), and every branch handed over exists', () => {
    const all = [...shellPart, ...[...parts.values()].flat()];
    expect(all.filter((p) => !p.includes('.')).sort()).toEqual(Object.keys(en).sort());
    for (const p of all.filter((p) => p.includes('.'))) expect(() => englishPartModule(en, p), p).not.toThrow();
  });

  it.each(files.map((f) => [relative(SRC, f.path), f] as const))('%s imports the parts whose keys it writes', (_name, file) => {
    const imported = new Set(
      [...file.code.matchAll(/import\s+(?:[^'";]*\s+from\s+)?'(\.[^']+)';/g)].map((m) => resolve(dirname(file.path), m[1]!)),
    );
    // every key prefix the file writes ('main.review' of 'main.review.title'), against the parts it imports
    const written = [...file.code.matchAll(/['`"](\w+)\.(\w+)[.'`"$]/g)].map((m) => [m[1]!, m[2]!] as const);
    for (const [key, branch] of written) {
      const givers = [...parts].filter(([, ps]) => ps.includes(key) || ps.includes(`${key}.${branch}`)).map(([m]) => m);
      if (givers.length === 0) continue; // a key of the shell's part, or not the catalogue's
      const own = givers.some((m) => m === file.path || imported.has(m.replace(/\.tsx?$/, '')));
      expect(
        own,
        `${relative(SRC, file.path)} writes '${key}.${branch}…': import one of ${givers.map((m) => relative(SRC, m)).join(', ')}`,
      ).toBe(true);
    }
  });

  it('the build turns each named import into a module of its own, or of the branches read', () => {
    expect(splitEnglishImports("import { main, imageOpt } from '../../locales/en.json';\nadd({ main, imageOpt });")).toBe(
      "import main from 'virtual:english-part/main';\nimport imageOpt from 'virtual:english-part/imageOpt';\nadd({ main, imageOpt });",
    );
    expect(
      splitEnglishImports(
        "import { main } from '../../locales/en.json';\nadd({ main: { review: main.review, reauth: main.reauth } });",
      ),
    ).toBe(
      "import __en_main_review from 'virtual:english-part/main.review';\nimport __en_main_reauth from 'virtual:english-part/main.reauth';\n" +
        'add({ main: { review: __en_main_review, reauth: __en_main_reauth } });',
    );
    // a key's module is its branches' modules, so that a branch two parts hand over is bundled once
    expect(englishPartModule({ main: { a: 'A', b: { c: 'C' } } }, 'main')).toBe(
      'import b0 from \'virtual:english-part/main.a\';\nimport b1 from \'virtual:english-part/main.b\';\nexport default { "a": b0, "b": b1 };',
    );
    expect(englishPartModule({ main: { a: 'A', b: { c: 'C' } } }, 'main.b')).toBe('export default {"c":"C"};');
  });
});
