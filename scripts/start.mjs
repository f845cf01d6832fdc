// `npm start`: the whole product locally, with no network and no Cloudflare account.
// Builds the admin, applies the D1 migrations to the local database, then runs the Worker with
// local D1/R2/Queues (wrangler dev, state kept in .wrangler/state) and prints the URL to open.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';

const PORT = Number(process.env.PORT ?? 8787);
const children = [];

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', shell: false });
  if (r.status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(' ')} failed`);
    process.exit(r.status ?? 1);
  }
}

function start(name, cmd, args, env = {}) {
  const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code) => {
    console.error(`\n${name} exited (${code}); stopping.`);
    stopAll(code ?? 1);
  });
  children.push(child);
  return child;
}

function stopAll(code = 0) {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  process.exit(code);
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

if (!existsSync('.dev.vars')) {
  copyFileSync('.dev.vars.example', '.dev.vars');
  console.log('Created .dev.vars from .dev.vars.example (local values only).');
}

run('npx', ['vite', 'build', '--config', 'admin/vite.config.ts', '--logLevel', 'warn']);
run('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local']);

start('wrangler dev', 'npx', ['wrangler', 'dev', '--port', String(PORT), '--ip', '127.0.0.1', '--show-interactive-dev-session=false']);

// Tell the user where to go once the Worker answers.
const base = `http://localhost:${PORT}`;
for (let i = 0; i < 120; i++) {
  await new Promise((r) => setTimeout(r, 500));
  const ok = await fetch(`${base}/api/health`).then((r) => r.ok).catch(() => false);
  if (ok) {
    console.log(`\n  ✓ The app is running.\n    Admin:  ${base}/main\n    Health: ${base}/api/health\n`);
    break;
  }
}
