// The embedded journey, in Debian's Chromium against the whole product (`npm start` on free ports):
// Shopify's admin (the store emulator's admin page, seen by the browser at https://admin.shopify.com)
// frames the app at application_url + path with the signed launch query; App Bridge is a stand-in served
// at the CDN script's URL (emulator/http/app-bridge-stand-in.js). A fresh store opens the app for the first time:
// it installs by token exchange with no top-level redirect, the merchant reaches Image Optimization
// through the app's navigation in the admin, optimises an image and restores it; the admin shows the
// app's toasts, its review modal and the settings' save bar (which guards the admin's own navigation).
// Every HTML response of the app carries the frame-ancestors policy for the shop.
// Screenshots land in tests/browser/embedded/screenshots/ (ignored by git) for a person to look at.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Frame, type FrameLocator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { APP_HANDLE } from '../../../emulator/server';
import { startProduct } from '../npm-start';
import { freePort } from '../../../scripts/lib/free-port';

const SHOTS = 'tests/browser/embedded/screenshots';
const STAND_IN = readFileSync(new URL('../../../emulator/http/app-bridge-stand-in.js', import.meta.url), 'utf8');
const ADMIN = 'https://admin.shopify.com';
const HANDLE = APP_HANDLE;

let product: { adminUrl: string; stop: () => Promise<void> } | undefined; // undefined: APP_BASE given
let stateDir: string | undefined;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let emulator: string;
let appOrigin: string;
let shop: string;
let store: string;
const htmlResponses: { url: string; status: number; csp: string | null }[] = [];
/** Console lines of any frame about a Content Security Policy (a refused script, style or frame). */
const cspMessages: string[] = [];
const topUrls: string[] = [];

