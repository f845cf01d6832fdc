// `shopify app dev` runs shopify.web.toml's commands the way Shopify CLI does, reproduced here from its
// source (Shopify/cli a0798d1, packages/app/src/cli/services/dev/processes/web.ts `runCommands`):
//   const commands = command.split('&&').map((cmd) => cmd.trim())
//   for (const command of commands) { const [cmd, ...args] = command.split(' '); if (cmd?.length === 0) continue
//     await exec(cmd, args, { env: { ...env, PORT, SERVER_PORT } }) }
// where exec is cli-kit's execa call without a shell (packages/cli-kit/src/public/node/system.ts): no
// quotes, no variables, no `sh -c '...'`. `predev` runs the same way before `dev`.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getFileInfo } from 'prettier';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const web = parse(readFileSync(join(ROOT, 'shopify.web.toml'), 'utf8')) as { commands: Record<string, string> };

/** Shopify CLI's split of a web command into the processes it starts. */
function cliSplit(command: string): { cmd: string; args: string[] }[] {
  return command
    .split('&&')
    .map((c) => c.trim())
    .map((c) => {
      const [cmd = '', ...args] = c.split(' ');
      return { cmd, args };
    })
    .filter((p) => p.cmd.length > 0);
}

/** The environment the CLI gives the dev command (launchWebProcess), with a made-up tunnel and app. */
const CLI_ENV = {
  SHOPIFY_API_KEY: 'cli-api-key',
  SHOPIFY_API_SECRET: 'cli-api-secret',
  HOST: 'https://made-up-tunnel.trycloudflare.com',
  APP_URL: 'https://made-up-tunnel.trycloudflare.com',
  NODE_ENV: 'development',
  PORT: '45123',
  SERVER_PORT: '45123',
};

describe('shopify.web.toml under Shopify CLI’s split', () => {
  it.each(['predev', 'dev', 'build'])(
    '%s splits into plain commands: no quotes, no shell variables, no empty arguments',
    (name) => {
      const parts = cliSplit(web.commands[name]!);
      expect(parts.length).toBeGreaterThan(0);
      for (const { cmd, args } of parts) {
        expect(['npm', 'npx', 'node']).toContain(cmd);
        for (const arg of [cmd, ...args]) expect(arg).toMatch(/^[\w@:./=-]+$/);
      }
    },
  );

  it('the dev command, run as the CLI runs it, starts both Workers on the CLI’s port with its tunnel, key and secret', () => {
    const [dev] = cliSplit(web.commands.dev!);
    const r = spawnSync(dev!.cmd, dev!.args, {
      cwd: ROOT,
      shell: false,
      encoding: 'utf8',
      env: { ...process.env, ...CLI_ENV, SHOPIFY_DEV_PRINT: '1' },
    });
    expect(r.status, r.stderr).toBe(0);
    const command = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as string[];
    const next = (flag: string) => command.slice(command.indexOf(flag) + 1);
    expect(command.slice(0, 3)).toEqual(['npx', 'wrangler', 'dev']);
    expect(next('--port')[0]).toBe('45123');
    expect(next('-c')[0]).toMatch(/wrangler\.toml$/);
    expect(command.filter((a) => a === '-c')).toHaveLength(2);
    const vars = command.flatMap((a, i) => (command[i - 1] === '--var' ? [a] : []));
    expect(vars).toEqual(
      expect.arrayContaining([
        'APP_URL:https://made-up-tunnel.trycloudflare.com',
        'SHOPIFY_API_KEY:cli-api-key',
        'SHOPIFY_API_SECRET:cli-api-secret',
        'SHOPIFY_ORIGIN:',
      ]),
    );
  });

  it('the former sh -c command broke under the split (what the CLI reported)', () => {
    const former = 'sh -c \'npx wrangler dev --port "$PORT" --ip 127.0.0.1 --var APP_URL:"$HOST" --var SHOPIFY_ORIGIN:\'';
    const [part] = cliSplit(former);
    expect(part!.args.slice(0, 2)).toEqual(['-c', "'npx"]); // sh -c "'npx" ...
    const r = spawnSync(part!.cmd, part!.args, { encoding: 'utf8', env: { ...process.env, ...CLI_ENV } });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/Unterminated quoted string/);
  });
});

describe('what Shopify CLI writes', () => {
  it('.shopify/project.json (git-ignored by the CLI’s own .shopify/.gitignore) is skipped by the format check', async () => {
    const info = await getFileInfo(join(ROOT, '.shopify/project.json'), {
      ignorePath: [join(ROOT, '.gitignore'), join(ROOT, '.prettierignore')],
    });
    expect(info.ignored).toBe(true);
  });
});
