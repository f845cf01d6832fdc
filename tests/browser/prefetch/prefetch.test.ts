// The built storefront script in Debian's Chromium, on a Shopify-like storefront: what it fetches in
// advance, what it never fetches, and that it never throws. Driven through the tab target so Chromium
// really prerenders (see cdp-tab.ts). The server log is the truth: a request that reached it was made.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { staleFiles } from '../../../storefront-script/build-script';
import { CdpBrowser, type CdpTab } from './cdp-tab';
import { type Storefront, startStorefront } from './storefront-server';

let browser: CdpBrowser;
let storefront: Storefront;
let tab: CdpTab;
let exceptions: string[];
let page = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// How long a check that nothing (more) was fetched waits: requests reach the server within a few ms of the
// trigger. Checks that something was fetched wait for it instead (until), and hover times run on the
// page clock (PAGE_CLOCK), so neither depends on how busy the machine is.
const SETTLE_MS = 400;

beforeAll(async () => {
  storefront = await startStorefront({ ttfbMs: () => 20 });
  browser = await CdpBrowser.launch();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await storefront?.close();
});

beforeEach(async () => {
  storefront.config = {
    ...storefront.config,
    scenario: 'speed-prefetch',
    shopifyRules: false,
    classicScript: false,
    scriptData: { exclude: '/pages/contact' },
  };
  storefront.requests.length = 0;
  tab = await browser.newTab();
  await tab.addInitScript(PAGE_CLOCK);
  exceptions = await tab.collectExceptions();
  return async () => {
    expect(exceptions).toEqual([]);
    await tab.close();
  };
});

/** Opens a fresh collection page (its own URL, so nothing is cached from an earlier test). */
async function open() {
  page += 1;
  await tab.goto(`${storefront.origin}/collections/test-${page}`);
  // Module scripts run before the load event: wait for it, however long a loaded machine takes.
  for (let i = 0; i < 300 && (await tab.evaluate<string>('document.readyState')) !== 'complete'; i++) await sleep(50);
}

/**
 * The page's clock, moved by the test: with it installed, the page's timers with a delay (the script's
 * hover delay and its 200 ms prerender threshold) fire only when `tick` moves the clock past them, so a
 * hover lasts exactly as long as the test says however busy the machine (CDP round trips and sleeps on a
 * loaded machine stretched a "120 ms" hover past 200 ms). Zero-delay timers stay real.
 */
const PAGE_CLOCK = `(() => {
  const realSet = window.setTimeout.bind(window), realClear = window.clearTimeout.bind(window);
  const timers = new Map();
  let now = 0, seq = 1e9;
  window.setTimeout = (fn, ms, ...args) => {
    if (!(Number(ms) > 0)) return realSet(fn, ms, ...args);
    const id = ++seq;
    timers.set(id, { at: now + Number(ms), fn, args });
    return id;
  };
  window.clearTimeout = (id) => (timers.has(id) ? timers.delete(id) : realClear(id));
  window.__tick = (ms) => {
    const end = now + ms;
    for (;;) {
      let next = null;
      for (const [id, t] of timers) if (t.at <= end && (!next || t.at < next.t.at)) next = { id, t };
      if (!next) break;
      timers.delete(next.id);
      now = next.t.at;
      if (typeof next.t.fn === 'function') next.t.fn(...next.t.args);
    }
    now = end;
  };
})();`;

/** Waits until `ready()` holds (a request reached the server), however slow the machine; 15 s at most. */
async function until(ready: () => boolean) {
  for (let waited = 0; !ready() && waited < 15_000; waited += 50) await sleep(50);
}

/** Moves the page's clock (PAGE_CLOCK) by `ms`, running the timers that fall due, in order. */
const tick = (ms: number) => tab.evaluate(`window.__tick(${ms})`);

/** The pointer on a link for `ms` of the page's clock (PAGE_CLOCK). */
async function hover(selector: string, ms: number) {
  const { x, y } = await tab.centreOf(selector);
  await tab.mouse('mouseMoved', x, y);
  await tick(ms);
}

async function leave() {
  const { x, y } = await tab.centreOf('#title');
  await tab.mouse('mouseMoved', x, y);
}

/** Presses on a link and releases elsewhere: every pointer-down signal, but no navigation. */
async function pressWithoutClick(selector: string) {
  const { x, y } = await tab.centreOf(selector);
  await tab.mouse('mouseMoved', x, y);
  await tab.mouse('mousePressed', x, y);
  const away = await tab.centreOf('#title');
  await tab.mouse('mouseMoved', away.x, away.y);
  await tab.mouse('mouseReleased', away.x, away.y);
}

/** What the page asked Chromium to fetch in advance: [action, path] per rule or prefetch link. */
const speculated = () =>
  tab.evaluate<[string, string][]>(
    `[...document.querySelectorAll('script[type=speculationrules]')].flatMap((s) => Object.entries(JSON.parse(s.textContent)).flatMap(([action, rules]) => rules.flatMap((r) => (r.urls || []).map((u) => [action, new URL(u, location.href).pathname]))))
      .concat([...document.querySelectorAll('link[rel=prefetch]')].map((l) => ['link', new URL(l.href).pathname]))`,
  );

