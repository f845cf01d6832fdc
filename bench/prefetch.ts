// npm run bench:prefetch: what the storefront script buys a visitor, measured in Debian's Chromium.
//
// A visitor on a collection page hovers a product link for 150 ms, then clicks (90 ms press). The
// product page answers in 300-600 ms like a Shopify storefront, then loads its photos. We print the
// median time from the click to the next page being shown (its load event, or the activation of a
// prerendered page) for: no script; Shopify's conservative speculation rules alone; instant.page 5.2
// (from npm), alone and on top of Shopify's rules; our script on top of them. Then the same for a
// visitor who hovers 500 ms, the gzipped sizes, and the main-thread time each script costs on load.
//
// Physics first: whatever a script does, the page cannot arrive before its request was sent plus the
// server's time to first byte. Hovering 150 ms with a 65 ms threshold sends it 175 ms before the click
// (85 ms of hover left + the press), so with 300-600 ms to first byte no script can save more than
// ~175 ms there; a longer hover is where prerendering shows its worth.
//
// HTML is served `Cache-Control: private, max-age=0` (storefront pages are per-visitor and never
// fresh in the browser cache). That matters for <link rel=prefetch>: Chromium makes a click that
// comes while such a prefetch is still in flight wait for it, then fetch the page again, so a
// hover-prefetch can end up slower than none. Speculation-rules fetches do not have that problem.
// HTML_CACHE_CONTROL="private, max-age=60" shows instant.page on pages that may be reused.
//
// TRIALS=n (default 15) sets trials per scenario. Scenarios are interleaved, and trial i gets the same
// time to first byte in every scenario, so they meet the same server.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { transform } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, CdpBrowser } from '../tests/browser/prefetch/cdp-tab';
import {
  INSTANT_PAGE_PATH,
  SPEED_PREFETCH_PATH,
  type Scenario,
  type Storefront,
  startStorefront,
} from '../tests/browser/prefetch/storefront-server';

const TRIALS = Number(process.env.TRIALS ?? 15);
const HOVERS_MS = [150, 500];
const PRESS_MS = 90;
const SCENARIOS: {
  key: string;
  scenario: Scenario;
  shopifyRules: boolean;
  label: string;
  scriptData?: Record<string, string>;
}[] = [
  { key: 'none', scenario: 'none', shopifyRules: false, label: 'no script' },
  { key: 'shopify', scenario: 'shopify-rules', shopifyRules: true, label: 'Shopify conservative rules alone' },
  { key: 'instantalone', scenario: 'instant.page', shopifyRules: false, label: 'instant.page 5.2 alone' },
  { key: 'instant', scenario: 'instant.page', shopifyRules: true, label: 'instant.page 5.2 + Shopify rules' },
  { key: 'speed', scenario: 'speed-prefetch', shopifyRules: true, label: 'speed-prefetch + Shopify rules' },
  {
    key: 'speedlight',
    scenario: 'speed-prefetch',
    shopifyRules: true,
    label: '  same, data-mode=prefetch',
    scriptData: { mode: 'prefetch' },
  },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

/** Trial i's product page answers after the same delay in every scenario: 300..600 ms, shuffled. */
function ttfbFor(path: string): number {
  const match = /^\/products\/next-bench-\w+-(\d+)$/.exec(path);
  if (!match) return 120; // the collection page the visitor starts on (not measured)
  const trial = Number(match[1]);
  return 300 + (((trial * 7) % TRIALS) / Math.max(1, TRIALS - 1)) * 300;
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting for the next page');
    await sleep(10);
  }
}

async function clickToShown(
  browser: CdpBrowser,
  storefront: Storefront,
  key: string,
  trial: number,
  hoverMs: number,
): Promise<{ ms: number; prerendered: boolean }> {
  const start = `/collections/bench-${key}${hoverMs}-${trial}`;
  const target = `/products/next-bench-${key}${hoverMs}-${trial}`;
  const tab = await browser.newTab();
  try {
    await tab.goto(storefront.origin + start);
    await sleep(300); // module scripts run after parsing; let the page settle like a reading visitor
    const { x, y } = await tab.centreOf('#bench-link');
    await tab.mouse('mouseMoved', x, y);
    await sleep(hoverMs);
    await tab.mouse('mousePressed', x, y);
    await sleep(PRESS_MS);
    await tab.mouse('mouseReleased', x, y);
    const shown = await waitFor(() => storefront.beacons.find((b) => b.kind === 'shown' && b.path === target));
    const click = await waitFor(() => storefront.beacons.find((b) => b.kind === 'click' && b.path === target));
    return { ms: shown.at - click.at, prerendered: shown.prerendered === true };
  } finally {
    await tab.close().catch(() => {});
  }
}

async function measureNavigation(storefront: Storefront, hoverMs: number) {
  const browser = await CdpBrowser.launch();
  const results = new Map(SCENARIOS.map((s) => [s.key, { ms: [] as number[], prerendered: 0 }]));
  try {
    // Warm the theme assets once, as any visitor who already saw a page has them.
    const warm = await browser.newTab();
    await warm.goto(`${storefront.origin}/collections/warm`);
    await warm.close();
    for (let trial = 0; trial < TRIALS; trial++) {
      for (const s of SCENARIOS) {
        storefront.config.scenario = s.scenario;
        storefront.config.shopifyRules = s.shopifyRules;
        storefront.config.scriptData = s.scriptData ?? {};
        const result = await clickToShown(browser, storefront, s.key, trial, hoverMs);
        const entry = results.get(s.key);
        entry?.ms.push(result.ms);
        if (entry && result.prerendered) entry.prerendered++;
      }
    }
  } finally {
    await browser.close();
  }
  return results;
}

