// `npm run bench:pipeline [-- --products N --restore-rate 100 --keep]`
// End-to-end throughput of the optimisation pipeline for one shop: the real Worker (wrangler dev with
// local D1/R2/Queues) against the Shopify store emulator at its default 100 points/s. It installs a
// fresh seeded store through token exchange, waits for the catalogue sync, starts a manual optimisation
// of every product image, and times it to the last image. GraphQL cost is read from every response's
// extensions.cost (a wrapper around the emulator's handler), which gives the points one image costs and
// so the rate limit's theoretical ceiling: restoreRate / points per image.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { SignJWT } from 'jose';
import { defaultImageSettings } from '../shared/image-settings';
import { APP_HANDLE, buildApp, DEFAULT_SCOPES, readDevVars } from '../emulator/server';
import { createEmulator } from '../emulator/store/registry';
import { createShop } from '../emulator/store/seed';
import { devWorkerArgs } from '../scripts/lib/dev-workers.mjs';
import { freePort } from '../scripts/lib/free-port';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const RESTORE_RATE = Number(arg('restore-rate', '100'));
const KEEP = args.includes('--keep');
/** Override of image-optimise's max_batch_size in the snapshot (what-if; the committed value stays). */
const BATCH = arg('batch', '');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- the emulator, with a cost meter around its fetch handler ----
const vars = { ...readDevVars('.dev.vars.example'), ...readDevVars('.dev.vars') };
const apiKey = vars.SHOPIFY_API_KEY ?? 'local-dev-api-key';
const apiSecret = vars.SHOPIFY_API_SECRET ?? 'local-dev-api-secret-change-me-0123456789';
const workerPort = await freePort();
const emuPort = await freePort();
const appUrl = `http://127.0.0.1:${workerPort}`;
const emuOrigin = `http://127.0.0.1:${emuPort}`;
const emu = createEmulator(emuOrigin, {
  apiKey,
  apiSecret,
  appUrl,
  handle: APP_HANDLE,
  scopes: DEFAULT_SCOPES.split(','),
});
const app = buildApp(emu);

type Meter = { on: boolean; points: number; calls: Map<string, { n: number; points: number }> };
const meter: Meter = { on: false, points: 0, calls: new Map() };
const server = serve({
  port: emuPort,
  hostname: '127.0.0.1',
  fetch: async (req: Request) => {
    const isGraphql = req.method === 'POST' && req.url.includes('/graphql.json');
    const query = isGraphql && meter.on ? (((await req.clone().json()) as { query?: string }).query ?? '') : '';
    const res = await app.fetch(req);
    if (isGraphql && meter.on && res.ok) {
      const body = (await res.clone().json()) as {
        extensions?: { cost?: { actualQueryCost?: number; requestedQueryCost?: number } };
      };
      const cost = body.extensions?.cost?.actualQueryCost ?? body.extensions?.cost?.requestedQueryCost ?? 0;
      const op = /(query|mutation)\s+(\w+)/.exec(query)?.[2] ?? 'anonymous';
      const entry = meter.calls.get(op) ?? { n: 0, points: 0 };
      entry.n += 1;
      entry.points += cost;
      meter.calls.set(op, entry);
      meter.points += cost;
    }
    return res;
  },
});

const domain = `bench-${Date.now().toString(36)}.myshopify.com`;
const shop = createShop(emu, { domain, seed: 'dev' });
shop.settings.restoreRate = RESTORE_RATE;
shop.settings.webhookUrl = ''; // our own fileUpdate webhooks are not part of this measurement

// ---- the Worker: wrangler dev on a snapshot of the sources and a fresh local state ----
// wrangler dev reloads the Worker whenever a watched file changes, and a reload drops the local queue's
// in-flight messages; on a shared checkout that would stall the run. A copy nobody edits avoids it.
const snapshot = mkdtempSync(join(tmpdir(), 'bench-pipeline-src-'));
for (const entry of [
  'worker',
  'shared',
  'config',
  'storefront-script',
  'migrations',
  'wrangler.toml',
  'wrangler.images.toml',
  'scripts',
  'package.json',
  'tsconfig.json',
  '.dev.vars',
]) {
  if (existsSync(entry)) cpSync(entry, join(snapshot, entry), { recursive: true });
}
symlinkSync(resolve('node_modules'), join(snapshot, 'node_modules'), 'dir');
if (BATCH) {
  const toml = join(snapshot, 'wrangler.images.toml');
  const text = readFileSync(toml, 'utf8').replace(/(queue = "image-optimise"\nmax_batch_size = )\d+/, `$1${Number(BATCH)}`);
  writeFileSync(toml, text);
}
mkdirSync(join(snapshot, 'dist/admin'), { recursive: true });
const persist = join(snapshot, '.state');
const children: ChildProcess[] = [];
function cleanup() {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  server.close();
  if (!KEEP) rmSync(snapshot, { recursive: true, force: true });
}
process.on('SIGINT', () => (cleanup(), process.exit(130)));

