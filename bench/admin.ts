// npm run bench:admin -- [--routes /main,/pricing] [--presets desktop,mobile] [--runs 3] [--json FILE]
//   [--base http://localhost:8787 --token AUTH_TOKEN] (a product already running, e.g. `npm start`)
// The admin's Web Vitals as Shopify's Built for Shopify review sees them (issue 26). Starts the whole
// product as `npm start` does (scripts/start.mjs on free ports, its own local D1/R2 state), then runs
// Lighthouse 12.2.3 in Debian's Chromium (CHROME_PATH, default /usr/bin/chromium) with the desktop preset
// and the default mobile one (simulated slow 4G, 4x CPU slowdown) on every screen of the admin, and
// prints LCP, CLS, TBT and the JavaScript transferred per screen against the targets:
//   desktop LCP <= 1.0 s, CLS <= 0.05; mobile LCP <= 2.5 s, CLS <= 0.1, TBT <= 200 ms;
//   first-screen JavaScript <= 150 KB gzipped on the wire, on every screen and preset.
// First-screen JavaScript is what the served document asks for before the screen can hydrate: its entry
// script, its modulepreloads and the chunks its inline preload table lists for the screen's path, each
// counted as the gzipped body the product serves (as tests/config/bundle.test.ts counts the build; the
// load must have fetched every one of them). What the screen fetches later while it hydrates (its
// `<Later>` parts, dialogs) and Shopify's App Bridge script are in the second column, for information,
// with HTTP headers as Lighthouse counts transfer.
// /guidance is measured first, with the wizard pending, as a new merchant meets it; then the sample shop's
// wizard is finished, as most merchants' is, and each other path opens its own screen (with the wizard
// pending, /main opens /guidance and /setting the image page; past it, /guidance sends the merchant to /main).
// Each run opens the screen directly (a fresh profile, cold cache) with the admin token in the URL.
// App Bridge's CDN script is resolved to nowhere (no network here), so it fails at once instead of
// waiting for a DNS timeout; in Shopify's admin it is served from Shopify's cache.
import { writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { firstScreenScripts } from './lib/first-screen';
import { finishWizard, optimisedItem, productFor } from './lib/product';
import { printColumns } from './lib/report';
import { ADMIN_ROUTES, TARGETS } from './admin-routes';

export { ADMIN_ROUTES, TARGETS } from './admin-routes';

const { values: args } = parseArgs({
  options: {
    routes: { type: 'string' },
    presets: { type: 'string', default: 'desktop,mobile' },
    // Lighthouse's TBT and LCP move with the machine's load: each figure is the median of this many runs.
    runs: { type: 'string', default: '1' },
    json: { type: 'string' },
    base: { type: 'string' },
    token: { type: 'string' },
  },
});
const ROUTES = args.routes ? args.routes.split(',') : [...ADMIN_ROUTES];
type Preset = 'desktop' | 'mobile';
const PRESETS = args.presets.split(',') as Preset[];
const RUNS = Math.max(1, Number(args.runs) || 1);

/** The median of the finite values (NaN when there is none). */
export function median(xs: number[]): number {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!s.length) return Number.NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export type AdminFigure = {
  route: string;
  preset: 'desktop' | 'mobile';
  lcpMs: number;
  cls: number;
  tbtMs: number;
  jsKb: number; // first-screen JavaScript transferred (gzipped on the wire), KB
  jsRequests: number;
  allJsKb: number; // every script transferred during the load, KB
  allJsRequests: number;
  ok: boolean;
};

type Audit = {
  numericValue?: number;
  details?: { items?: { resourceType?: string; transferSize?: number; requestCount?: number; url?: string }[] };
};

/** The screen's first-screen scripts and their gzipped bodies as the product serves them, KB. */
async function firstScreenOf(base: string, url: string, route: string): Promise<{ files: Set<string>; kb: number }> {
  const listed = firstScreenScripts(await (await fetch(url)).text(), route);
  if (!listed) throw new Error(`${route}: the served document's preload table does not list it`);
  const files = new Set(listed);
  let bytes = 0;
  for (const f of files) bytes += await gzippedBody(`${base}${f}`);
  return { files, kb: bytes / 1024 };
}

/** The body's bytes as they travel with `Accept-Encoding: gzip` (node:http: fetch would decompress it). */
function gzippedBody(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
      if (res.headers['content-encoding'] !== 'gzip') reject(new Error(`${url} is not served gzipped`));
      let n = 0;
      res.on('data', (c: Buffer) => (n += c.length));
      res.on('end', () => resolve(n));
    }).on('error', reject);
  });
}

export function verdict(f: Omit<AdminFigure, 'ok'>): boolean {
  const t = TARGETS[f.preset];
  return f.lcpMs <= t.lcpMs && f.cls <= t.cls && f.tbtMs <= t.tbtMs && f.jsKb <= TARGETS.jsKb;
}

