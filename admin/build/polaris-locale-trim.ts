// Polaris' translation catalogues carry the texts of every Polaris component (DatePicker, Filters,
// TopBar...): about 12 KB of English in the first chunk, for the few dozen texts the admin's components
// can show (issue 26: first-screen JavaScript). This build step keeps, in each catalogue the admin loads
// (@shopify/polaris/locales/*.json), only the keys that the Polaris files the admin can reach, and the
// admin's own code, name: the Polaris files reachable from the admin's imports (named imports from
// '@shopify/polaris' and Polaris files imported by path) through their relative imports, and every
// 'Polaris.…' key written in them; a key built at run time (`Polaris.DatePicker.months.${…}`) keeps its
// whole branch. Reachable is wider than what the bundle keeps, so nothing a component may show is lost.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Plugin } from 'vite';

export type Catalogue = { [key: string]: string | Catalogue };

const KEY = /[`'"](Polaris(?:\.[A-Za-z0-9_]+)+)(\.\$\{|\.?[`'"])/g;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** The keys ('Polaris.A.b') and key prefixes ('Polaris.DatePicker.months') the admin's Polaris can use. */
export function polarisKeysInUse(srcDir: string, polarisEsm: string): { keys: Set<string>; branches: Set<string> } {
  const keys = new Set<string>();
  const branches = new Set<string>();
  const collect = (code: string) => {
    for (const m of code.matchAll(KEY)) (m[2]!.startsWith('.${') ? branches : keys).add(m[1]!);
  };
  // Named exports of Polaris' index: name -> file.
  const index = readFileSync(join(polarisEsm, 'index.js'), 'utf8');
  const fileOf = new Map<string, string>();
  for (const m of index.matchAll(/export \{([^}]*)\} from '(\.[^']+)'/g))
    for (const part of m[1]!.split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (name) fileOf.set(name, resolve(polarisEsm, m[2]!));
    }
  const start = new Set<string>();
  for (const file of filesUnder(srcDir)) {
    const code = readFileSync(file, 'utf8');
    collect(code);
    for (const m of code.matchAll(/import(?:\s+type)?\s*\{([^}]*)\}\s*from\s*'@shopify\/polaris'/g))
      for (const part of m[1]!.split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0];
        const target = name && fileOf.get(name);
        if (target) start.add(target);
      }
    for (const m of code.matchAll(/'@shopify\/polaris\/build\/(?:cjs|esm)\/([^']+\.js)'/g)) start.add(join(polarisEsm, m[1]!));
  }
  // Every Polaris file reachable from those through relative imports (static and dynamic).
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    collect(code);
    for (const m of code.matchAll(/(?:from|import\()\s*'(\.[^']+\.js)'/g)) visit(resolve(dirname(file), m[1]!));
  };
  for (const file of start) visit(file);
  return { keys, branches };
}

/** The catalogue with only the keys in use (and whole branches for keys built at run time). */
export function trimCatalogue(catalogue: Catalogue, inUse: { keys: Set<string>; branches: Set<string> }): Catalogue {
  const walk = (node: Catalogue, path: string): Catalogue | null => {
    const out: Catalogue = {};
    for (const [k, v] of Object.entries(node)) {
      const full = path ? `${path}.${k}` : k;
      if ([...inUse.branches].some((b) => full === b || full.startsWith(`${b}.`))) out[k] = v;
      else if (typeof v === 'string') {
        if (inUse.keys.has(full)) out[k] = v;
      } else {
        const kept = walk(v, full);
        if (kept) out[k] = kept;
      }
    }
    return Object.keys(out).length ? out : null;
  };
  return walk(catalogue, '') ?? {};
}

export function trimPolarisLocales(srcDir: string): Plugin {
  let inUse: { keys: Set<string>; branches: Set<string> } | undefined;
  return {
    name: 'polaris-locale-trim',
    apply: 'build',
    enforce: 'pre',
    load(id) {
      if (!/@shopify[\\/]polaris[\\/]locales[\\/][\w-]+\.json$/.test(id)) return null;
      const polarisEsm = join(dirname(dirname(id)), 'build', 'esm');
      inUse ??= polarisKeysInUse(srcDir, polarisEsm);
      return JSON.stringify(trimCatalogue(JSON.parse(readFileSync(id, 'utf8')) as Catalogue, inUse));
    },
  };
}
