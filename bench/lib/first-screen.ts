// What a screen downloads before it can show anything, read from the admin's document (the built
// index.html or the Worker's served document): the entry script, the modulepreloads, and the chunks the
// inline preload table (admin/build/screen-preload.ts) lists for the screen's path. Counted by
// tests/config/bundle.test.ts on the build and by bench:admin on what the product serves.

/** The paths of the screen's first-screen scripts; undefined when the preload table does not know the path. */
export function firstScreenScripts(html: string, route: string): string[] | undefined {
  const up = [...html.matchAll(/<(?:script type="module"[^>]* src|link rel="modulepreload"[^>]* href)="([^"]+)"/g)].map(
    (m) => new URL(m[1]!, 'http://x').pathname,
  );
  const table = /\}\)\((\{[^<]*?\}),"\/"\)<\/script>/.exec(html);
  const own = table ? (JSON.parse(table[1]!) as Record<string, string[]>)[route] : undefined;
  return own && [...new Set([...up, ...own.map((f) => `/${f}`)])];
}
