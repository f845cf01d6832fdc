// The Workers that run locally, in one `wrangler dev` session: the HTTP Worker (wrangler.toml, first, so
// it serves the port) and the image consumer Worker (wrangler.images.toml), sharing the local D1, R2 and
// queues of the session. wrangler applies `--var` and `--env-file` to the first config only and reads
// `.dev.vars` beside each config, so the image Worker's configuration is written with the same variables
// (wrangler.images.toml's [vars], then .dev.vars, then the overrides) into a JSON config of its own.
// Used by `npm start` (scripts/start.mjs), `shopify app dev` (scripts/shopify-dev.mjs) and bench/pipeline.ts.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'smol-toml';

/** KEY=value lines of a .dev.vars file (quotes removed); {} when it does not exist. */
export function readDevVars(file = '.dev.vars') {
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => /^\s*([A-Z0-9_]+)\s*=\s*"?(.*?)"?\s*$/.exec(l))
      .filter(Boolean)
      .map((m) => [m[1], m[2]]),
  );
}

/**
 * `wrangler dev` arguments for both Workers with `vars` overriding .dev.vars in each:
 * `-c wrangler.toml -c <dir>/wrangler.json --var K:V ...`. `dir` receives the image Worker's config.
 */
export function devWorkerArgs({ root = process.cwd(), dir, vars = {} }) {
  const images = parse(readFileSync(join(root, 'wrangler.images.toml'), 'utf8'));
  const config = {
    ...images,
    main: resolve(root, images.main),
    d1_databases: images.d1_databases?.map((d) => ({ ...d, migrations_dir: resolve(root, d.migrations_dir ?? 'migrations') })),
    vars: { ...images.vars, ...readDevVars(join(root, '.dev.vars')), ...vars },
  };
  delete config.env;
  mkdirSync(dir, { recursive: true });
  const file = resolve(dir, 'wrangler.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  return ['-c', join(root, 'wrangler.toml'), '-c', file, ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`])];
}
