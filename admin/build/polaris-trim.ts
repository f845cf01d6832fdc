// Build-time trimming of Polaris to what the admin uses (issue 26). Polaris ships one stylesheet with every
// component's rules and every theme, and one tokens module with the values of every theme; the admin renders
// the default ('light') theme and a few dozen components.
//
// - polarisTokensLightOnly: @shopify/polaris-tokens' build keeps the token values of four themes in one
//   object literal (about 100 KB of JavaScript); Polaris reads them through `themes[themeName]`, and the
//   admin never names another theme than the default, so the others are left out of the bundle. Of the
//   default theme, only the token groups Polaris' JavaScript reads (`theme.motion`, `themeDefault.space`:
//   durations, z-indexes, breakpoints, spacing) are kept; colours, fonts, shadows and the rest reach the page
//   through the stylesheet's custom properties, never through JavaScript (about 4 KB gzipped less in the
//   first screen). The groups are found in Polaris' own files at build time, so a Polaris that reads
//   another group keeps it.
// - trimPolarisCss: Polaris applies its classes only through the class-name maps of its components
//   (`Button.css.js`: { variantPrimary: "Polaris-Button--variantPrimary", ... }) and a few literal names,
//   so a `Polaris-*` class whose name appears in none of the built JavaScript (every chunk, lazy ones too)
//   can never be on an element. Rules whose selectors all need such a class are dropped, and so are the
//   custom-property blocks of the themes other than the default one.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';

const TOKENS_BUILD = /@shopify[\\/]polaris-tokens[\\/]dist[\\/]esm[\\/]build[\\/]index\.mjs$/;
const THEMES_DECL = /var themes = \{[\s\S]*?\n\};\n(?=var themeDefault = themes\[themeNameDefault\];)/;

/**
 * The token groups these sources read from a theme object: `theme.motion[...]`, `themeDefault.space[...]`
 * (Polaris names the object `theme` or `themeDefault` wherever it reads one). Indexing one by a computed
 * group name (`theme[group]`) could read any group: that throws.
 */
