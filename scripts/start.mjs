// `npm start`: the whole product locally, with no network and no Cloudflare account.
// Builds the admin, applies the D1 migrations to the local database, then runs the Worker with
// local D1/R2/Queues (wrangler dev, state kept in .wrangler/state) against the Shopify store emulator
// (emulator, port 8788), installs the dev store through the real OAuth flow and prints the admin
// URL, already authenticated.
//
// Every start begins from a fresh dev store: the emulator keeps its store in memory and seeds it anew,
// so the local D1/R2/queue state of an earlier run (which points at that run's files) is cleared too.
import { spawn, spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { devWorkerArgs, readDevVars } from './lib/dev-workers.mjs';

const PORT = Number(process.env.PORT ?? 8787);
const DEV_SHOP = 'dev-store.myshopify.com';
const children = [];

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', shell: false });
  if (r.status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(' ')} failed`);
    process.exit(r.status ?? 1);
  }
}

function start(name, cmd, args, env = {}) {
  // Its own process group, so stopping kills npx and what it started (workerd, tsx), not just npx.
  const child = spawn(cmd, args, { stdio: 'inherit', detached: true, env: { ...process.env, ...env } });
  child.on('exit', (code) => {
    console.error(`\n${name} exited (${code}); stopping.`);
    stopAll(code ?? 1);
  });
  children.push(child);
  return child;
}

function stopAll(code = 0) {
  for (const c of children) {
    if (c.exitCode !== null) continue;
    try {
      process.kill(-c.pid, 'SIGTERM');
    } catch {
      c.kill('SIGTERM');
    }
  }
  process.exit(code);
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

if (!existsSync('.dev.vars')) {
  copyFileSync('.dev.vars.example', '.dev.vars');
  console.log('Created .dev.vars from .dev.vars.example (local values only).');
}

run('npx', ['vite', 'build', '--config', 'admin/vite.config.ts', '--logLevel', 'warn']);
// WRANGLER_STATE: another folder for the local D1/R2/Queues state, so two `npm start`s on other ports
// (PORT / EMULATOR_PORT) do not wipe each other's database.
const STATE = process.env.WRANGLER_STATE || '.wrangler/state';
rmSync(STATE, { recursive: true, force: true });
run('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', STATE]);

// The Shopify store emulator (emulator): .dev.vars points SHOPIFY_ORIGIN and PAGESPEED_ORIGIN at it.
const EMULATOR_PORT = Number(process.env.EMULATOR_PORT ?? 8788);
const emulator = `http://127.0.0.1:${EMULATOR_PORT}`;
const appUrl = `http://localhost:${PORT}`;
// The ports decide the URLs: the emulator redirects OAuth and billing back to the app, the app calls the emulator.
start('store emulator', 'npx', ['tsx', 'emulator/server.ts'], { EMULATOR_PORT: String(EMULATOR_PORT), APP_URL: appUrl });
if (!(await waitFor(`${emulator}/__emulator/health`))) {
  console.error(`\n✗ the store emulator did not answer on ${emulator}`);
  stopAll(1);
}

// Both Workers (scripts/lib/dev-workers.mjs): the HTTP Worker on PORT and the image consumer Worker.
start('wrangler dev', 'npx', [
  'wrangler',
  'dev',
  ...devWorkerArgs({
    dir: join(STATE, 'image-worker'),
    vars: { APP_URL: appUrl, SHOPIFY_ORIGIN: emulator, PAGESPEED_ORIGIN: emulator },
  }),
  '--port',
  String(PORT),
  '--ip',
  '127.0.0.1',
  '--show-interactive-dev-session=false',
  '--persist-to',
  STATE,
]);

// Tell the user where to go once the Worker answers.
const base = `http://localhost:${PORT}`;
if (!(await waitFor(`${base}/api/health`, 120))) {
  console.error(`\n✗ the Worker did not answer on ${base}`);
  stopAll(1);
}
const authToken = await installDevStore().catch((e) => {
  console.error(`\n✗ installing the dev store failed: ${e.message}`);
  return null;
});
console.log(`\n  ✓ The app is running against the store emulator (${emulator}, shop ${DEV_SHOP}).`);
console.log(`    Admin:      ${base}/main${authToken ? `?authToken=${authToken}` : ''}`);
// The same app inside the emulated Shopify admin (session tokens from App Bridge): plan changes, the usage
// limit and overcharge are made there, as in Shopify.
// The emulator knows the app by shopify.app.toml's handle (emulator/server.ts APP_HANDLE), as Shopify does.
const appHandle = parse(readFileSync('shopify.app.toml', 'utf8')).handle;
console.log(`    In the Shopify admin: ${emulator}/store/${DEV_SHOP.split('.')[0]}/apps/${appHandle}`);
console.log(`    Storefront: http://dev-store.localhost:${EMULATOR_PORT}/`);
console.log(`    Health:     ${base}/api/health\n`);

async function waitFor(url, tries = 60) {
  for (let i = 0; i < tries; i++) {
    if (
      await fetch(url)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

/**
 * Installs the dev store the way a merchant does: Shopify's admin opens the app with a signed query,
 * the app answers 301 with the authorize URL, the emulator approves and redirects to the app's OAuth
 * callback, which exchanges the code. Then an App Bridge session token (minted by the emulator, as
 * Shopify's admin would) buys the standalone admin token printed in the URL.
 */
async function installDevStore() {
  const vars = readDevVars();
  const params = {
    host: Buffer.from(`admin.shopify.com/store/${DEV_SHOP.split('.')[0]}`)
      .toString('base64')
      .replace(/=+$/, ''),
    locale: 'en',
    session: randomBytes(16).toString('hex'),
    shop: DEV_SHOP,
    timestamp: String(Math.floor(Date.now() / 1000)),
  };
  const message = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
  const hmac = createHmac('sha256', vars.SHOPIFY_API_SECRET).update(message).digest('hex');
  const landing = await (await fetch(`${base}/shopify/app?${new URLSearchParams({ ...params, hmac })}`)).json();
  if (landing.code === 301) {
    const authorize = await fetch(landing.url, { redirect: 'manual' });
    const callback = authorize.headers.get('location');
    if (!callback) throw new Error(`authorize answered ${authorize.status}`);
    const done = await fetch(callback, { redirect: 'manual' });
    if (done.status >= 400) throw new Error(`OAuth callback answered ${done.status}: ${(await done.text()).slice(0, 200)}`);
  } else if (landing.code !== 302) throw new Error(`/shopify/app answered ${JSON.stringify(landing)}`);

  const { token } = await (await fetch(`${emulator}/__emulator/shops/${DEV_SHOP}/session-token`, { method: 'POST' })).json();
  const res = await fetch(`${base}/api/v1/adminToken`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  const body = await res.json().catch(() => ({}));
  const authToken = body?.data?.authToken ?? body?.authToken;
  if (res.ok && typeof authToken === 'string') return authToken;
  throw new Error(`POST /api/v1/adminToken answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
}
