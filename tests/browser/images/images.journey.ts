// The merchant's image journey on the dev store, in Debian's Chromium against the whole product
// (`npm start`: Worker with local D1/R2/Queues, the Shopify store emulator): settings with a watermark ->
// manual optimisation of a product -> progress -> history and detail rows with real sizes -> compare ->
// restore one image -> re-optimise -> upload two files (one refused) -> download a result.
// Screenshots land in tests/browser/images/screenshots/ for a person to look at.
import { mkdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appUnderTest, freshShop, type AppUnderTest } from './app-under-test';

const SHOTS = 'tests/browser/images/screenshots';
const FIXTURES = 'tests/fixtures/images';
const SIZE = /\d+\.\d{2} (KB|MB|GB)/;
let app: AppUnderTest;
let browser: Browser;
let current: Page | undefined;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  app = await appUnderTest();
  // The journey runs on a shop of its own (see freshShop), installed like any merchant's.
  app = { ...app, adminUrl: (await freshShop(app)).adminUrl };
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
});

afterEach(async (ctx) => {
  // A failed step leaves a picture of where it stopped.
  if (ctx.task.result?.state === 'fail' && current) await shot(current, 'failure').catch(() => undefined);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

async function adminPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await page.route('https://cdn.shopify.com/**', (route) => route.abort());
  page.on('pageerror', (e) => console.error('page error:', e.message));
  // Download links are signed for APP_URL (.dev.vars, http://localhost:8787); when this run's Worker
  // listens elsewhere (APP_BASE), the same signed paths are fetched from it instead.
  const appUrl = new URL(process.env.APP_URL ?? 'http://localhost:8787').origin;
  if (appUrl !== app.base)
    await page.route(`${appUrl}/files/**`, (route) => route.continue({ url: route.request().url().replace(appUrl, app.base) }));
  await page.goto(app.adminUrl);
  // The admin has kept the token (in this tab) once it leaves the address bar; navigating before then
  // would find no session.
  await page.waitForURL((url) => /^\/(main|guidance)$/.test(url.pathname) && !url.searchParams.has('authToken'));
  await page.goto(`${app.base}/image_optimisation`);
  await page.getByRole('heading', { name: 'Image Optimization' }).waitFor();
  current = page;
  return page;
}

/** Waits for a toast with this text (Polaris toasts live 3 s). */
const toast = (page: Page, text: string | RegExp, timeout = 20_000) =>
  page.locator('.Polaris-Frame-Toast').filter({ hasText: text }).first().waitFor({ timeout });

describe('image optimisation journey', () => {
  it('settings -> manual optimisation -> history and details -> compare -> restore -> re-optimise -> upload -> download', async () => {
    const page = await adminPage();
    await page.getByText('Total saved space').waitFor();
    await shot(page, '01-image-page');

    // 1. Settings with a watermark (manual mode, so nothing runs behind the journey's back).
    await page.getByRole('button', { name: 'Settings' }).first().click();
    const sheet = page
      .getByRole('dialog')
      .filter({ has: page.getByRole('heading', { name: /First set up requirement|Settings/ }) });
    await sheet.getByText('Select optimization mode').first().waitFor();
    await sheet.getByLabel('Manual', { exact: true }).check({ force: true }); // Polaris draws over its inputs
    await sheet.getByText('You need to manually optimize in the APP after each change.').waitFor();
    const compress = sheet.getByLabel('Compress images');
    if (!(await compress.isChecked())) await compress.check({ force: true });
    await sheet.getByLabel('All product images').check({ force: true });
    const watermark = sheet.getByLabel('Add a watermark');
    if (!(await watermark.isChecked())) await watermark.check({ force: true });
    await sheet.locator('input[type=file]').setInputFiles(`${FIXTURES}/logo-alpha.png`);
    await sheet.getByRole('img', { name: 'Watermark preview' }).waitFor();
    await shot(page, '02-settings-sheet-watermark');
    await sheet.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Success');
    await expect(sheet.count()).resolves.toBe(0);

    // 2. Manually optimise products with images waiting. Several: a JPG that is already well
    //    compressed, with a watermark on top, is not made smaller and keeps its original.
    await page.getByRole('button', { name: 'Manually optimize' }).click();
    const manual = page.getByRole('dialog', { name: 'Manually optimize' });
    const waiting = manual.getByRole('row').filter({ hasText: /[1-9]\d* of \d+ to optimize/ });
    await waiting.first().waitFor();
    const titles: string[] = [];
    for (let i = 0; i < Math.min(3, await waiting.count()); i++) {
      const row = waiting.nth(i);
      titles.push((await row.locator('td').nth(2).innerText()).trim());
      await row.getByRole('checkbox').check({ force: true });
    }
    await shot(page, '03-manual-modal');
    await manual.getByRole('button', { name: 'Optimize now' }).click();

    // 3. Progress, then the completion toast and the history rows; follow one that got smaller.
    await page.getByRole('heading', { name: /Optimizing: Product/ }).waitFor({ timeout: 90_000 });
    await page.getByText(/\d+ of \d+ images processed/).waitFor({ timeout: 30_000 });
    await shot(page, '04-progress');
    await toast(page, /products images optimized/, 240_000);
    await page.getByRole('row').filter({ hasText: titles[0] }).first().waitFor({ timeout: 15_000 });
    await shot(page, '05-history');
    let historyRow = page.getByRole('row').filter({ hasText: titles[0] }).first();
    for (const title of titles) {
      const row = page.getByRole('row').filter({ hasText: title }).first();
      if (Number(/(\d+\.\d{2})%/.exec(await row.innerText())?.[1]) > 0) {
        historyRow = row;
        break;
      }
    }
    await expect(historyRow.innerText()).resolves.toMatch(/[1-9]\d*\.\d{2}%/);

    // 4. Details: real sizes, tags, actions.
    await historyRow.getByRole('button', { name: 'Details' }).click();
    await page.waitForURL(/image_optimisation_details/);
    await page.getByText('Image data is kept for 30 days only.', { exact: false }).waitFor();
    const compressedBadge = () => page.getByText('Compressed', { exact: true });
    const compressed = page.getByRole('row').filter({ has: compressedBadge() }).first();
    await compressed.waitFor();
    await expect(compressed.innerText()).resolves.toMatch(SIZE);
    await expect(compressed.innerText()).resolves.toContain('Watermark');
    await shot(page, '06-details');

    // 5. Compare before and after.
    await compressed.getByRole('button', { name: 'View' }).click();
    const compare = page.getByRole('dialog', { name: 'Compress images without losing quality' });
    await compare.getByRole('slider').waitFor();
    await compare.getByRole('slider').fill('25');
    await expect(compare.getByText(/Original: \d+\.\d{2} KB/).count()).resolves.toBe(1);
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('[data-testid=compare-frame] img')).every(
        (i) => (i as HTMLImageElement).naturalWidth > 0,
      ),
    );
    await shot(page, '07-compare');
    await compare.getByRole('button', { name: 'Close' }).click();

    // 6. Restore one image.
    await compressed.getByRole('button', { name: 'Restore' }).click();
    await toast(page, 'Your picture has been restored', 60_000);
    await page.getByRole('row').filter({ hasText: 'Restored' }).first().waitFor();
    await shot(page, '08-restored');

    // 7. Re-optimise it (bulk action on the selected row).
    const restoredRow = page.getByRole('row').filter({ hasText: 'Restored' }).first();
    await restoredRow.getByRole('checkbox').check({ force: true });
    await page.getByRole('button', { name: 'Re-optimize' }).click();
    await toast(page, 'Picture optimization completed', 90_000);
    await shot(page, '09-reoptimised');

    // A result downloads over the signed link, as a file named after the image.
    const reoptimised = page.getByRole('row').filter({ has: compressedBadge() }).first();
    await reoptimised.getByRole('button', { name: 'Download' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByText('Optimized image', { exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/-after\.(jpg|png)$/);
    const saved = await download.path();
    expect(readFileSync(saved).byteLength).toBeGreaterThan(1000);

    // 8. Upload two files, one refused; download the optimised result.
    await page.getByRole('button', { name: 'Image optimization' }).click();
    await page.waitForURL(/\/image_optimisation$/);
    await page.getByRole('button', { name: 'Upload images to optimize' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload images to optimize' });
    await upload.locator('input[type=file]').setInputFiles([
      { name: 'chelsea.png', mimeType: 'image/png', buffer: readFileSync(`${FIXTURES}/chelsea-rgb.png`) },
      { name: 'notes.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') },
    ]);
    await upload.getByRole('button', { name: 'Upload and optimize' }).click();
    await upload.getByText("The following images couldn't be uploaded:").waitFor();
    await upload.getByText('notes.gif is not supported. File type must be .jpg, .png.').waitFor();
    // Sent: the accepted file leaves the list, the refused one stays named above it.
    await upload.getByRole('listitem').filter({ hasText: 'chelsea.png' }).waitFor({ state: 'detached', timeout: 30_000 });
    await shot(page, '10-upload-rejected');
    await upload.getByRole('button', { name: 'Cancel' }).click();
    await toast(page, /images optimized/, 90_000);
    const uploadRow = page.getByRole('row').filter({ hasText: 'chelsea.png' }).first();
    await uploadRow.waitFor({ timeout: 15_000 });
    await shot(page, '11-other-tab');
    await uploadRow.getByRole('button', { name: 'View' }).click();
    await compare.getByRole('slider').waitFor();
    await shot(page, '12-upload-compare');
    await compare.getByRole('button', { name: 'Close' }).click();

    // 9. On a phone (390 px): every tab in view, and Details, Download and Restore reachable without
    //    scrolling sideways; a restore from the history at that width.
    await page.setViewportSize({ width: 390, height: 844 });
    const inView = async (locator: Locator) => {
      // Scroll the page up or down only: a sideways scroll would hide what this checks.
      await locator.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 200));
      const box = (await locator.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    };
    await page.getByRole('tab', { name: 'Product' }).first().click();
    // On a phone the lists stack each row's cells (list items, not table rows).
    const phoneRow = page.locator('tr, li').filter({ hasText: titles[0] }).first();
    await phoneRow.waitFor();
    await inView(page.getByRole('button', { name: 'Recommendation' }).first());
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await inView(phoneRow.getByRole('button', { name: 'Details' }));
    await shot(page, '13-phone-history');
    await phoneRow.getByRole('button', { name: 'Details' }).click();
    await page.waitForURL(/image_optimisation_details/);
    const phoneCompressed = page.locator('tr, li').filter({ has: compressedBadge() }).first();
    await phoneCompressed.waitFor();
    await inView(phoneCompressed.getByRole('button', { name: 'Download' }));
    await inView(phoneCompressed.getByRole('button', { name: 'Restore' }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, '14-phone-details');
    await phoneCompressed.getByRole('button', { name: 'Restore' }).click();
    await toast(page, 'Your picture has been restored', 60_000);
    await shot(page, '15-phone-restored');
  });
});