describe('speed-prefetch in Chromium', () => {
  it('is built from its source, and the storefront gets that build', async () => {
    expect(await staleFiles()).toEqual([]);
  });

  it('a 150 ms hover prefetches an allowed link once; a longer hover prerenders it from that fetch; the click shows it', async () => {
    await open();
    await hover('a[href="/products/alpha"]', 150);
    await tick(150); // still hovering: the hover now lasts over 200 ms
    await until(() => storefront.documentRequests('/products/alpha').length > 0);
    expect(storefront.documentRequests('/products/alpha').map((r) => r.purpose)).toEqual(['prefetch']);
    expect(await speculated()).toEqual([
      ['prefetch', '/products/alpha'],
      ['prerender', '/products/alpha'],
    ]);

    // Coming back, pressing: still one fetch per page.
    await leave();
    await hover('a[href="/products/alpha"]', 250);
    await pressWithoutClick('a[href="/products/alpha"]');
    await sleep(SETTLE_MS);
    expect(storefront.documentRequests('/products/alpha')).toHaveLength(1);

    const { x, y } = await tab.centreOf('a[href="/products/alpha"]');
    await tab.mouse('mouseMoved', x, y);
    await tick(300);
    await tab.mouse('mousePressed', x, y);
    await tab.mouse('mouseReleased', x, y);
    const shown = await waitForBeacon('/products/alpha');
    expect(shown.prerendered).toBe(true);
    expect(storefront.documentRequests('/products/alpha')).toHaveLength(1);
  });

  it('a hover that ends before 200 ms prefetches without prerendering', async () => {
    await open();
    const { x, y } = await tab.centreOf('a[href="/products/beta"]');
    await tab.mouse('mouseMoved', x, y);
    await tick(199); // the prefetch at 65 ms, and 1 ms short of the prerender
    await leave();
    await tick(1000);
    await until(() => storefront.documentRequests('/products/beta').length > 0); // the fetch itself is real
    expect(storefront.documentRequests('/products/beta').map((r) => r.purpose)).toEqual(['prefetch']);
    expect(await speculated()).toEqual([['prefetch', '/products/beta']]);
  });

  it('a press keeps it a prefetch: a prerender could not finish before the click', async () => {
    await open();
    const link = await tab.centreOf('a[href="/products/beta"]');
    const away = await tab.centreOf('#title');
    await tab.mouse('mouseMoved', link.x, link.y);
    await tick(10);
    await tab.mouse('mousePressed', link.x, link.y);
    await tick(1000); // held on the link well past 200 ms
    await tab.mouse('mouseMoved', away.x, away.y);
    await tab.mouse('mouseReleased', away.x, away.y);
    await until(() => storefront.documentRequests('/products/beta').length > 0);
    expect(await speculated()).toEqual([['prefetch', '/products/beta']]);
    expect(storefront.documentRequests('/products/beta')).toHaveLength(1);
  });

  it('a hover shorter than the delay fetches nothing; one as long as the delay fetches', async () => {
    await open();
    const link = await tab.centreOf('a[href="/products/beta"]');
    const away = await tab.centreOf('#title');
    await tab.mouse('mouseMoved', link.x, link.y);
    await tick(64); // the default delay is 65 ms
    await tab.mouse('mouseMoved', away.x, away.y);
    await tick(1000);
    await sleep(SETTLE_MS);
    expect(storefront.documentRequests('/products/beta')).toEqual([]);
    await tab.mouse('mouseMoved', link.x, link.y);
    await tick(65);
    await until(() => storefront.documentRequests('/products/beta').length > 0);
    expect(storefront.documentRequests('/products/beta').map((r) => r.purpose)).toEqual(['prefetch']);
  });

  it('never fetches cart, checkout, account, state-changing, download, opted-out, other-origin or same-page links', async () => {
    await open();
    const excluded = [
      '/cart',
      '/cart/add?id=4242&quantity=1',
      '/checkouts/cn/abc123',
      '/account/login',
      '/account/logout',
      '/fr/cart',
      '/discount/SAVE10',
      '/apps/wishlist',
      '/pages/contact',
      '/files/size-guide.pdf',
      '/products/gamma',
      '/products/delta',
      '/products/epsilon',
    ];
    const selectors = [
      ...excluded.map((href) => `a[href="${href}"]`),
      'a[href^="http://localhost"]',
      'a[href="#reviews"]',
      'a[href^="mailto:"]',
    ];
    for (const selector of selectors) {
      await hover(selector, 120);
      await pressWithoutClick(selector);
    }
    await sleep(SETTLE_MS);
    expect(storefront.requests.filter((r) => r.path !== `/collections/test-${page}`)).toEqual([]);
    expect(await speculated()).toEqual([]);

    // The same hover on an allowed link does fetch: the page and the script were working all along.
    await hover('a[href="/pages/about"]', 120);
    await until(() => storefront.documentRequests('/pages/about').length > 0);
    expect(storefront.documentRequests('/pages/about')).toHaveLength(1);
  });

  for (const [name, connection] of [
    ['Save-Data', { saveData: true, effectiveType: '4g' }],
    ['a 2g connection', { saveData: false, effectiveType: '2g' }],
  ] as const) {
    it(`fetches nothing under ${name}`, async () => {
      await tab.addInitScript(
        `Object.defineProperty(Navigator.prototype, 'connection', { get: () => (${JSON.stringify(connection)}) });`,
      );
      await open();
      await hover('a[href="/products/alpha"]', 150);
      await pressWithoutClick('a[href="/products/beta"]');
      await sleep(SETTLE_MS);
      expect(storefront.documentRequests('/products/alpha')).toEqual([]);
      expect(storefront.documentRequests('/products/beta')).toEqual([]);
    });
  }

  it('stops at the per-page limit set by the app embed', async () => {
    storefront.config.scriptData = { limit: '2' };
    await open();
    for (const href of ['/products/alpha', '/products/beta', '/collections/all']) {
      await hover(`a[href="${href}"]`, 120);
    }
    await until(() => storefront.documentRequests('/products/beta').length > 0);
    await sleep(SETTLE_MS); // and nothing more arrives
    expect(storefront.documentRequests('/products/alpha')).toHaveLength(1);
    expect(storefront.documentRequests('/products/beta')).toHaveLength(1);
    expect(storefront.documentRequests('/collections/all')).toEqual([]);
  });

  it('keeps at most two prerenders alive, cancelling the oldest (its prefetch stays)', async () => {
    await open();
    for (const href of ['/products/alpha', '/products/beta', '/collections/all']) {
      await hover(`a[href="${href}"]`, 300);
    }
    await sleep(SETTLE_MS);
    const rules = await speculated();
    expect(rules.filter(([action]) => action === 'prerender').map(([, path]) => path)).toEqual([
      '/products/beta',
      '/collections/all',
    ]);
    expect(rules.filter(([action]) => action === 'prefetch').map(([, path]) => path)).toEqual([
      '/products/alpha',
      '/products/beta',
      '/collections/all',
    ]);
  });

  it('data-mode=prefetch never prerenders', async () => {
    storefront.config.scriptData = { mode: 'prefetch' };
    await open();
    await hover('a[href="/products/alpha"]', 400);
    expect(await speculated()).toEqual([['prefetch', '/products/alpha']]);
  });

  it('touchstart and mousedown fetch at once, without waiting for the hover delay', async () => {
    storefront.config.scriptData = { delay: '5000' };
    await open();
    const beta = await tab.centreOf('a[href="/products/beta"]');
    await tab.touch('touchStart', beta.x, beta.y);
    await tab.touch('touchCancel', beta.x, beta.y);
    await pressWithoutClick('a[href="/pages/about"]');
    await until(
      () => storefront.documentRequests('/products/beta').length > 0 && storefront.documentRequests('/pages/about').length > 0,
    );
    expect(storefront.documentRequests('/products/beta')).toHaveLength(1);
    expect(storefront.documentRequests('/pages/about')).toHaveLength(1);
  });

  it('uses <link rel=prefetch> where speculation rules are missing', async () => {
    await tab.addInitScript('HTMLScriptElement.supports = undefined;');
    await open();
    await hover('a[href="/products/alpha"]', 150);
    await until(() => storefront.documentRequests('/products/alpha').length > 0);
    expect(storefront.documentRequests('/products/alpha').map((r) => r.purpose)).toEqual(['prefetch']);
    expect(await speculated()).toEqual([['link', '/products/alpha']]);
  });

  it('fills the HTTP cache with a navigation-like fetch where neither exists (Safari)', async () => {
    await tab.addInitScript('HTMLScriptElement.supports = undefined; DOMTokenList.prototype.supports = () => false;');
    await open();
    await hover('a[href="/products/alpha"]', 150);
    await until(() => storefront.documentRequests('/products/alpha').length > 0);
    const [request] = storefront.documentRequests('/products/alpha');
    expect(request?.purpose).toBe('');
    // Shopify answers with Vary: Accept, so only the Accept of a navigation makes the entry reusable.
    expect(request?.accept).toMatch(/^text\/html,application\/xhtml\+xml/);
  });

  it('does nothing, quietly, where the browser lacks what it needs (also as a classic script)', async () => {
    storefront.config.classicScript = true;
    await tab.addInitScript('window.Set = undefined;');
    await open();
    await hover('a[href="/products/alpha"]', 150);
    await pressWithoutClick('a[href="/products/alpha"]');
    await sleep(SETTLE_MS);
    expect(storefront.documentRequests('/products/alpha')).toEqual([]);
    // exceptions are checked after every test
  });
});

async function waitForBeacon(path: string) {
  for (let i = 0; i < 200; i++) {
    const shown = storefront.beacons.find((b) => b.kind === 'shown' && b.path === path);
    if (shown) return shown;
    await sleep(25);
  }
  throw new Error(`page ${path} was never shown`);
}
