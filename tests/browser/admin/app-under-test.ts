import { inject } from 'vitest';

// Where the admin under test runs: the product global-setup.ts started for this run (or the running one
// ADMIN_URL names, the authenticated URL `npm start` prints). Each scenario file then installs its own new
// shop (emulator control API + the real install and OAuth flow), so it starts at the wizard and no other
// file, run or person using the dev store changes its state or rotates its token.
export type AppUnderTest = {
  base: string;
  adminUrl: string;
  authToken: string;
  emulator: string;
  shop: string;
  /** Nothing to stop per file: global-setup.ts stops the product after the last file. */
  stop: () => Promise<void>;
};

export async function appUnderTest(): Promise<AppUnderTest> {
  const emulator = process.env.EMULATOR_URL ?? `http://127.0.0.1:${process.env.EMULATOR_PORT ?? 8788}`;
  return installOwnShop(new URL(inject('adminUrl')).origin, emulator, async () => undefined);
}

async function installOwnShop(base: string, emulator: string, stop: () => Promise<void>): Promise<AppUnderTest> {
  const { domain: shop } = (await control(emulator, 'POST', '/shops', { seed: 'dev' })) as { domain: string };
  // Shopify's admin opens the app with a signed query; a new shop is sent to authorise (301).
  const launch = (await control(emulator, 'GET', `/shops/${shop}/launch-url?path=/shopify/app`)) as { url: string };
  const landing = (await (await fetch(`${base}/shopify/app${new URL(launch.url).search}`)).json()) as {
    code: number;
    url: string;
  };
  if (landing.code === 301) {
    const authorize = await fetch(landing.url, { redirect: 'manual' });
    const callback = authorize.headers.get('location');
    if (!callback) throw new Error(`authorize answered ${authorize.status}`);
    const done = await fetch(callback, { redirect: 'manual' });
    if (done.status >= 400) throw new Error(`OAuth callback answered ${done.status}`);
  }
  // The admin token is bought with an App Bridge session token, as the embedded admin would.
  // A few tries: right after the install the local D1 file can still be busy with the callback's writes.
  let authToken: string | undefined;
  let status = 0;
  for (let attempt = 0; attempt < 5 && !authToken; attempt++) {
    if (attempt) await new Promise((r) => setTimeout(r, 1000));
    const { token } = (await control(emulator, 'POST', `/shops/${shop}/session-token`)) as { token: string };
    const res = await fetch(`${base}/api/v1/adminToken`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    status = res.status;
    authToken = ((await res.json().catch(() => ({}))) as { data?: { authToken?: string } }).data?.authToken;
  }
  if (!authToken) throw new Error(`adminToken answered ${status}`);
  return { base, adminUrl: `${base}/main?authToken=${authToken}`, authToken, emulator, shop, stop };
}

/** The emulator's control API (emulator/README.md). */
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
export async function signedLaunchQuery(emulator: string, shop: string): Promise<string> {
  const answer = (await control(emulator, 'GET', `/shops/${shop}/launch-url?path=/auth/install`)) as { url?: string } | string;
  const url = typeof answer === 'string' ? answer : (answer?.url ?? '');
  return new URL(url).search;
}
