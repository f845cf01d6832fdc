// `npm run provision` and `npm run deploy` for real, against a stand-in for wrangler: a fake `npx` (and
// `npm`) first on PATH answers as wrangler would for an account where one queue already exists and one
// secret is set on one Worker only, and records every call with what it read on stdin. The scripts run
// in a copy of the configuration, so the D1 id they write lands there.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'ops-scripts-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const repo = join(work, 'repo');
mkdirSync(repo);
for (const f of ['wrangler.toml', 'wrangler.images.toml', '.dev.vars.example', 'package.json', 'config', 'scripts'])
  cpSync(join(ROOT, f), join(repo, f), { recursive: true });
symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'), 'dir');

const bin = join(work, 'bin');
mkdirSync(bin);
const log = join(work, 'calls.log');
const D1_ID = '11111111-2222-4333-8444-555555555555';
// One line per call: the arguments, then ` <<< stdin` when something was piped in.
const FAKE = `#!/bin/sh
args="$*"
input=""
case "$args" in *"secret put"*) input=" <<< $(cat)";; esac
echo "$0 $args$input" >> ${JSON.stringify(log)}
case "$args" in
  "wrangler d1 info "*) exit 1;;
  "wrangler d1 create "*) echo '{ "d1_databases": [{ "binding": "DB", "database_name": "x", "database_id": "${D1_ID}" }] }';;
  "wrangler r2 bucket info "*) exit 1;;
  "wrangler queues info image-optimise-staging") echo "exists";;
  "wrangler queues info "*) exit 1;;
  "wrangler secret list -c wrangler.toml "*) echo '[{ "name": "SHOPIFY_API_SECRET", "type": "secret_text" }]';;
  "wrangler secret list "*) echo '[]';;
esac
exit 0
`;
for (const name of ['npx', 'npm']) {
  writeFileSync(join(bin, name), FAKE);
  chmodSync(join(bin, name), 0o755);
}

function script(file: string, args: string[], env: Record<string, string> = {}) {
  writeFileSync(log, '');
  const res = spawnSync(process.execPath, [file, ...args], {
    cwd: repo,
    encoding: 'utf8',
    input: '',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, ...env },
  });
  const calls = readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace(/^\S*\/(npx|npm) /, '$1 '));
  return { ...res, calls };
}

type Config = { d1_databases: { database_id: string }[]; env: Record<string, { d1_databases: { database_id: string }[] }> };
const d1Ids = (file: string) => {
  const c = parse(readFileSync(join(repo, file), 'utf8')) as Config;
  return {
    top: c.d1_databases[0]!.database_id,
    staging: c.env.staging!.d1_databases[0]!.database_id,
    production: c.env.production!.d1_databases[0]!.database_id,
  };
};

describe('npm run provision / deploy against a stand-in wrangler', () => {
  it('deploy refuses an environment that was not provisioned', () => {
    const res = script('scripts/deploy.mjs', ['--env', 'staging']);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('npm run provision -- --env staging');
    expect(res.calls).toEqual([]);
  });

  it('provision creates what is missing, links what exists, writes the D1 id, and puts each secret where it is missing', () => {
    const before = d1Ids('wrangler.toml');
    const res = script('scripts/provision.mjs', ['--env', 'staging'], {
      SHOPIFY_API_SECRET: 'the-app-secret',
      TOKEN_ENCRYPTION_KEY: 'the-encryption-key',
      PAGESPEED_API_KEY: 'the-psi-key',
    });
    expect(res.status, res.stderr).toBe(0);
    expect(res.calls).toContain('npx wrangler d1 create image-speed-app-staging');
    expect(res.calls).toContain('npx wrangler r2 bucket create image-speed-app-files-staging');
    expect(res.calls).toContain(
      'npx wrangler r2 bucket lifecycle set image-speed-app-files-staging --file config/r2-lifecycle.json --force',
    );
    const created = res.calls.filter((c) => c.startsWith('npx wrangler queues create ')).map((c) => c.split(' ').at(-1));
    expect(created).toHaveLength(7);
    expect(created).not.toContain('image-optimise-staging'); // it existed: linked
    for (const file of ['wrangler.toml', 'wrangler.images.toml'])
      expect(d1Ids(file)).toEqual({ top: before.top, staging: D1_ID, production: before.production });
    const puts = res.calls.filter((c) => c.includes('secret put'));
    expect(puts).toEqual([
      'npx wrangler secret put SHOPIFY_API_SECRET -c wrangler.images.toml --env staging <<< the-app-secret',
      'npx wrangler secret put TOKEN_ENCRYPTION_KEY -c wrangler.toml --env staging <<< the-encryption-key',
      'npx wrangler secret put TOKEN_ENCRYPTION_KEY -c wrangler.images.toml --env staging <<< the-encryption-key',
      'npx wrangler secret put PAGESPEED_API_KEY -c wrangler.toml --env staging <<< the-psi-key',
      'npx wrangler secret put PAGESPEED_API_KEY -c wrangler.images.toml --env staging <<< the-psi-key',
    ]);
    expect(res.stdout).toContain('SHOPIFY_API_SECRET is set on image-speed-app-staging only');
  });

  it('deploy then applies the migrations remotely and deploys the image Worker, then the HTTP Worker', () => {
    const res = script('scripts/deploy.mjs', ['--env', 'staging']);
    expect(res.status, res.stderr).toBe(0);
    expect(res.calls.map((c) => c.replace(/ --message .*/, ''))).toEqual([
      'npm run build:admin',
      'npx wrangler d1 migrations apply DB --remote --env staging',
      'npx wrangler deploy -c wrangler.images.toml --env staging',
      'npx wrangler deploy -c wrangler.toml --env staging',
    ]);
  });
});
