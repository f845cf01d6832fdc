import { spawn, type ChildProcess } from 'node:child_process';

// Where the admin under test runs. ADMIN_URL (the authenticated URL `npm start` prints,
// http://localhost:8787/main?authToken=...) uses a running instance; without it, `npm start` is started
// here (PORT / EMULATOR_PORT as given) and stopped afterwards.
export type AppUnderTest = { base: string; adminUrl: string; authToken: string; emulator: string; stop: () => Promise<void> };

export const DEV_SHOP = 'dev-store.myshopify.com';

export async function appUnderTest(): Promise<AppUnderTest> {
  const emulator = process.env.EMULATOR_URL ?? `http://127.0.0.1:${process.env.EMULATOR_PORT ?? 8788}`;
  if (process.env.ADMIN_URL) return describe(process.env.ADMIN_URL, emulator, async () => undefined);
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
  return describe(adminUrl, emulator, () => stopProcessGroup(child));
}

function describe(adminUrl: string, emulator: string, stop: () => Promise<void>): AppUnderTest {
  const url = new URL(adminUrl);
  return { base: url.origin, adminUrl, authToken: url.searchParams.get('authToken') ?? '', emulator, stop };
}

async function stopProcessGroup(child: ChildProcess) {
  if (child.pid === undefined || child.exitCode !== null) return;
  process.kill(-child.pid, 'SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** The emulator's control API (tests/emulator/README.md). */
export async function control(emulator: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${emulator}/__emulator${path}`, {
    method,
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json().catch(() => null);
}

/** The signed query Shopify's admin adds when it opens the app (same HMAC as the emulator's launch URL). */
export async function signedLaunchQuery(emulator: string): Promise<string> {
  const answer = (await control(emulator, 'GET', `/shops/${DEV_SHOP}/launch-url?path=/auth/install`)) as { url?: string } | string;
  const url = typeof answer === 'string' ? answer : (answer?.url ?? '');
  return new URL(url).search;
}
