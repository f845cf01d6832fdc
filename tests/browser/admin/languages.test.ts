// Issue 23 point 4, "every language, every format", in Debian's Chromium against the whole product: with
// the interface in German, the history dates read like German dates, the prices like German prices, the
// dashboard says when it checked in German, and the 404 page and "Skip to content" are German too.
// Screenshots: tests/browser/admin/screenshots/languages-*.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUnderTest, control, type AppUnderTest } from './app-under-test';
import { keepOnFailure, launchChromium, merchantTab, optimiseOneProduct, shot } from './merchant-page';

let app: AppUnderTest;
let browser: Browser;
let optimised: string;

beforeAll(async () => {
  app = await appUnderTest();
  browser = await launchChromium();
  await control(app.emulator, 'PUT', '/pagespeed', { host: '*', mode: 'ok', desktop: 0.77, mobile: 0.48, delayMs: 500 });
  optimised = await optimiseOneProduct(app); // the wizard's settings, and a history row with a date
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** "27.11.2026, 23:45": Intl's German medium date with a short time. */
const GERMAN_DATE_TIME = /\b\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}\b/;
/** Month names and English order, as an English date would show (Nov 27, 2026). */
const ENGLISH_DATE = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}/;

describe('German dates and prices (issue 23 point 4)', () => {
  it('history dates, prices, the last check and the 404 page read as German', async () => {
    const page = await merchantTab(browser, app);
    await keepOnFailure(page, 'languages-de', async () => {
      await page.waitForURL(/\/main$/);
      await page.locator('select').first().selectOption('ge');
      await page.getByRole('heading', { name: 'Seitengeschwindigkeit', exact: true }).waitFor();
      await page.getByRole('img', { name: /Geschwindigkeitswert \d+ von 100/ }).waitFor({ timeout: 90_000 });
      await page.getByText(/^Zuletzt geprüft: (jetzt|vor \d+ Minute|vor \d+ Minuten)$/).waitFor();
      await shot(page, 'languages-de-dashboard');

      // The history: the optimised product's row carries its date as German writes it.
      await page.goto(`${app.base}/image_optimisation`);
      const row = page.getByRole('row').filter({ hasText: optimised }).first();
      await row.waitFor({ timeout: 30_000 });
      const rowText = await row.innerText();
      expect(rowText).toMatch(GERMAN_DATE_TIME);
      expect(rowText).not.toMatch(ENGLISH_DATE);
      await shot(page, 'languages-de-history');

      // Prices: "3,99 $" with "4,99 $" struck through (the new-user offer), "0,00 $" for Free: the comma, and the
      // sign after the number with a no-break space; never "$4.99". The next reset is a German date too.
      await page.goto(`${app.base}/pricing`);
      await page.getByRole('heading', { name: 'Preise', exact: true }).waitFor({ timeout: 30_000 });
      await page
        .getByText(/^4,99\s\$$/)
        .first()
        .waitFor({ timeout: 30_000 });
      const pricing = await page.locator('body').innerText();
      expect(pricing).toMatch(/\b3,99\s\$/);
      expect(pricing).toMatch(/\b0,00\s\$/);
      expect(pricing).not.toMatch(/\$\s?\d/);
      expect(pricing).toMatch(
        /\b\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}\b/,
      );
      await shot(page, 'languages-de-pricing');

      // The 404 page and the skip link in the merchant's language.
      await page.goto(`${app.base}/no-such-page`);
      await page.getByText('Die gesuchte Seite wurde nicht gefunden').waitFor({ timeout: 30_000 });
      // The skip link is drawn only when focused: present in the page, in German, once Polaris has the catalogue.
      await page.getByText('Direkt zum Inhalt').first().waitFor({ state: 'attached', timeout: 15_000 });
      expect(await page.getByText('Skip to content').count()).toBe(0);
      await shot(page, 'languages-de-404');
    });
  });
});
