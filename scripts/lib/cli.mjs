// Small helpers of the operations scripts (provision, deploy, dead-letters): arguments and wrangler runs.
import { spawnSync } from 'node:child_process';

export const ENVIRONMENTS = ['staging', 'production'];

/** `--name value`, `--name=value` and bare `--flag`s; repeated names collect into arrays. */
export function parseArgs(argv) {
  const out = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      out._.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split(/=(.*)/s, 2);
    const value = inline ?? (argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[++i] : true);
    out[name] = name in out ? [].concat(out[name], value) : value;
  }
  return out;
}

/** The environment named by --env, or exit with the usage. */
export function requireEnv(args, usage) {
  if (!ENVIRONMENTS.includes(args.env)) {
    console.error(`--env must be one of ${ENVIRONMENTS.join(', ')}\n\n${usage}`);
    process.exit(2);
  }
  return args.env;
}

/** A command line as a shell would show it (for dry runs and logs). */
export function show(cmd, args) {
  return [cmd, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** Runs a command (inheriting stdio unless `capture`), exits on failure unless `allowFailure`. */
export function run(cmd, args, { capture = false, input, allowFailure = false } = {}) {
  const r = spawnSync(cmd, args, {
    stdio: capture ? ['pipe', 'pipe', 'pipe'] : input === undefined ? 'inherit' : ['pipe', 'inherit', 'inherit'],
    input,
    encoding: 'utf8',
  });
  if (r.status !== 0 && !allowFailure) {
    if (capture) process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    console.error(`\n✗ ${show(cmd, args)} failed (${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
  return r;
}
