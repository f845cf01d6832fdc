import { spawn, type ChildProcess } from 'node:child_process';

// Where the image journey runs. ADMIN_URL: the authenticated URL `npm start` printed. APP_BASE: a Worker
// already started by `npm start` (e.g. http://localhost:8797 when 8787 is someone else's run): the test
// buys its own admin token the way start.mjs does (an App Bridge session token from the store emulator).
// Neither: `npm start` is started here (PORT / EMULATOR_PORT as given) and stopped afterwards.
export type AppUnderTest = { base: string; adminUrl: string; emulator: string; stop: () => Promise<void> };

export const DEV_SHOP = 'dev-store.myshopify.com';

export async function appUnderTest(): Promise<AppUnderTest> {
  const emulator = process.env.EMULATOR_URL ?? `http://127.0.0.1:${process.env.EMULATOR_PORT ?? 8788}`;
  if (process.env.ADMIN_URL) return { base: new URL(process.env.ADMIN_URL).origin, adminUrl: process.env.ADMIN_URL, emulator, stop: async () => undefined };
  if (process.env.APP_BASE) {
    const base = process.env.APP_BASE.replace(/\/+$/, '');
    return { base, adminUrl: `${base}/main?authToken=${await buyAdminToken(base, emulator)}`, emulator, stop: async () => undefined };
  }
  const child = spawn('npm', ['start'], { env: process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const adminUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`npm start printed no admin URL:\n${out.slice(-2000)}`)), 200_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Admin:\s+(http\S+authToken=\S+)/.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`npm start exited (${code}):\n${out.slice(-2000)}`)));
  });
  return { base: new URL(adminUrl).origin, adminUrl, emulator, stop: () => stopGroup(child) };
}

/** Two local Workers share one local D1 here, so a write can meet a busy database: three tries. */
async function buyAdminToken(base: string, emulator: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await buyOnce(base, emulator);
    } catch (e) {
      if (attempt >= 3) throw e;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

async function buyOnce(base: string, emulator: string): Promise<string> {
  const { token } = (await (await fetch(`${emulator}/__emulator/shops/${DEV_SHOP}/session-token`, { method: 'POST' })).json()) as { token: string };
  const res = await fetch(`${base}/api/v1/adminToken`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { data?: { authToken?: string }; authToken?: string };
  const authToken = body.data?.authToken ?? body.authToken;
  if (!authToken) throw new Error(`adminToken answered ${res.status} ${JSON.stringify(body)}`);
  return authToken;
}

async function stopGroup(child: ChildProcess) {
  if (child.pid === undefined || child.exitCode !== null) return;
  process.kill(-child.pid, 'SIGTERM');
  await new Promise((r) => child.once('exit', r));
}
