// Issue 26 (LCP): the Worker renders the first screen into the document and the admin hydrates it. In
// Debian's Chromium against the whole product, at a phone's width (with a phone's user agent, as
// Lighthouse's mobile run sends, and its 4x slower CPU) and a desktop's: the document's HTML already holds
// the screen's heading, the admin keeps that very element (hydrated, not rendered afresh), and the console
// has no hydration mismatch and no #421. Screenshots: tests/browser/admin/screenshots/server-render-*.png.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUnderTest, type AppUnderTest } from './app-under-test';
import { api, launchChromium, shot } from './merchant-page';

let app: AppUnderTest;
let browser: Browser;

beforeAll(async () => {
  app = await appUnderTest();
  browser = await launchChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const PHONE_UA =
  'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';

type Opened = { html: string; heading: string | null; kept: boolean; shift: number; problems: string[]; page: Page };

/**
 * Opens `path` in a new tab (a new session) at `width`; the document's HTML as the server sent it, the
 * heading the document carried, whether that element is still the page's after the admin started, and
 * the console's errors and warnings about hydration.
 */
async function open(path: string, width: number): Promise<Opened> {
  const phone = width < 500;
  const page = await browser.newPage({
    viewport: { width, height: 900 },
    ...(phone ? { isMobile: true, userAgent: PHONE_UA } : {}),
  });
  await page.route('https://cdn.shopify.com/**', (route) => route.abort());
  // A phone's CPU, as Lighthouse's mobile run has it (4x slower): an update that reached a part of the
  // markup before it hydrated replaced the whole screen on /main in 2 runs of 4 this way, in none without.
  if (phone) await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const problems: string[] = [];
  page.on('console', (m) => {
    // Mismatches (React's #418, #419, #422, #423, #425 in the production build) and #421, "a Suspense boundary
    // received an update before it finished hydrating": React then throws that boundary's markup away and
    // renders it afresh (the router's boundary holds the whole screen). Polaris' post-mount context updates
    // are transitions in the build for this (admin/build/polaris-hydration.ts).
    if (/did not match|Hydration failed|finished hydrating|Minified React error #4(18|19|21|22|23|25)\b/i.test(m.text()))
      problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  // The heading as the parser built it from the document, before the admin's code ran.
  await page.addInitScript(() => {
    // The layout shifts from the first paint on (the markup, then the hydrated tree).
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
        if (!e.hadRecentInput) w.__shift += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return;
      (window as unknown as { __first?: Element | null }).__first = document.querySelector('#root h1, #root h2');
    });
  });
  const res = await page.goto(`${app.base}${path}`);
  const html = (await res?.text()) ?? '';
  await page.locator('#root h1, #root h2').first().waitFor();
  await page.waitForLoadState('networkidle');
  const { heading, kept, shift } = await page.evaluate(() => {
    const w = window as unknown as { __first?: Element | null; __shift: number };
    const first = w.__first ?? null;
    return { heading: first?.textContent ?? null, kept: !!first?.isConnected, shift: w.__shift };
  });
  return { html, heading, kept, shift, problems, page };
}

/** A desktop-wide page whose admin entry script waits until `release()` (the Worker's markup is all there is). */
async function pageWithEntryHeld() {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('https://cdn.shopify.com/**', (route) => route.abort());
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return { page, release };
}

/**
 * Opens `path` with the admin's entry script held back (the Worker's markup is all there is), clicks the
 * dashboard's Mobile toggle, then lets the script come: the click is answered once the tree is live, and
 * exactly one click reaches the page's listeners (the held one stopped at the root, its replay through),
 * with no other document loaded.
 */
async function clickBeforeLive(path: string) {
  const { page, release } = await pageWithEntryHeld();
  try {
    const documents: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'document') documents.push(r.url());
    });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    // Clicks on the toggle that went all the way up (React's listener on the root is passed on the way).
    await page.addInitScript(() => {
      const w = window as unknown as { __clicks: number };
      w.__clicks = 0;
      window.addEventListener('click', (e) => {
        if ((e.target as Element | null)?.closest?.('#root button[aria-pressed]')) w.__clicks++;
      });
    });
    await page.goto(`${app.base}${path}`, { waitUntil: 'commit' });
    const mobile = page.locator('#root button[aria-pressed]', { hasText: 'Mobile' });
    await mobile.click();
    const state = () =>
      page.evaluate(() => ({
        live: document.getElementById('root')!.hasAttribute('data-live'),
        pressed: Array.from(document.querySelectorAll('#root button[aria-pressed="true"]'), (b) => b.textContent),
        clicks: (window as unknown as { __clicks: number }).__clicks,
      }));
    expect(await state(), 'the markup alone: held, nothing changed').toEqual({ live: false, pressed: ['Desktop'], clicks: 0 });
    release();
    await page.locator('#root[data-live]').waitFor({ state: 'attached' });
    await expect.poll(async () => (await state()).pressed, { message: 'the held click, replayed' }).toEqual(['Mobile']);
    await page.waitForLoadState('networkidle');
    expect(await state()).toEqual({ live: true, pressed: ['Mobile'], clicks: 1 });
    expect(documents).toHaveLength(1);
    expect(problems).toEqual([]);
    await shot(page, 'server-render-click-before-live-1280');
  } finally {
    release();
    await page.close();
  }
}

