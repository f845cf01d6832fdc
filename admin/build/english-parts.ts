// The English catalogue (admin/locales/en.json) arrives in parts (issue 26: first-screen JavaScript): the
// shell's part with the entry, each feature's part with its code (admin/src/i18n: addEnglish). The source
// names the parts as named imports, `import { imageOpt } from '../../locales/en.json'`, which the Worker's
// esbuild and the tests take as they are; a bundler keeps a JSON module whole in one chunk though (all its
// keys are used by some chunk), so this build step turns each named import into a module of that one key.
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

const PREFIX = 'virtual:english-part/';
const IMPORT = /import\s*\{([^}]*)\}\s*from\s*'([^']*\/locales\/en\.json)';/g;

/** `import { a, b } from '…/en.json';` as one default import per key, from this step's modules. */
export function splitEnglishImports(code: string): string {
  return code.replace(IMPORT, (_m, names: string) =>
    names
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean)
      .map((n) => {
        if (!/^\w+$/.test(n)) throw new Error(`english-parts: "${n}": import the catalogue's top-level keys by name`);
        return `import ${n} from '${PREFIX}${n}';`;
      })
      .join('\n'),
  );
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
      const key = id.slice(PREFIX.length + 1);
      this.addWatchFile(catalogue);
      const all = JSON.parse(readFileSync(catalogue, 'utf8')) as Record<string, unknown>;
      if (!(key in all)) this.error(`english-parts: no "${key}" in ${catalogue}`);
      return `export default ${JSON.stringify(all[key])};`;
    },
  };
}
