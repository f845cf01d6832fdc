// npm run bench:admin -- [--routes /main,/pricing] [--presets desktop,mobile] [--runs 3] [--json FILE]
//   [--base http://localhost:8787 --token AUTH_TOKEN] (a product already running, e.g. `npm start`)
// The admin's Web Vitals as Shopify's Built for Shopify review sees them (issue 26). Starts the whole
// product as `npm start` does (scripts/start.mjs on free ports, its own local D1/R2 state), then runs
// Lighthouse 12.2.3 in Debian's Chromium (CHROME_PATH, default /usr/bin/chromium) with the desktop preset
// and the default mobile one (simulated slow 4G, 4x CPU slowdown) on every screen of the admin, and
// prints LCP, CLS, TBT and the JavaScript transferred per screen against the targets:
//   desktop LCP <= 1.0 s, CLS <= 0.05; mobile LCP <= 2.5 s, CLS <= 0.1, TBT <= 200 ms;
//   first-screen JavaScript <= 150 KB gzipped (transferred, on every screen and preset).
// Each run opens the screen directly (a fresh profile, cold cache) with the admin token in the URL.
// App Bridge's CDN script is resolved to nowhere (no network here), so it fails at once instead of
// waiting for a DNS timeout; in Shopify's admin it is served from Shopify's cache.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { productFor } from './lib/product';
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
const PRESETS = args.presets.split(',') as ('desktop' | 'mobile')[];
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
  jsKb: number; // JavaScript transferred (gzipped on the wire), KB
  jsRequests: number;
  ok: boolean;
};

type Audit = {
  numericValue?: number;
  details?: { items?: { resourceType?: string; transferSize?: number; requestCount?: number }[] };
};

export function verdict(f: Omit<AdminFigure, 'ok'>): boolean {
  const t = TARGETS[f.preset];
  return f.lcpMs <= t.lcpMs && f.cls <= t.cls && f.tbtMs <= t.tbtMs && f.jsKb <= TARGETS.jsKb;
}

async function measure(port: number, url: string, preset: 'desktop' | 'mobile'): Promise<Omit<AdminFigure, 'route' | 'ok'>> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
    preset === 'desktop' ? desktopConfig : undefined,
  );
  const audits = (result?.lhr.audits ?? {}) as Record<string, Audit>;
  const scripts = audits['resource-summary']?.details?.items?.find((i) => i.resourceType === 'script');
  return {
    preset,
    lcpMs: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    cls: audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    tbtMs: audits['total-blocking-time']?.numericValue ?? Number.NaN,
    jsKb: (scripts?.transferSize ?? Number.NaN) / 1024,
    jsRequests: scripts?.requestCount ?? 0,
  };
}

function table(figures: AdminFigure[]) {
  const rows = figures.map((f) => [
    f.route,
    f.preset,
    `${(f.lcpMs / 1000).toFixed(2)} s`,
    f.cls.toFixed(3),
    `${f.tbtMs.toFixed(0)} ms`,
    `${f.jsKb.toFixed(0)} KB (${f.jsRequests})`,
    f.ok ? 'ok' : 'MISS',
  ]);
  const head = ['screen', 'preset', 'LCP', 'CLS', 'TBT', 'JS transferred (files)', 'verdict'];
  console.log(
    `\nTargets: desktop LCP <= ${TARGETS.desktop.lcpMs / 1000} s, CLS <= ${TARGETS.desktop.cls}; ` +
      `mobile LCP <= ${TARGETS.mobile.lcpMs / 1000} s, CLS <= ${TARGETS.mobile.cls}, TBT <= ${TARGETS.mobile.tbtMs} ms; ` +
      `JavaScript <= ${TARGETS.jsKb} KB transferred` +
      (RUNS > 1 ? `; each figure the median of ${RUNS} runs` : ''),
  );
  printColumns(head, rows);
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
    for (const route of ROUTES) {
      for (const preset of PRESETS) {
        const url = `${started.base}${route}?authToken=${started.token}`;
        const runs: Omit<AdminFigure, 'route' | 'ok'>[] = [];
        for (let i = 0; i < RUNS; i++) {
          try {
            const m = await measure(chrome.port, url, preset);
            runs.push(m);
            console.log(
              `${route} ${preset}${RUNS > 1 ? ` (run ${i + 1}/${RUNS})` : ''}: LCP ${(m.lcpMs / 1000).toFixed(2)} s, CLS ${m.cls.toFixed(3)}, TBT ${m.tbtMs.toFixed(0)} ms, JS ${m.jsKb.toFixed(0)} KB`,
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
          ok: false,
        };
        f.ok = verdict(f);
        figures.push(f);
      }
    }
  } finally {
    chrome.kill();
    started.stop();
  }
  table(figures);
  if (args.json) writeFileSync(args.json, JSON.stringify({ targets: TARGETS, figures }, null, 2));
  process.exitCode = figures.every((f) => Number.isFinite(f.lcpMs)) ? 0 : 1;
}

void main();