const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png` });
const emu = async <T>(path: string, init?: RequestInit): Promise<T> =>
  (await (await fetch(`${emulator}${path}`, init)).json()) as T;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  if (process.env.APP_BASE && process.env.EMULATOR_URL) {
    // A product already running (`PORT=... EMULATOR_PORT=... npm start`), e.g. while working on this test.
    appOrigin = new URL(process.env.APP_BASE).origin;
    emulator = new URL(process.env.EMULATOR_URL).origin;
  } else {
    // Its own ports and local state, so a developer's `npm start` (8787/8788, .wrangler/state) is not
    // disturbed. A port picked free can be taken by another process before wrangler binds it: one retry.
    process.env.WRANGLER_STATE = stateDir = mkdtempSync(join(tmpdir(), 'embedded-journey-'));
    for (let attempt = 1; !product; attempt++) {
      process.env.PORT = String(await freePort());
      process.env.EMULATOR_PORT = String(await freePort());
      emulator = `http://127.0.0.1:${process.env.EMULATOR_PORT}`;
      product = await startProduct().catch((e: unknown) => {
        if (attempt >= 2) throw e;
        return undefined;
      });
    }
    appOrigin = new URL(product.adminUrl).origin;
  }
  // A store of its own that has never opened the app (not installed).
  shop = (
    await emu<{ domain: string }>('/__emulator/shops', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ seed: 'dev' }),
    })
  ).domain;
  store = shop.replace('.myshopify.com', '');

  // Local Network Access checks stop a public page (Shopify's admin) from framing a loopback address; in
  // production the app is public too, so the check would not apply: off for this local stand-in.
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-features=LocalNetworkAccessChecks',
    ],
  });
  context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  // Shopify's admin is the emulator's admin page, at Shopify's origin so the app's CSP is what decides.
  await context.route(`${ADMIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    const res = await route.fetch({ url: `${emulator}${url.pathname}${url.search}` });
    await route.fulfill({ response: res });
  });
  // App Bridge from Shopify's CDN is the stand-in; nothing else leaves the machine.
  await context.route('https://cdn.shopify.com/**', (route) =>
    new URL(route.request().url()).pathname === '/shopifycloud/app-bridge.js'
      ? route.fulfill({ status: 200, contentType: 'text/javascript', body: STAND_IN })
      : route.abort(),
  );
  context.on('response', (res) => {
    if (!res.url().startsWith(appOrigin) || !(res.headers()['content-type'] ?? '').includes('text/html')) return;
    htmlResponses.push({ url: res.url(), status: res.status(), csp: res.headers()['content-security-policy'] ?? null });
  });
  page = await context.newPage();
  page.on('pageerror', (e) => console.error('admin page error:', e.message));
  page.on('console', (m) => /Content Security Policy/i.test(m.text()) && cspMessages.push(m.text()));
  page.on('framenavigated', (f) => f === page.mainFrame() && topUrls.push(f.url()));
}, 300_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) await shot('failure').catch(() => undefined);
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

/** The app inside the admin's iframe. */
const app = (): FrameLocator => page.frameLocator('#app-iframe');
const appFrame = (): Frame | null => page.frame({ name: 'app-iframe' });
/**
 * The admin's tree is live (admin/src/app-root.tsx): before, the frame may show the Worker's markup of the
 * screen (worker/document-render.ts), which paints first but answers no click until it is hydrated.
 */
const appLive = () => app().locator('#root[data-live]').waitFor({ state: 'attached', timeout: 30_000 });
/** A toast the app showed through App Bridge, in the admin's toast area. */
const adminToast = (text: string | RegExp, timeout = 30_000) =>
  page.locator('#toasts div').filter({ hasText: text }).first().waitFor({ timeout });

describe('embedded in Shopify’s admin', () => {
  it('installs without leaving the admin, navigates by the admin menu, optimises and restores an image', async () => {
    const adminHome = `${ADMIN}/store/${store}/apps/${HANDLE}`;
    await page.goto(adminHome);

    // 1. First open: managed installation by token exchange, no OAuth redirect out of the admin.
    // The launch screen asks the Worker, which installs and sends the app on to its first screen.
    await expect
      .poll(() => new URL(appFrame()?.url() ?? 'about:blank').pathname, { timeout: 60_000 })
      .toMatch(/^\/(guidance|main)$/);
    await app()
      .getByRole('button', { name: /Let's start now|Recheck/ })
      .first()
      .waitFor({ timeout: 30_000 });
    const described = await emu<{ installed: boolean; stats: { tokenExchanges: number; authorizationCodes: number } }>(
      `/__emulator/shops/${shop}`,
    );
    expect(described.installed).toBe(true);
    expect(described.stats.tokenExchanges).toBeGreaterThan(0);
    expect(described.stats.authorizationCodes).toBe(0);
    await shot('01-installed');

    // 2. The app's ui-nav-menu is the admin's navigation; Image Optimization opens inside the frame.
    const nav = page.getByRole('navigation', { name: 'App navigation' });
    await nav.getByRole('link', { name: 'Image Optimization' }).click();
    await app().getByRole('heading', { name: 'Image Optimization' }).waitFor({ timeout: 30_000 });
    await appLive();
    await expect.poll(() => page.url()).toBe(`${adminHome}/image_optimisation`);
    expect(new URL(appFrame()!.url()).pathname).toBe('/image_optimisation');
    await shot('02-image-optimization');

    // 3. Settings first (a new shop must set up before optimising): manual mode, compress product images.
    await app().getByRole('button', { name: 'Settings' }).first().click();
    const sheet = app()
      .getByRole('dialog')
      .filter({ has: app().getByRole('heading', { name: /First set up requirement|Settings/ }) });
    await sheet.getByText('Select optimization mode').first().waitFor();
    await sheet.getByLabel('Manual', { exact: true }).check({ force: true }); // Polaris draws over its inputs
    const compress = sheet.getByLabel('Compress images');
    if (!(await compress.isChecked())) await compress.check({ force: true });
    await sheet.getByLabel('All product images').check({ force: true });
    await sheet.getByRole('button', { name: 'Save' }).click();
    await adminToast('Success');

    // 4. Optimise one product's images.
    await expect.poll(() => sheet.count()).toBe(0);

    // Unsaved settings show the admin's save bar; the admin's own navigation asks before leaving them.
    await app().getByRole('button', { name: 'Settings' }).first().click();
    await sheet.getByText('Select optimization mode').first().waitFor();
    await sheet.getByLabel('Automatic', { exact: true }).check({ force: true });
    const saveBar = page.getByRole('region', { name: 'Unsaved changes' });
    await saveBar.getByRole('button', { name: 'Discard' }).waitFor();
    await shot('03-save-bar');
    await nav.getByRole('link', { name: 'Pricing' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave page with unsaved changes?' });
    await leave.getByRole('button', { name: 'Stay' }).click();
    expect(new URL(appFrame()!.url()).pathname).toBe('/image_optimisation');
    await saveBar.getByRole('button', { name: 'Discard' }).click();
    await saveBar.waitFor({ state: 'hidden' });
    await expect(sheet.getByLabel('Manual', { exact: true }).isChecked()).resolves.toBe(true);
    await sheet.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => sheet.count()).toBe(0);
    // The page reloads its settings after the save; until then it still asks for the first set-up.
    const manual = app().getByRole('dialog', { name: 'Manually optimize' });
    const firstSetup = app().getByRole('dialog', { name: 'First set up requirement' });
    // A deadline, not a number of tries: on a loaded machine the reload takes longer than 10 x 500 ms.
    const deadline = Date.now() + 60_000;
    for (;;) {
      await app().getByRole('button', { name: 'Manually optimize' }).click();
      await manual.or(firstSetup).first().waitFor();
      if (await manual.isVisible()) break;
      expect(Date.now(), 'the saved settings never replaced the first set-up').toBeLessThan(deadline);
      await firstSetup.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForTimeout(500);
    }
    const waiting = manual.getByRole('row').filter({ hasText: /[1-9]\d* of \d+ to optimize/ });
    await waiting.first().waitFor({ timeout: 60_000 });
    const title = (await waiting.first().locator('td').nth(2).innerText()).trim();
    await waiting.first().getByRole('checkbox').check({ force: true });
    await manual.getByRole('button', { name: 'Optimize now' }).click();
    await adminToast(/images optimized/, 120_000);
    await shot('04-optimised');

    // Rating the app opens Shopify's own review modal (App Bridge reviews API), whatever the score.
    await app().getByRole('button', { name: '5 stars' }).first().click();
    const review = page.getByRole('dialog', { name: 'Review this app' });
    await review.waitFor();
    expect(await page.evaluate(() => (window as unknown as { __admin: { reviewRequests: number } }).__admin.reviewRequests)).toBe(
      1,
    );
    await review.getByRole('button', { name: 'Close' }).click();

    // 5. Its details; restore the compressed image.
    const historyRow = app().getByRole('row').filter({ hasText: title }).first();
    await historyRow.getByRole('button', { name: 'Details' }).click();
    await app().getByText('Image data is kept for 30 days only.', { exact: false }).waitFor();
    await expect.poll(() => page.url()).toContain(`${adminHome}/image_optimisation_details`);
    const compressed = app()
      .getByRole('row')
      .filter({ has: app().getByText('Compressed', { exact: true }) })
      .first();
    await compressed.getByRole('button', { name: 'Restore' }).click();
    await adminToast('Your picture has been restored', 60_000);
    await app().getByRole('row').filter({ hasText: 'Restored' }).first().waitFor();
    await shot('05-restored');

    // Toasts were the admin's (App Bridge), not drawn inside the app.
    expect(await app().locator('.Polaris-Frame-Toast').count()).toBe(0);

    // 6. The top frame never left Shopify's admin for this app (no OAuth or other top-level redirect).
    expect(topUrls.length).toBeGreaterThan(0);
    for (const url of topUrls) expect(url.startsWith(`${adminHome}`), url).toBe(true);

    // 7. Every HTML response of the app said who may frame it: this shop and Shopify's admin; and which
    // scripts may run (issue 25, item 10): only those carrying the response's nonce, and what they load.
    expect(htmlResponses.length).toBeGreaterThan(0);
    for (const r of htmlResponses) {
      expect(r.csp, r.url).toMatch(
        new RegExp(`^frame-ancestors https://${shop.replace(/\./g, '\\.')} https://admin\\.shopify\\.com( |$)`),
      );
      expect(r.csp, r.url).toMatch(/; script-src 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'; object-src 'none'; base-uri 'self'$/);
    }
    // App Bridge, the admin and its lazy screens ran under that policy: nothing was refused on the way.
    expect(cspMessages).toEqual([]);

    // 8. Markup injected into the app cannot run script: an inline handler is refused by the policy.
    const frame = appFrame()!;
    const refused = await frame.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), { once: true });
          const div = document.createElement('div');
          div.innerHTML = '<img src="data:," onerror="window.__injected = 1">';
          document.body.append(div);
        }),
    );
    expect(refused).toBe('script-src-attr');
    expect(await frame.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
  }, 300_000);
});