/**
 * The merchant picks another language in the dashboard's selector before the admin is live: the choice is
 * held and applied once the tree is live (the screens in Japanese, the choice saved), then put back.
 */
async function languageBeforeLive(path: string) {
  const { page, release } = await pageWithEntryHeld();
  try {
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${app.base}${path}`, { waitUntil: 'commit' });
    const select = page.locator('#root select').first();
    await select.selectOption('ja');
    expect(await page.evaluate(() => document.getElementById('root')!.hasAttribute('data-live'))).toBe(false);
    release();
    await page.getByRole('heading', { name: 'ページ速度', exact: true }).waitFor({ timeout: 30_000 });
    await expect
      .poll(async () => ((await api(app, '/api/v1/getSettingInfo')).data as { language?: string } | undefined)?.language ?? null)
      .toBe('ja');
    expect(problems).toEqual([]);
    await shot(page, 'server-render-language-before-live-1280');
    await page.locator('#root select').first().selectOption('en');
    await page.getByRole('heading', { name: 'Page Speed', exact: true }).waitFor({ timeout: 30_000 });
  } finally {
    release();
    await page.close();
  }
}

describe('the first screen rendered by the Worker, hydrated by the admin', () => {
  it('the wizard, the dashboard and the public screens: in the document, kept, no hydration error', async () => {
    const token = `authToken=${app.authToken}`;
    const screens: [string, string][] = [
      [`/main?${token}`, "Welcome! Let's set up your store"], // a new shop: /main opens the wizard
      ['/404', "The page you're looking for couldn't be found"],
      ['/privacy-policy', 'Privacy policy'],
      ['/cookieError', 'Please enable cookies'],
    ];
    const check = async (path: string, heading: string, name: string) => {
      for (const width of [390, 1280]) {
        const o = await open(path, width);
        try {
          expect(o.html, `${path} at ${width}`).toContain(heading.replace(/'/g, '&#x27;'));
          expect(o.heading, `${path} at ${width}`).toBe(heading);
          expect(o.kept, `${path} at ${width}: hydrated, not rendered afresh`).toBe(true);
          // Nothing moves once the markup painted.
          expect(o.shift, `${path} at ${width}: layout shift`).toBeLessThanOrEqual(0.05);
          expect(o.problems, `${path} at ${width}`).toEqual([]);
          await shot(o.page, `server-render-${name}-${width}`);
        } finally {
          await o.page.close();
        }
      }
    };
    for (const [path, heading] of screens) await check(path, heading, path.slice(1).replace(/\?.*/, '') || 'root');
    // The wizard finished (as the wizard's save does): /main is the dashboard.
    const saved = await api(app, '/api/v1/saveNewGuideCfg', {
      page5: { day_backup: 1 },
      settings: {
        image_opt: { product: 1, collection: 0, blogs: 0, pngtojpg: 0 },
        alt_text: { switch: 0, product: 0, collection: 0, blogs: 0, product_rule: '', collection_rule: '', blogs_rule: '' },
        file_name: { switch: 0, product: 0, collection: 0, blogs: 0, product_rule: '', collection_rule: '', blogs_rule: '' },
        auto_switch: 0,
        is_default: 0,
      },
    });
    expect(saved.ack).toBe(1);
    await check(`/main?${token}`, 'Page Speed', 'dashboard');
    await clickBeforeLive(`/main?${token}`);
    await languageBeforeLive(`/main?${token}`);
    await check(`/pricing?${token}`, 'Pricing', 'pricing');
    await check(`/image_optimisation?${token}`, 'Image Optimization', 'image-optimisation');
    await check(`/setting?${token}`, 'Settings', 'setting');
    // A direct link to the details screen (no item in the history state): rendered as the browser opens it.
    await check(`/image_optimisation_details?${token}`, 'Image optimization details', 'details');
  });
});