async function measure(
  port: number,
  url: string,
  preset: 'desktop' | 'mobile',
  firstScreen: { files: Set<string>; kb: number },
): Promise<Omit<AdminFigure, 'route' | 'ok'>> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
    preset === 'desktop' ? desktopConfig : undefined,
  );
  const audits = (result?.lhr.audits ?? {}) as Record<string, Audit>;
  const scripts = audits['resource-summary']?.details?.items?.find((i) => i.resourceType === 'script');
  const fetched = new Set(
    (audits['network-requests']?.details?.items ?? []).filter((r) => r.url).map((r) => new URL(r.url!).pathname),
  );
  const missing = [...firstScreen.files].filter((f) => !fetched.has(f));
  if (missing.length) console.error(`${url}: the load did not fetch ${missing.join(', ')} of its document's first screen`);
  return {
    preset,
    lcpMs: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    cls: audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    tbtMs: audits['total-blocking-time']?.numericValue ?? Number.NaN,
    // the screen the load showed is not the one its document prepared: no figure rather than a wrong one
    jsKb: missing.length ? Number.NaN : firstScreen.kb,
    jsRequests: firstScreen.files.size,
    allJsKb: (scripts?.transferSize ?? Number.NaN) / 1024,
    allJsRequests: scripts?.requestCount ?? 0,
  };
}

function table(figures: AdminFigure[]) {
  const rows = figures.map((f) => [
    f.route,
    f.preset,
    `${(f.lcpMs / 1000).toFixed(2)} s`,
    f.cls.toFixed(3),
    `${f.tbtMs.toFixed(0)} ms`,
    `${f.jsKb.toFixed(1)} KB (${f.jsRequests})`,
    `${f.allJsKb.toFixed(0)} KB (${f.allJsRequests})`,
    f.ok ? 'ok' : 'MISS',
  ]);
  const head = ['screen', 'preset', 'LCP', 'CLS', 'TBT', 'first-screen JS (files)', 'all JS in the load', 'verdict'];
  console.log(
    `\nTargets: desktop LCP <= ${TARGETS.desktop.lcpMs / 1000} s, CLS <= ${TARGETS.desktop.cls}; ` +
      `mobile LCP <= ${TARGETS.mobile.lcpMs / 1000} s, CLS <= ${TARGETS.mobile.cls}, TBT <= ${TARGETS.mobile.tbtMs} ms; ` +
      `first-screen JavaScript <= ${TARGETS.jsKb} KB transferred` +
      (RUNS > 1 ? `; each figure the median of ${RUNS} runs` : ''),
  );
  printColumns(head, rows);
}

/** One screen on one preset: the medians of RUNS Lighthouse loads. */
async function measureScreen(chromePort: number, base: string, token: string, route: string, search: string, preset: Preset) {
  const url = `${base}${route}?${search}authToken=${token}`;
  const firstScreen = await firstScreenOf(base, url, route);
  const runs: Omit<AdminFigure, 'route' | 'ok'>[] = [];
  for (let i = 0; i < RUNS; i++) {
    try {
      const m = await measure(chromePort, url, preset, firstScreen);
      runs.push(m);
      console.log(
        `${route} ${preset}${RUNS > 1 ? ` (run ${i + 1}/${RUNS})` : ''}: LCP ${(m.lcpMs / 1000).toFixed(2)} s, CLS ${m.cls.toFixed(3)}, TBT ${m.tbtMs.toFixed(0)} ms, first-screen JS ${m.jsKb.toFixed(1)} KB, all JS ${m.allJsKb.toFixed(0)} KB`,
      );
    } catch (e) {
      console.error(`${route} ${preset}: Lighthouse failed: ${(e as Error).message}`);
    }
  }
  const f: AdminFigure = {
    route,
    preset,
    lcpMs: median(runs.map((r) => r.lcpMs)),
    cls: median(runs.map((r) => r.cls)),
    tbtMs: median(runs.map((r) => r.tbtMs)),
    jsKb: median(runs.map((r) => r.jsKb)),
    jsRequests: runs[0]?.jsRequests ?? 0,
    allJsKb: median(runs.map((r) => r.allJsKb)),
    allJsRequests: runs[0]?.allJsRequests ?? 0,
    ok: false,
  };
  f.ok = verdict(f);
  return f;
}

async function main() {
  const started = await productFor('admin', args);
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--host-resolver-rules=MAP cdn.shopify.com ~NOTFOUND',
    ],
  });
  const figures: AdminFigure[] = [];
  try {
    const screen = async (route: string, search = '') => {
      for (const preset of PRESETS)
        figures.push(await measureScreen(chrome.port, started.base, started.token, route, search, preset));
    };
    // The wizard as a new merchant sees it, while it is pending (a shop past it is sent on to /main).
    if (ROUTES.includes('/guidance')) await screen('/guidance');
    await finishWizard(started.base, started.token);
    for (const route of ROUTES.filter((r) => r !== '/guidance'))
      // The details screen as its link opens it: the item in the address (a reload, a bookmark, a shared link).
      await screen(
        route,
        route === '/image_optimisation_details' ? `item=${await optimisedItem(started.base, started.token)}&` : '',
      );
  } finally {
    chrome.kill();
    started.stop();
  }
  figures.sort((a, b) => ROUTES.indexOf(a.route) - ROUTES.indexOf(b.route));
  table(figures);
  if (args.json) writeFileSync(args.json, JSON.stringify({ targets: TARGETS, figures }, null, 2));
  process.exitCode = figures.every((f) => Number.isFinite(f.lcpMs)) ? 0 : 1;
}

void main();
