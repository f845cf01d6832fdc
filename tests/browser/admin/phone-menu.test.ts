// The image page's header menu on a phone (widgets/header-actions.tsx): its "..." button is the Worker's
// markup until the merchant reaches for it, and Polaris' menu is fetched then. The first click or tap
// must open the menu once it arrives: the merchant taps once and expects "Settings", not a dead button.
// (In happy-dom the lazy chunk is there at once, so only a real browser fetching it shows the wait.)
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUnderTest, type AppUnderTest } from './app-under-test';
import { api, launchChromium } from './merchant-page';

let app: AppUnderTest;
let browser: Browser;

beforeAll(async () => {
  app = await appUnderTest();
  browser = await launchChromium();
  // The wizard done (its own call), so the image page shows its header rather than the wizard.
  const wizard = await api(app, '/api/v1/saveNewGuideCfg', {
    page5: { day_backup: 1 },
    settings: { image_opt: { product: 1, collection: 0, blogs: 0, pngtojpg: 0 }, auto_switch: 0, is_default: 0 },
  });
  if (wizard.ack !== 1) throw new Error(`saveNewGuideCfg: ${JSON.stringify(wizard)}`);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("the image page's actions on a phone", () => {
  it.each(['click', 'tap'] as const)('open on the first %s, and Settings opens the settings sheet', async (input) => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: input === 'tap' });
    try {
      await page.route('https://cdn.shopify.com/**', (route) => route.abort());
      await page.goto(`${app.base}/image_optimisation?authToken=${app.authToken}`);
      await page.waitForSelector('#root[data-live]', { timeout: 60_000 });
      const more = page.getByRole('button', { name: 'View actions for Image Optimization' });
      if (input === 'tap') await more.tap();
      else await more.click();
      const menu = page.locator('.Polaris-Popover__PopoverOverlay--open');
      await menu.getByRole('button', { name: 'Settings' }).waitFor({ timeout: 15_000 });
      expect(await menu.getByRole('button').allInnerTexts()).toEqual(['Upload images to optimize', 'Settings']);
      await menu.getByRole('button', { name: 'Settings' }).click();
      await page.getByRole('dialog', { name: 'Settings' }).waitFor({ timeout: 15_000 });
    } finally {
      await page.close();
    }
  });
});
