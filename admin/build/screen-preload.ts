// The first screen's code is fetched with the app's, not after it (issue 26). Every screen is a lazy chunk
// (admin/src/router.tsx) that the router imports only once the entry has run, which put one more round
// trip (and on a phone the entry's whole evaluation) before the screen's code even started to download.
// The built index.html gets a small inline script that reads location.pathname and adds a
// <link rel="modulepreload"> for that screen's chunk and the chunks it imports beyond the entry's, so they
// download in parallel with the entry. The table is built from the bundle, so it cannot name a stale file.
import { readFileSync } from 'node:fs';
import type { HtmlTagDescriptor, Plugin } from 'vite';

type Chunk = { fileName: string; isEntry: boolean; facadeModuleId: string | null; imports: string[] };

/**
 * `page('/main', screen(() => import('./screens/main'), ...))` in router.tsx, or a route of its own
 * (`createRoute({ path: '/x', ..., component: screen(() => import('./screens/x'), ...) })`): path -> screen
 * module name.
 */
export function screensOfRouter(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  const SCREEN = String.raw`screen\(\s*\(\)\s*=>\s*import\('\.\/screens\/([\w-]+)'\)`;
  for (const m of source.matchAll(new RegExp(String.raw`page\(\s*'(\/[^']*)',\s*` + SCREEN, 'g'))) out[m[1]!] = m[2]!;
  for (const m of source.matchAll(new RegExp(String.raw`path:\s*'(\/[^']*)',(?:(?!path:)[\s\S])*?component:\s*` + SCREEN, 'g')))
    out[m[1]!] = m[2]!;
  return out;
}

/** Path -> the files to preload: the screen's chunk and its static imports that the entry does not load. */
export function screenPreloads(chunks: Chunk[], screens: Record<string, string>): Record<string, string[]> {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const closure = (file: string, into = new Set<string>()) => {
    if (into.has(file)) return into;
    into.add(file);
    for (const i of byFile.get(file)?.imports ?? []) closure(i, into);
    return into;
  };
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error('screen-preload: no entry chunk');
  const loaded = closure(entry.fileName);
  const out: Record<string, string[]> = {};
  for (const [path, name] of Object.entries(screens)) {
    const chunk = chunks.find(
      (c) => c.facadeModuleId !== null && /[\\/]src[\\/]screens[\\/]([\w-]+)\.tsx?$/.exec(c.facadeModuleId)?.[1] === name,
    );
    if (!chunk) throw new Error(`screen-preload: no chunk for screens/${name} (${path})`);
    out[path] = [...closure(chunk.fileName)].filter((f) => !loaded.has(f));
  }
  return out;
}

/**
 * The inline script: the current path's files as modulepreload links (a trailing slash is ignored). The
 * Worker gives the document's scripts a nonce (worker/document.ts, script-src 'nonce-…'): the links carry
 * the script's own, as Vite's loader does for the links it adds.
 */
export function preloadScript(table: Record<string, string[]>, base: string): string {
  return (
    `(function(t,b){var p=location.pathname.replace(/(.)\\/+$/,'$1'),f=t[p]||[],s=document.currentScript,n=s&&s.nonce;` +
    `for(var i=0;i<f.length;i++){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';` +
    `if(n)l.nonce=n;l.href=b+f[i];document.head.appendChild(l)}})(${JSON.stringify(table)},${JSON.stringify(base)})`
  );
}

export function preloadFirstScreen(routerFile: string): Plugin {
  let base = '/';
  return {
    name: 'preload-first-screen',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx): HtmlTagDescriptor[] {
        if (!ctx.bundle) return [];
        const screens = screensOfRouter(readFileSync(routerFile, 'utf8'));
        if (Object.keys(screens).length === 0) throw new Error(`screen-preload: no screens found in ${routerFile}`);
        const chunks = Object.values(ctx.bundle).flatMap((f) => (f.type === 'chunk' ? [f] : []));
        const table = screenPreloads(chunks, screens);
        return [{ tag: 'script', children: preloadScript(table, base), injectTo: 'head' }];
      },
    },
  };
}