export function themeGroupsReadBy(sources: Iterable<string>): Set<string> {
  const groups = new Set<string>();
  for (const code of sources) {
    for (const m of code.matchAll(/\b(?:theme|themeDefault)\??\.([A-Za-z]+)\b(?!['"])/g)) groups.add(m[1]!);
    const computed = /\b(?:theme|themeDefault)\??\.?\[/.exec(code);
    if (computed)
      throw new Error(`polaris-trim: a theme group read by a computed name: ${code.slice(computed.index, computed.index + 60)}`);
  }
  return groups;
}

/** Polaris' ES module files (the ones the bundle takes). */
function* polarisSources(): Generator<string> {
  const require = createRequire(import.meta.url);
  const root = join(dirname(require.resolve('@shopify/polaris/package.json')), 'build/esm');
  for (const f of readdirSync(root, { recursive: true, encoding: 'utf8' }))
    if (f.endsWith('.js')) yield readFileSync(join(root, f), 'utf8');
}

/**
 * The tokens module with only the default theme's values, and of those only the groups in `groups` (all
 * when not given). The build fails if Polaris reshapes the file or reads a group the theme lacks.
 */
export async function lightOnlyTokensSource(code: string, id: string, groups?: ReadonlySet<string>): Promise<string> {
  if (!THEMES_DECL.test(code)) throw new Error(`polaris-trim: no "var themes = {...}" before themeDefault in ${id}`);
  const tokens = (await import(pathToFileURL(id).href)) as {
    themes: Record<string, Record<string, unknown>>;
    themeNameDefault: string;
  };
  const name = tokens.themeNameDefault;
  const theme = tokens.themes[name];
  if (!theme) throw new Error(`polaris-trim: theme ${name} missing in ${id}`);
  for (const g of groups ?? []) if (!(g in theme)) throw new Error(`polaris-trim: Polaris reads theme.${g}, which ${id} lacks`);
  const kept = JSON.stringify({
    [name]: groups ? Object.fromEntries(Object.entries(theme).filter(([g]) => groups.has(g))) : theme,
  });
  return code.replace(THEMES_DECL, () => `var themes = ${kept};\n`);
}

export function polarisTokensLightOnly(): Plugin {
  let groups: Set<string> | undefined;
  return {
    name: 'polaris-tokens-light-only',
    apply: 'build',
    async transform(code, id) {
      if (!TOKENS_BUILD.test(id)) return null;
      groups ??= themeGroupsReadBy(polarisSources());
      return { code: await lightOnlyTokensSource(code, id, groups), map: null };
    },
  };
}

// ---- CSS ----

/** Every Polaris class name that occurs in the given JavaScript. */
export function polarisClassesIn(sources: Iterable<string>): Set<string> {
  const used = new Set<string>();
  for (const code of sources) for (const m of code.matchAll(/Polaris-[A-Za-z0-9_-]+/g)) used.add(m[0]);
  return used;
}

type Block = { prelude: string; body: string | null }; // body null: a statement ending in ';'

/** The top-level blocks and statements of a stylesheet (strings and comments respected). */
export function splitCss(css: string): Block[] {
  const out: Block[] = [];
  let i = 0;
  let start = 0;
  let depth = 0;
  let preludeEnd = -1;
  while (i < css.length) {
    const ch = css[i]!;
    if (ch === '"' || ch === "'") {
      const close = css.indexOf(ch, i + 1);
      i = close === -1 ? css.length : close + 1;
      continue;
    }
    if (ch === '/' && css[i + 1] === '*') {
      const close = css.indexOf('*/', i + 2);
      i = close === -1 ? css.length : close + 2;
      continue;
    }
    if (ch === '{') {
      if (depth === 0) preludeEnd = i;
      depth++;
    } else if (ch === '}') {
      depth--;
      if (depth === 0) {
        out.push({ prelude: css.slice(start, preludeEnd).trim(), body: css.slice(preludeEnd + 1, i) });
        start = i + 1;
      }
    } else if (ch === ';' && depth === 0) {
      out.push({ prelude: css.slice(start, i).trim(), body: null });
      start = i + 1;
    }
    i++;
  }
  const rest = css.slice(start).trim();
  if (rest) out.push({ prelude: rest, body: null });
  return out;
}

/** A selector list split at its top-level commas (not those inside :not(...), :is(...) or strings). */
export function splitSelectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out.filter(Boolean);
}

/**
 * Whether a selector can match with these classes: every Polaris class it requires (outside any
 * parenthesis, where `:not(.X)` would match without X) is used, and a theme class is the default one's.
 */
export function selectorCanMatch(selector: string, used: ReadonlySet<string>, theme: string): boolean {
  let required = selector;
  for (let prev = ''; prev !== required;) {
    prev = required;
    required = required.replace(/\([^()]*\)/g, '');
  }
  for (const m of required.matchAll(/\.(Polaris-[A-Za-z0-9_-]+)/g)) if (!used.has(m[1]!)) return false;
  for (const m of required.matchAll(/\.p-theme-([A-Za-z0-9_-]+)/g)) if (m[1] !== theme) return false;
  return true;
}

const GROUPING_AT_RULES = /^@(media|supports|layer|container|document)\b/i;

/** The stylesheet without the rules that cannot match (see above). */
export function trimCss(css: string, used: ReadonlySet<string>, theme = 'light'): string {
  let out = '';
  for (const { prelude, body } of splitCss(css)) {
    if (body === null) {
      out += `${prelude};`;
      continue;
    }
    if (prelude.startsWith('@')) {
      if (GROUPING_AT_RULES.test(prelude)) {
        const inner = trimCss(body, used, theme);
        if (inner.trim()) out += `${prelude}{${inner}}`;
      } else out += `${prelude}{${body}}`; // @keyframes, @font-face, @property...
      continue;
    }
    const live = splitSelectors(prelude).filter((s) => selectorCanMatch(s, used, theme));
    if (live.length) out += `${live.join(',')}{${body}}`;
  }
  return out;
}

export function trimPolarisCss(): Plugin {
  return {
    name: 'trim-polaris-css',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const used = polarisClassesIn(Object.values(bundle).flatMap((f) => (f.type === 'chunk' ? [f.code] : [])));
      const renamed = new Map<string, string>();
      for (const file of Object.values(bundle)) {
        if (file.type !== 'asset' || !file.fileName.endsWith('.css')) continue;
        const css = typeof file.source === 'string' ? file.source : new TextDecoder().decode(file.source);
        if (!css.includes('.Polaris-')) continue;
        const trimmed = trimCss(css, used);
        // The name's hash must follow the content: the same stylesheet trimmed for other JavaScript is
        // another file for every cache (assets are served as immutable).
        const hash = createHash('sha256').update(trimmed).digest('base64url').slice(0, 8);
        const name = file.fileName.replace(/-[\w-]{8}\.css$/, `-${hash}.css`);
        if (name === file.fileName) continue;
        renamed.set(file.fileName, name);
        delete bundle[file.fileName];
        this.emitFile({ type: 'asset', fileName: name, source: trimmed });
      }
      // References to the old names: index.html's <link>, and chunks that load a stylesheet themselves.
      const rename = (text: string) => {
        for (const [from, to] of renamed) text = text.split(from).join(to);
        return text;
      };
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk') {
          file.code = rename(file.code);
          if (file.viteMetadata) file.viteMetadata.importedCss = new Set([...file.viteMetadata.importedCss].map(rename));
        } else if (typeof file.source === 'string' && /\.(html|js)$/.test(file.fileName)) file.source = rename(file.source);
      }
    },
  };
}
