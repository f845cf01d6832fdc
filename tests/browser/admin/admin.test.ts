// The admin in Debian's Chromium against the whole product (`npm start`: Worker, local D1/R2/Queues,
// the Shopify store emulator and its PageSpeed emulator). Screenshots land in
// tests/browser/admin/screenshots/ for a person to look at.
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUnderTest, control, signedLaunchQuery, type AppUnderTest } from './app-under-test';

const SHOTS = 'tests/browser/admin/screenshots';
let app: AppUnderTest;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  app = await appUnderTest();
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A fresh page with the admin token stored (as the printed URL does) and Shopify's CDN unreachable. */
async function adminPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // Like a local run without network: App Bridge cannot load, the app must go on standalone.
  await page.route('https://cdn.shopify.com/**', (route) => route.abort());
  await page.route(/youtube|apps\.shopify\.com/, (route) => route.abort());
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(app.adminUrl);
  await page.waitForURL(/\/main/);
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

/** Runs a scenario on a fresh admin page; on failure the page is kept as failed-<name>.png. */
async function scenario(name: string, body: (page: Page) => Promise<void>) {
  const page = await adminPage();
  try {
    await body(page);
  } catch (e) {
    await shot(page, `failed-${name}`).catch(() => undefined);
    throw e;
  } finally {
    await page.close();
  }
}

describe('admin in the browser', () => {
  it('install landing -> wizard -> pricing', () =>
    scenario('wizard', async (page) => {
      await page.goto(`${app.base}/auth/install${await signedLaunchQuery(app.emulator, app.shop)}`);
      // A new shop is sent to the first-run wizard.
      await page.waitForURL(/\/guidance/, { timeout: 30_000 });
      await page.getByRole('button', { name: "Let's start now" }).click();
      await shot(page, 'wizard-step-2');
      await page.getByText('Step 1 of 4').waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByLabel('Collection alt text template').fill('');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('The input cannot be empty!').waitFor();
      await page.getByText('Step 2 of 4').waitFor();
      await page.getByRole('button', { name: 'Collection title' }).first().click();
      await shot(page, 'wizard-step-3-alt');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('Your originals are safe for 30 days').waitFor();
      await page.getByRole('button', { name: 'Save and finish' }).click();
      await page.getByText('Completed instruction!').first().waitFor();
      await shot(page, 'wizard-step-6-review');
      await page.getByRole('button', { name: 'Skip' }).click();
      await page.waitForURL(/\/pricing/, { timeout: 10_000 });
      await page.getByText('Premium').first().waitFor();
      await page.waitForTimeout(1000);
      await shot(page, 'pricing');
      expect(await page.getByRole('button', { name: 'Fewer images' }).getAttribute('aria-disabled')).toBe('true');
    }));

  it('dashboard: score, Recheck and the app embed switch', async () => {
    await control(app.emulator, 'PUT', '/pagespeed', { host: '*', mode: 'ok', desktop: 0.81, mobile: 0.52, delayMs: 1500 });
    await control(app.emulator, 'POST', `/shops/${app.shop}/theme/embed`, { enabled: false });
    await scenario('dashboard', async (page) => {
      const gauge = page.getByRole('img', { name: /Speed score \d+ out of 100/ });
      await gauge.waitFor({ timeout: 60_000 });
      await shot(page, 'dashboard');

      await page.getByRole('button', { name: 'Recheck' }).click();
      await page.getByText("Measuring your store's speed...").first().waitFor();
      await shot(page, 'dashboard-rechecking');
      await page.getByRole('img', { name: 'Speed score 81 out of 100' }).waitFor({ timeout: 60_000 });
      expect(await page.getByRole('img', { name: 'Speed score 81 out of 100' }).getAttribute('data-band')).toBe('green');
      await page.getByRole('button', { name: 'Mobile' }).click();
      expect(await page.getByRole('img', { name: 'Speed score 52 out of 100' }).getAttribute('data-band')).toBe('amber');

      await page.getByText('Enable Shopify embed to speed up your store.').waitFor();
      const editor = page.waitForEvent('popup');
      await page.getByRole('button', { name: 'Speed up' }).click();
      const popup = await editor;
      expect(popup.url()).toContain('editor');
      await popup.close();
      // The merchant switches the embed on in the theme editor; the dashboard notices by itself.
      await control(app.emulator, 'POST', `/shops/${app.shop}/theme/embed`, { enabled: true });
      await page.getByText('Congrats! You just boost your site speed.').waitFor({ timeout: 15_000 });
      await shot(page, 'dashboard-embed-on');
    });
  });

  it('switching the language to Japanese and German translates the screens', () =>
    scenario('languages', async (page) => {
      const select = page.locator('select').first();
      await select.selectOption('ja');
      await page.getByRole('heading', { name: 'ページ速度', exact: true }).waitFor();
      await page.getByText('よくある質問').waitFor();
      await shot(page, 'dashboard-ja');
      await page.goto(`${app.base}/pricing`);
      await page.getByRole('heading', { name: '料金', exact: true }).waitFor();
      await shot(page, 'pricing-ja');

      await page.goto(`${app.base}/main`);
      await page.locator('select').first().selectOption('ge');
      await page.getByRole('heading', { name: 'Seitengeschwindigkeit', exact: true }).waitFor();
      await page.getByText('Häufige Fragen').waitFor();
      await shot(page, 'dashboard-de');
      await page.goto(`${app.base}/setting`);
      await page.getByRole('heading', { name: 'Einstellungen', exact: true }).waitFor();
      await page.getByText('Einstellungen der Bildoptimierung').first().click();
      await page.getByText('Optimierungsmodus wählen').first().waitFor();
      await shot(page, 'settings-de');
      // back to English for the next run
      await page.goto(`${app.base}/main`);
      await page.locator('select').first().selectOption('en');
      await page.getByRole('heading', { name: 'Page Speed', exact: true }).waitFor();
    }));
});