const migrate = spawnSync('npx', ['wrangler', 'd1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist], {
  encoding: 'utf8',
  cwd: snapshot,
});
if (migrate.status !== 0) throw new Error(`migrations failed: ${migrate.stderr}`);
// Both Workers, as `npm start` runs them: the HTTP Worker and the image consumer (scripts/lib/dev-workers.mjs).
const wrangler = spawn(
  'npx',
  [
    'wrangler',
    'dev',
    ...devWorkerArgs({
      root: snapshot,
      dir: join(snapshot, '.image-worker'),
      vars: { SHOPIFY_ORIGIN: emuOrigin, APP_URL: appUrl, PAGESPEED_ORIGIN: emuOrigin },
    }),
    '--port',
    String(workerPort),
    '--ip',
    '127.0.0.1',
    '--persist-to',
    persist,
    '--show-interactive-dev-session=false',
  ],
  { stdio: ['ignore', 'pipe', 'pipe'], cwd: snapshot },
);
children.push(wrangler);
let workerLog = '';
wrangler.stdout?.on('data', (d) => (workerLog += d));
wrangler.stderr?.on('data', (d) => (workerLog += d));

try {
  for (let i = 0; ; i++) {
    if (
      await fetch(`${appUrl}/api/health`, { signal: AbortSignal.timeout(3000) })
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    if (i > 240) throw new Error(`worker did not start:\n${workerLog.slice(-2000)}`);
    await sleep(500);
  }

  const now = Math.floor(Date.now() / 1000);
  const sessionToken = () =>
    new SignJWT({ iss: `https://${domain}/admin`, dest: `https://${domain}`, sid: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setAudience(apiKey)
      .setSubject('1')
      .setIssuedAt(now)
      .setNotBefore(now - 5)
      .setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode(apiSecret));
  const token = await sessionToken();
  const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(`${appUrl}${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) },
    });
    return (await res.json()) as T;
  };

  // Install (token exchange on the first call) and catalogue sync.
  await api('/api/v2/image-opt/getSettings');
  let synced = 0;
  for (let i = 0; ; i++) {
    const s = await api<{ data: { imageSync: boolean; imageCount: number } }>('/api/v1/getImageSyncStatus');
    if (s.data?.imageSync) {
      synced = s.data.imageCount;
      break;
    }
    if (i > 240) throw new Error('catalogue sync did not finish');
    await sleep(500);
  }
  const settings = { ...defaultImageSettings(), is_default: 0 };
  const saved = await api<{ ack: number; message: string }>('/api/v2/image-opt/saveSettings', {
    method: 'POST',
    body: JSON.stringify(settings),
  });
  if (saved.ack !== 1) throw new Error(`saveSettings: ${saved.message}`);

  // The measured run: every product image, manual optimisation (reOptimize page_type 1, whole tab).
  meter.on = true;
  const started = Date.now();
  const start = await api<{ ack: number; message: string; data?: { total: number } }>('/api/v2/image-opt/reOptimize', {
    method: 'POST',
    body: JSON.stringify({ data_type: 1, data_list: [], re_opt_type: 'all', page_type: 1 }),
  });
  if (start.ack !== 1) throw new Error(`reOptimize: ${start.message}`);
  type Sched = { process_result: number; opt_in: number; opt_total: number; status: string };
  let sched: Sched;
  let lastLeft = -1;
  let lastMove = Date.now();
  for (;;) {
    sched = (await api<{ data: Sched }>('/api/v2/image-opt/getOptSchedule?data_type=1')).data;
    if (sched.process_result === 1) break;
    if (sched.opt_in !== lastLeft) [lastLeft, lastMove] = [sched.opt_in, Date.now()];
    // Retries back off up to 160 s; five minutes without progress means the run is stuck.
    if (Date.now() - lastMove > 300_000)
      throw new Error(`no progress for 5 minutes (${sched.opt_in} of ${sched.opt_total} waiting)\n${workerLog.slice(-3000)}`);
    await sleep(250);
  }
  const elapsedS = (Date.now() - started) / 1000;
  meter.on = false;

  const total = start.data?.total ?? sched.opt_total;
  const history = await api<{ data: { data: { status: string }[] } }>(
    '/api/v2/image-opt/getImageOptDataPage?page=1&pageSize=100&data_type=1&page_type=0',
  );
  const perImagePoints = meter.points / Math.max(1, total);
  const perMinute = (total / elapsedS) * 60;
  const ceiling = perImagePoints > 0 ? (RESTORE_RATE / perImagePoints) * 60 : Infinity;
  const files = [...shop.files.values()];

  console.log(
    `\nPipeline throughput, one shop, emulator at ${RESTORE_RATE} points/s (bucket ${shop.settings.maximumAvailable}), image-optimise max_batch_size ${BATCH || 'as in wrangler.images.toml'}`,
  );
  console.log(`  catalogue: ${synced} images synced; job: ${total} product images, job status ${sched.status}`);
  console.log(`  elapsed:   ${elapsedS.toFixed(1)} s  ->  ${perMinute.toFixed(1)} images/min`);
  console.log(
    `  GraphQL:   ${meter.points.toFixed(0)} points in ${[...meter.calls.values()].reduce((n, c) => n + c.n, 0)} calls, ${perImagePoints.toFixed(1)} points per image`,
  );
  for (const [op, c] of [...meter.calls.entries()].sort((a, b) => b[1].points - a[1].points)) {
    console.log(
      `             ${op.padEnd(28)} ${String(c.n).padStart(5)} calls ${c.points.toFixed(0).padStart(7)} points  (${(c.points / Math.max(1, c.n)).toFixed(1)} each)`,
    );
  }
  console.log(
    `  ceiling:   ${RESTORE_RATE} / ${perImagePoints.toFixed(1)} points per image = ${ceiling.toFixed(1)} images/min by the rate limit`,
  );
  console.log(`  achieved:  ${((perMinute / ceiling) * 100).toFixed(1)} % of that ceiling (target 80 %)`);
  console.log(
    `  emulator:  ${shop.stats.throttled} THROTTLED answers, ${files.filter((f) => f.status === 'READY').length} files READY`,
  );
  console.log(`  history:   ${history.data?.data?.length ?? 0} rows on page 1`);

  // Where an image's time goes, from the Worker's per-image log lines.
  const events = workerLog
    .split('\n')
    .map((l) => l.slice(l.indexOf('{')))
    .filter((l) => l.startsWith('{') && l.includes('"event":"image_'))
    .map((l) => {
      try {
        return JSON.parse(l) as { event: string; ms?: number; fetchMs?: number; engineMs?: number; shopifyMs?: number };
      } catch {
        return null;
      }
    })
    .filter((e): e is NonNullable<typeof e> => e !== null);
  const done = events.filter((e) => e.event === 'image_done');
  const avg = (k: 'ms' | 'fetchMs' | 'engineMs' | 'shopifyMs') =>
    done.reduce((n, e) => n + (e[k] ?? 0), 0) / Math.max(1, done.length);
  const busyMs = done.reduce((n, e) => n + (e.ms ?? 0), 0);
  console.log(
    `  per image: ${avg('ms').toFixed(0)} ms (CDN fetch ${avg('fetchMs').toFixed(0)}, codec ${avg('engineMs').toFixed(0)}, Shopify upload+READY ${avg('shopifyMs').toFixed(0)});`,
  );
  console.log(
    `             mean concurrency ${(busyMs / 1000 / elapsedS).toFixed(2)}; retries ${events.filter((e) => e.event === 'image_retry').length}; CPU cores ${(await import('node:os')).cpus().length}`,
  );
} finally {
  cleanup();
}
// stdout to a pipe is asynchronous in Node: exit only once the report is flushed.
process.stdout.write('\n', () => process.exit(0));
