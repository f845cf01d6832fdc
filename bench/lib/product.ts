// The whole product (`npm start`: Worker, local D1/R2/Queues, admin, emulator) started for a benchmark on
// the ports given, in its own process group so that stopping it stops the emulator, wrangler and workerd.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../scripts/lib/free-port';

export type StartedProduct = { child: ChildProcess; base: string; token: string };

/** Starts scripts/start.mjs; resolves with the base URL and admin token it prints. */
export function startProduct(opts: {
  port: number;
  emulatorPort: number;
  /** WRANGLER_STATE: a fresh local D1/R2 directory, else start.mjs's default. */
  state?: string;
  timeoutMs?: number;
}): Promise<StartedProduct> {
  const timeoutMs = opts.timeoutMs ?? 300_000;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      env: {
        ...process.env,
        PORT: String(opts.port),
        EMULATOR_PORT: String(opts.emulatorPort),
        ...(opts.state ? { WRANGLER_STATE: opts.state } : {}),
      },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`npm start did not come up within ${timeoutMs / 1000} s:\n${out.slice(-2000)}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Admin:\s+(http:\/\/\S+)\/main\?authToken=(\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: m[1]!, token: m[2]! });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}):\n${out.slice(-2000)}`));
    });
  });
}

export function stopProduct(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGTERM'); // the group: start.mjs, the emulator, wrangler and workerd
  } catch {
    /* already gone */
  }
}

/**
 * The product a browser benchmark runs against: the one given (`--base` and `--token`, e.g. a running
 * `npm start`), or a fresh one on free ports with its own local state; `stop` ends and removes the latter.
 */
export async function productFor(
  name: string,
  given: { base?: string; token?: string },
): Promise<{ base: string; token: string; stop: () => void }> {
  if (given.base && given.token) return { base: given.base, token: given.token, stop: () => {} };
  const port = await freePort();
  const emulatorPort = await freePort();
  const state = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  console.log(`bench:${name}: starting the product (Worker :${port}, emulator :${emulatorPort})...`);
  const started = await startProduct({ port, emulatorPort, state });
  return {
    base: started.base,
    token: started.token,
    stop: () => {
      stopProduct(started.child);
      rmSync(state, { recursive: true, force: true });
    },
  };
}

/**
 * The sample shop's settings saved once (the wizard's own call), as for a merchant past the first-run wizard:
 * a manual job can start, and /main and /setting open themselves rather than the wizard or the image page.
 */
export async function finishWizard(base: string, token: string): Promise<void> {
  const auth = { Authorization: `Bearer ${token}` };
  const read = (await (await fetch(`${base}/api/v2/image-opt/getSettings`, { headers: auth })).json()) as { data: unknown };
  const res = await fetch(`${base}/api/v1/saveNewGuideCfg`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ page5: { day_backup: 1 }, settings: read.data }),
  });
  if (!res.ok) throw new Error(`saveNewGuideCfg answered ${res.status}`);
}

/**
 * A history item of the sample shop, optimised if there is none yet (one product of the manual list, the
 * merchant's "Optimize" on it): the details screen opens it by its address
 * (`/image_optimisation_details?item=<id>`), as a reload or a shared link does. Its id.
 */
export async function optimisedItem(base: string, token: string, timeoutMs = 180_000): Promise<number> {
  const auth = { Authorization: `Bearer ${token}` };
  type Rows = { data?: { data?: { id: number; opt_status: number }[] } };
  const rows = async (pageType: 0 | 1) =>
    (
      (await (
        await fetch(`${base}/api/v2/image-opt/getImageOptDataPage?page=1&pageSize=10&data_type=1&page_type=${pageType}`, {
          headers: auth,
        })
      ).json()) as Rows
    ).data?.data ?? [];
  const done = async () => (await rows(0)).find((r) => r.opt_status === 2)?.id;
  const existing = await done();
  if (existing !== undefined) return existing;
  const candidate = (await rows(1))[0];
  if (!candidate) throw new Error('the sample shop has no product to optimise');
  const res = await fetch(`${base}/api/v2/image-opt/reOptimize`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ data_type: 1, data_list: [{ data_id: candidate.id }], re_opt_type: '', page_type: 1 }),
  });
  if (!res.ok) throw new Error(`reOptimize answered ${res.status}`);
  for (const end = Date.now() + timeoutMs; Date.now() < end; await new Promise((r) => setTimeout(r, 1000))) {
    const id = await done();
    if (id !== undefined) return id;
  }
  throw new Error('the sample item was not optimised in time');
}
