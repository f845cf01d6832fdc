// What the issue 23 scenario files (first-run.test.ts, languages.test.ts) share: Chromium, a merchant's tab
// on the standalone admin (the admin token from `npm start`'s link), screenshots, and the admin API.
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { AppUnderTest } from './app-under-test';

export const SHOTS = 'tests/browser/admin/screenshots';

export async function launchChromium(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/**
 * A new tab opened from the admin link (a new browser session: the first launch of this tab), Shopify's
 * CDN and outside sites unreachable; resolves once the admin has kept the token (it left the address bar).
 */
export async function merchantTab(browser: Browser, app: AppUnderTest, width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.route('https://cdn.shopify.com/**', (route) => route.abort());
  await page.route(/youtube|apps\.shopify\.com/, (route) => route.abort());
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(app.adminUrl);
  await page.waitForURL((url) => /^\/(main|guidance)$/.test(url.pathname) && !url.searchParams.has('authToken'), {
    timeout: 30_000,
  });
  return page;
}

export const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

/** Runs `body` on the tab; on failure the page is kept as failed-<name>.png. */
export async function keepOnFailure(page: Page, name: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (e) {
    await shot(page, `failed-${name}`).catch(() => undefined);
    throw e;
  } finally {
    await page.close();
  }
}

export type Json = Record<string, unknown> & { ack?: number; code?: string; data?: unknown };

/** One admin API call with the shop's admin token (JSON body), as the standalone admin makes it. */
export async function api(app: AppUnderTest, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${app.base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Authorization: `Bearer ${app.authToken}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Json;
}

/** Polls `read` every 500 ms until `done` holds (the product's queues work in the background). */
export async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The catalogue is synced, the wizard's settings saved through the API, and one product optimised. */
export async function optimiseOneProduct(app: AppUnderTest): Promise<string> {
  await until(
    () => api(app, '/api/v1/getImageSyncStatus').then((b) => (b.data as { imageSync?: boolean }).imageSync),
    (synced) => synced === true,
    90_000,
    'the catalogue sync',
  );
  const wizard = await api(app, '/api/v1/saveNewGuideCfg', {
    page5: { day_backup: 1 },
    settings: {
      image_opt: { product: 1, collection: 0, blogs: 0, pngtojpg: 0 },
      alt_text: { switch: 0, product: 0, collection: 0, blogs: 0, product_rule: '', collection_rule: '', blogs_rule: '' },
      file_name: { switch: 0, product: 0, collection: 0, blogs: 0, product_rule: '', collection_rule: '', blogs_rule: '' },
      auto_switch: 0,
      is_default: 0,
    },
  });
  if (wizard.ack !== 1) throw new Error(`saveNewGuideCfg: ${JSON.stringify(wizard)}`);
  const manual = await api(app, '/api/v2/image-opt/getImageOptDataPage?page_type=1&data_type=1');
  const item = (manual.data as { data: { id: number; title: string }[] }).data[0];
  if (!item) throw new Error('no product to optimise');
  const started = await api(app, '/api/v2/image-opt/reOptimize', {
    data_type: 1,
    data_list: [{ data_id: item.id }],
    re_opt_type: '',
    page_type: 1,
  });
  if (started.ack !== 1) throw new Error(`reOptimize: ${JSON.stringify(started)}`);
  await until(
    () =>
      api(app, '/api/v2/image-opt/getOptSchedule?data_type=1').then(
        (b) => b.data as { process_result: number; opt_total: number },
      ),
    (s) => s.process_result === 1 && s.opt_total > 0,
    180_000,
    'the optimisation',
  );
  return item.title;
}
