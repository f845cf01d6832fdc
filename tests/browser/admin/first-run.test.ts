// Issue 23 point 3, a merchant's first run, in Debian's Chromium against the whole product (`npm start`):
// the first launch opens the wizard; Upload is there from the first visit; no rating prompt before the first
// optimisation; Recheck right after the automatic check shows that result with its time, not an error; the
// gauge says when it was checked and the score history draws the checks (point 8); a finished wizard never
// shows Welcome again; once the first optimisation has finished the rating shows, one banner at a time.
// Screenshots: tests/browser/admin/screenshots/first-run-*.png.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUnderTest, control, type AppUnderTest } from './app-under-test';
import { keepOnFailure, launchChromium, merchantTab, optimiseOneProduct, shot } from './merchant-page';

let app: AppUnderTest;
let browser: Browser;

beforeAll(async () => {
  app = await appUnderTest();
  browser = await launchChromium();
  await control(app.emulator, 'PUT', '/pagespeed', { host: '*', mode: 'ok', desktop: 0.81, mobile: 0.52, delayMs: 1000 });
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const RATING = 'How would you rate our app?';
const OFFER = 'New users get 20% off for the first 3 months';
const NEWEST = 'This is your newest score. A new check can start 5 minutes after the last one.';
const COOLDOWN_ERROR = 'The page speed score was checked a moment ago. Please try again in a few minutes.';

describe('a merchant’s first run (issue 23 point 3)', () => {
  it('first launch: the wizard; Upload from the first visit; no rating yet; Recheck after the automatic check shows its time', async () => {
    const page = await merchantTab(browser, app);
    await keepOnFailure(page, 'first-run-launch', async () => {
      await page.waitForURL(/\/guidance$/);
      await page.getByRole('button', { name: "Let's start now" }).waitFor();
      await shot(page, 'first-run-1-wizard');

      // The merchant looks around before setting up: Upload is offered, no rating prompt.
      await page.goto(`${app.base}/image_optimisation`);
      await page.getByRole('button', { name: 'Upload images to optimize' }).waitFor({ timeout: 30_000 });
      expect(await page.getByText(RATING).count()).toBe(0);

      // The dashboard (the wizard was offered in this tab already): the automatic check, then its time.
      await page.goto(`${app.base}/main`);
      await page.getByRole('img', { name: 'Speed score 81 out of 100' }).waitFor({ timeout: 90_000 });
      await page.getByText(/^Last checked: /).waitFor();
      expect(page.url()).toMatch(/\/main$/);
      expect(await page.getByText(RATING).count()).toBe(0);
      await page.getByText(OFFER).waitFor();
      const history = page.getByRole('img', { name: 'Score history' });
      await history.waitFor({ timeout: 30_000 });
      expect(await history.locator('desc').textContent()).toContain('desktop 81, mobile 52');

      // Recheck right away: the server keeps the check it just made; the page says so, with its time.
      await page.getByRole('button', { name: 'Recheck' }).click();
      await page.getByText(NEWEST).waitFor();
      expect(await page.getByText(COOLDOWN_ERROR).count()).toBe(0);
      await page.getByRole('img', { name: 'Speed score 81 out of 100' }).waitFor();
      await page.getByText(/^Last checked: /).waitFor();
      await shot(page, 'first-run-2-dashboard-recheck');
    });
  });

  it('a finished wizard never shows Welcome again; after the first optimisation the rating shows, alone', async () => {
    const page = await merchantTab(browser, app);
    await keepOnFailure(page, 'first-run-after', async () => {
      // This tab is a new session and the wizard is not finished: the launch opens it. Finish it, Skip the rating.
      await page.waitForURL(/\/guidance$/);
      await page.getByRole('button', { name: "Let's start now" }).click();
      for (let step = 2; step < 5; step++) await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('button', { name: 'Save and finish' }).click();
      await page.getByRole('button', { name: 'Skip' }).click();
      await page.waitForURL(/\/pricing/, { timeout: 15_000 });

      // Back to the wizard's address: the dashboard, no Welcome.
      await page.goto(`${app.base}/guidance`);
      await page.waitForURL(/\/main$/, { timeout: 30_000 });
      expect(await page.getByRole('button', { name: "Let's start now" }).count()).toBe(0);
      expect(await page.getByText(RATING).count()).toBe(0); // Skip was no score, and nothing is optimised yet

      await optimiseOneProduct(app);
      await page.goto(`${app.base}/main`);
      await page.getByText(RATING).waitFor({ timeout: 30_000 });
      expect(await page.getByText(OFFER).count()).toBe(0); // one banner at a time
      await shot(page, 'first-run-3-dashboard-rating');
      await page.getByRole('button', { name: 'Remind me later' }).click();
      await page.getByText(OFFER).waitFor(); // the offer takes its place
    });
  });
});