/**
 * Main-thread time of a script while its page loads: compile, module evaluation, code caching, from
 * a Chromium trace (the same events Lighthouse's bootup-time audit counts). Median of `runs` loads.
 */
async function mainThreadMs(storefront: Storefront, scenario: Scenario, scriptUrl: string, runs = 10): Promise<number> {
  storefront.config.scenario = scenario;
  storefront.config.shopifyRules = false;
  storefront.config.scriptData = {};
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await browser.newPage();
  const samples: number[] = [];
  try {
    await page.goto(`${storefront.origin}/pages/warm-${scenario}`);
    for (let run = 0; run < runs; run++) {
      await browser.startTracing(page, { categories: ['devtools.timeline', 'v8', 'disabled-by-default-devtools.timeline'] });
      await page.goto(`${storefront.origin}/pages/trace-${scenario}-${run}`);
      await page.waitForTimeout(200);
      const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] } | TraceEvent[];
      samples.push(scriptTime(Array.isArray(trace) ? trace : trace.traceEvents, scriptUrl));
    }
  } finally {
    await browser.close();
  }
  return median(samples);
}

type TraceEvent = { name: string; ph: string; ts: number; dur?: number; tid: number; args?: { data?: { url?: string } } };

function scriptTime(events: TraceEvent[], scriptUrl: string): number {
  const ours = (e: TraceEvent) =>
    e.ph === 'X' && (JSON.stringify(e.args ?? {}).includes(scriptUrl) || e.name === 'v8.evaluateModule');
  const compile = events.find((e) => ours(e) && e.name.startsWith('v8.compile'));
  if (!compile) return 0;
  // The page's only module script is the one measured, so its evaluateModule is ours; nested events
  // are merged so nothing is counted twice.
  const spans = events
    .filter((e) => e.tid === compile.tid && ours(e))
    .map((e) => [e.ts, e.ts + (e.dur ?? 0)] as const)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [s, e] of spans) {
    if (e <= end) continue;
    total += e - Math.max(s, end);
    end = e;
  }
  return total / 1000;
}

async function sizes() {
  const ours = readFileSync(SPEED_PREFETCH_PATH, 'utf8');
  const instant = readFileSync(INSTANT_PAGE_PATH, 'utf8');
  const instantMin = (await transform(instant, { loader: 'js', minify: true, legalComments: 'inline' })).code;
  const gz = (text: string) => gzipSync(text, { level: 9 }).length;
  return {
    ours: { raw: ours.length, gzip: gz(ours) },
    instant: { raw: instant.length, gzip: gz(instant) },
    instantMin: { raw: instantMin.length, gzip: gz(instantMin) },
  };
}

const storefront = await startStorefront({
  ttfbMs: ttfbFor,
  htmlCacheControl: process.env.HTML_CACHE_CONTROL ?? 'private, max-age=0',
});
try {
  console.log(
    `Chromium ${CHROMIUM}, ${TRIALS} trials per scenario; press ${PRESS_MS} ms; product pages answer in 300-600 ms, HTML Cache-Control: ${storefront.config.htmlCacheControl}\n`,
  );
  const size = await sizes();
  console.log('Script size (gzip -9)');
  console.log(`  speed-prefetch (built, minified)    ${size.ours.gzip} B gzipped (${size.ours.raw} B)   budget 1536 B`);
  console.log(`  instant.page 5.2 as published       ${size.instant.gzip} B gzipped (${size.instant.raw} B)`);
  console.log(`  instant.page 5.2 minified (esbuild) ${size.instantMin.gzip} B gzipped (${size.instantMin.raw} B)`);

  for (const hoverMs of HOVERS_MS) {
    const results = await measureNavigation(storefront, hoverMs);
    const baseline = median(results.get('none')?.ms ?? []);
    console.log(`\nHover ${hoverMs} ms, then click: click to next page shown (median, ms)`);
    for (const s of SCENARIOS) {
      const r = results.get(s.key);
      if (!r) continue;
      const m = median(r.ms);
      const share = baseline ? ` ${((m / baseline) * 100).toFixed(0).padStart(3)}% of no script` : '';
      const pre = r.prerendered ? `, prerendered ${r.prerendered}/${r.ms.length}` : '';
      console.log(
        `  ${s.label.padEnd(34)} ${m.toFixed(0).padStart(5)}${share}  (min ${Math.min(...r.ms).toFixed(0)}, max ${Math.max(...r.ms).toFixed(0)}${pre})`,
      );
    }
  }

  console.log('\nMain-thread time of the script on page load (median of 10 loads, ms)');
  console.log(
    `  speed-prefetch    ${(await mainThreadMs(storefront, 'speed-prefetch', '/assets/speed-prefetch.js')).toFixed(2)}`,
  );
  console.log(`  instant.page 5.2  ${(await mainThreadMs(storefront, 'instant.page', '/assets/instantpage.js')).toFixed(2)}`);
} finally {
  await storefront.close();
}
