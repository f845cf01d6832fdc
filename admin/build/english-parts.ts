// The English catalogue (admin/locales/en.json) arrives in parts (issue 26: first-screen JavaScript): the
// shell's part with the entry, each feature's part with its code (admin/src/i18n: addEnglish). The source
// names the parts as named imports, `import { imageOpt } from '../../locales/en.json'`, which the Worker's
// esbuild and the tests take as they are; a bundler keeps a JSON module whole in one chunk though (all its
// keys are used by some chunk), so this build step turns each named import into a module of that one key.
// A module that only reads some branches of a key (`addEnglish({ main: { review: main.review } })`) gets
// those branches alone, and a key's module is made of one module per branch, so a branch that two parts
// share is in the bundle once.
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

const PREFIX = 'virtual:english-part/';
const IMPORT = /import\s*\{([^}]*)\}\s*from\s*'([^']*\/locales\/en\.json)';\n?/g;

/** Each top-level key a module imports from en.json by name, with the branches it reads (null: all of it). */
export function englishImports(code: string): { name: string; branches: string[] | null }[] {
  const out: { name: string; branches: string[] | null }[] = [];
  const rest = code.replace(IMPORT, '');
  for (const m of code.matchAll(IMPORT))
    for (const raw of m[1]!.split(',')) {
      const name = raw.trim();
      if (!name) continue;
      if (!/^\w+$/.test(name)) throw new Error(`english-parts: "${name}": import the catalogue's top-level keys by name`);
      const branches = new Set<string>();
      let whole = false;
      for (const use of rest.matchAll(new RegExp(`(?<![\\w.$])${name}(?![\\w$])(\\s*:|\\.(\\w+))?`, 'g'))) {
        if (use[1]?.trim() === ':') continue; // a property's name, `{ main: … }`
        if (use[2]) branches.add(use[2]);
        else whole = true;
      }
      out.push({ name, branches: whole ? null : [...branches] });
    }
  return out;
}

const ident = (path: string) => `__en_${path.replace(/\./g, '_')}`;

/** The module with each named import of en.json as imports of this step's modules (a key's, or its branches'). */
export function splitEnglishImports(code: string): string {
  const imports = englishImports(code);
  if (!imports.length) return code;
  let body = code.replace(IMPORT, '');
  const lines: string[] = [];
  for (const { name, branches } of imports) {
    if (!branches) {
      lines.push(`import ${name} from '${PREFIX}${name}';`);
      continue;
    }
    for (const b of branches) lines.push(`import ${ident(`${name}.${b}`)} from '${PREFIX}${name}.${b}';`);
    body = body.replace(new RegExp(`(?<![\\w.$])${name}\\.(\\w+)`, 'g'), (_m, b: string) => ident(`${name}.${b}`));
  }
  return `${lines.join('\n')}\n${body}`;
}

/** The module of `path` ('main' or 'main.review'): a key whose value is an object is made of its branches' modules. */
export function englishPartModule(catalogue: Record<string, unknown>, path: string): string {
  const [key, branch, ...more] = path.split('.');
  if (more.length || !key || !(key in catalogue)) throw new Error(`english-parts: no "${path}" in en.json`);
  const value = catalogue[key];
  if (branch !== undefined) {
    if (!value || typeof value !== 'object' || !(branch in value)) throw new Error(`english-parts: no "${path}" in en.json`);
    return `export default ${JSON.stringify((value as Record<string, unknown>)[branch])};`;
  }
  if (!value || typeof value !== 'object') return `export default ${JSON.stringify(value)};`;
  const names = Object.keys(value);
  return [
    ...names.map((b, i) => `import b${i} from '${PREFIX}${key}.${b}';`),
    `export default { ${names.map((b, i) => `${JSON.stringify(b)}: b${i}`).join(', ')} };`,
  ].join('\n');
}

export function englishParts(catalogue: string): Plugin {
  return {
    name: 'english-parts',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]admin[\\/]src[\\/].*\.tsx?$/.test(id) || !code.includes('/locales/en.json')) return null;
      return { code: splitEnglishImports(code), map: null };
    },
    resolveId(source) {
      return source.startsWith(PREFIX) ? `\0${source}` : null;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return null;
      this.addWatchFile(catalogue);
      return englishPartModule(
        JSON.parse(readFileSync(catalogue, 'utf8')) as Record<string, unknown>,
        id.slice(PREFIX.length + 1),
      );
    },
  };
}
