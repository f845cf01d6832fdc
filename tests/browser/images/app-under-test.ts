import { startProduct } from '../npm-start';

// Where the image journey runs. ADMIN_URL: the authenticated URL `npm start` printed. APP_BASE: a Worker
// already started by `npm start` (e.g. http://localhost:8797 when 8787 is someone else's run): the test
// buys its own admin token the way start.mjs does (an App Bridge session token from the store emulator).
// Neither: `npm start` is started here (PORT / EMULATOR_PORT as given) and stopped afterwards.
export type AppUnderTest = { base: string; adminUrl: string; emulator: string; stop: () => Promise<void> };

export const DEV_SHOP = 'dev-store.myshopify.com';

export async function appUnderTest(): Promise<AppUnderTest> {
  const emulator = process.env.EMULATOR_URL ?? `http://127.0.0.1:${process.env.EMULATOR_PORT ?? 8788}`;
  if (process.env.ADMIN_URL)
    return {
      base: new URL(process.env.ADMIN_URL).origin,
      adminUrl: process.env.ADMIN_URL,
      emulator,
      stop: async () => undefined,
    };
  if (process.env.APP_BASE) {
    const base = process.env.APP_BASE.replace(/\/+$/, '');
    return {
      base,
      adminUrl: `${base}/main?authToken=${await buyAdminToken(base, emulator)}`,
      emulator,
      stop: async () => undefined,
    };
  }
  const { adminUrl, stop } = await startProduct();
  return { base: new URL(adminUrl).origin, adminUrl, emulator, stop: stop };
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
  const { token } = (await (
    await fetch(`${emulator}/__emulator/shops/${DEV_SHOP}/session-token`, { method: 'POST' })
  ).json()) as { token: string };
  const res = await fetch(`${base}/api/v1/adminToken`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { data?: { authToken?: string }; authToken?: string };
  const authToken = body.data?.authToken ?? body.authToken;
  if (!authToken) throw new Error(`adminToken answered ${res.status} ${JSON.stringify(body)}`);
  return authToken;
}

/**
 * A shop of its own for the journey: a fresh dev-seeded shop in the emulator, installed through the
 * real flow (signed launch -> 301 authorize -> OAuth callback), its catalogue synced, and an admin
 * token for it. The shared dev store keeps whatever other runs left in the local database (and links to
 * an emulator that may since have restarted), so its state cannot be relied on.
 */
export async function freshShop(app: AppUnderTest): Promise<{ shop: string; adminUrl: string }> {
  const created = (await (
    await fetch(`${app.emulator}/__emulator/shops`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ seed: 'dev' }),
    })
  ).json()) as { domain: string };
  const shop = created.domain;
  const launch = (await (await fetch(`${app.emulator}/__emulator/shops/${shop}/launch-url?path=/shopify/app`)).json()) as {
    url: string;
  };
  const onBase = (url: string) => `${app.base}${new URL(url).pathname}${new URL(url).search}`;
  const landing = (await (await fetch(onBase(launch.url))).json()) as { code: number; url: string };
  if (landing.code !== 301) throw new Error(`/shopify/app answered ${JSON.stringify(landing)}`);
  const authorize = await fetch(landing.url, { redirect: 'manual' });
  const callback = authorize.headers.get('location');
  if (!callback) throw new Error(`authorize answered ${authorize.status}`);
  const done = await fetch(onBase(callback), { redirect: 'manual' });
  if (done.status >= 400) throw new Error(`OAuth callback answered ${done.status}: ${(await done.text()).slice(0, 200)}`);
  const { token } = (await (
    await fetch(`${app.emulator}/__emulator/shops/${shop}/session-token`, { method: 'POST' })
  ).json()) as { token: string };
  const res = await fetch(`${app.base}/api/v1/adminToken`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { data?: { authToken?: string }; authToken?: string };
  const authToken = body.data?.authToken ?? body.authToken;
  if (!authToken) throw new Error(`adminToken answered ${res.status} ${JSON.stringify(body)}`);
  // The install-time catalogue sync runs on the queue: wait for it (getImageSyncStatus, as the admin does).
  for (let i = 0; i < 120; i++) {
    const sync = (await (
      await fetch(`${app.base}/api/v1/getImageSyncStatus`, { headers: { Authorization: `Bearer ${authToken}` } })
    ).json()) as { data?: { imageSync?: boolean } };
    if (sync.data?.imageSync) return { shop, adminUrl: `${app.base}/main?authToken=${authToken}` };
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`the catalogue of ${shop} never finished syncing`);
}
