// What an environment (staging, production) consists of, read from the configuration files: the Workers
// (wrangler.toml, wrangler.images.toml), their D1 database, R2 bucket, queues and dead-letter queues, and
// the secrets (the .dev.vars.example keys that are not [vars]). Used by `npm run provision` and
// `npm run deploy`, and held by tests/config/environments.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';

export const WORKER_CONFIGS = ['wrangler.toml', 'wrangler.images.toml'];
export const LIFECYCLE_FILE = 'config/r2-lifecycle.json';
export const PLACEHOLDER_D1_ID = '00000000-0000-0000-0000-000000000000';

const readToml = (root, file) => parse(readFileSync(join(root, file), 'utf8'));

/** The resources of one environment. */
export function environmentResources(env, root = process.cwd()) {
  const configs = WORKER_CONFIGS.map((file) => {
    const section = readToml(root, file).env?.[env];
    if (!section) throw new Error(`${file} has no [env.${env}]`);
    return { file, section };
  });
  const queues = new Set();
  const d1 = new Map();
  const buckets = new Set();
  for (const { section } of configs) {
    for (const p of section.queues?.producers ?? []) queues.add(p.queue);
    for (const c of section.queues?.consumers ?? []) {
      queues.add(c.queue);
      if (c.dead_letter_queue) queues.add(c.dead_letter_queue);
    }
    for (const d of section.d1_databases ?? []) d1.set(d.database_name, d.database_id);
    for (const b of section.r2_buckets ?? []) buckets.add(b.bucket_name);
  }
  if (d1.size !== 1 || buckets.size !== 1)
    throw new Error(`[env.${env}] must name one D1 database and one bucket in every Worker`);
  const [[databaseName, databaseId]] = [...d1];
  return {
    env,
    workers: configs.map(({ file, section }) => ({ config: file, name: section.name })),
    d1: { name: databaseName, id: databaseId },
    bucket: [...buckets][0],
    queues: [...queues].sort(),
    secrets: secretNames(root),
    appUrl: configs[0].section.vars?.APP_URL,
  };
}

/** Secrets: the variables of .dev.vars.example that wrangler.toml's [vars] does not carry. */
export function secretNames(root = process.cwd()) {
  const vars = readToml(root, 'wrangler.toml').vars ?? {};
  return readFileSync(join(root, '.dev.vars.example'), 'utf8')
    .split('\n')
    .map((l) => /^([A-Z0-9_]+)=/.exec(l)?.[1])
    .filter((k) => k && !(k in vars));
}

/** `text` (a wrangler config) with the database_id of [env.<env>]'s D1 database set to `id`. */
export function withDatabaseId(text, env, id) {
  const header = `[[env.${env}.d1_databases]]`;
  const at = text.indexOf(header);
  if (at < 0) throw new Error(`no ${header}`);
  const re = /database_id = "[^"]*"/;
  const rest = text.slice(at);
  if (!re.test(rest.split(/\n\[/)[0])) throw new Error(`no database_id under ${header}`);
  return text.slice(0, at) + rest.replace(re, `database_id = "${id}"`);
}
