// npm run bench:admin-interactions -- [--runs 3] [--json FILE] [--base http://localhost:8787 --token AUTH_TOKEN]
// The admin while the merchant works in it (issue 26, item 3): no long task over 200 ms and a Total
// Blocking Time of at most 200 ms while opening the settings sheet, while a job runs and the screen polls
// its progress, and while paging the history. Lighthouse measures the first load only (bench:admin), so
// this drives the same Debian Chromium with Lighthouse's mobile profile (a 390 px phone viewport, the
// CPU slowed 4x through the DevTools protocol, as Lighthouse's devtools throttling does) and reads the
// browser's own Long Tasks and Event Timing entries during each interaction:
//   TBT = the sum over long tasks of their time beyond 50 ms (Lighthouse's definition);
//   longest task; slowest interaction (Event Timing's duration: input to the next paint, as INP counts it).
// The product is started as `npm start` does (its own ports and local state); the sample shop's settings
// are saved once through the API (the wizard's call) so that "Manually optimize" starts a job (in the
// first run: later runs of the same shop find nothing left to optimise and measure the other two).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { median, printColumns } from './lib/report';
import { finishWizard, productFor } from './lib/product';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    json: { type: 'string' },
    base: { type: 'string' },
    token: { type: 'string' },
  },
});
const RUNS = Math.max(1, Number(args.runs) || 1);
/** Issue 26: no long task over 200 ms, TBT at most 200 ms on the mobile profile. */
export const INTERACTION_TARGETS = { longestTaskMs: 200, tbtMs: 200 };

type Window = { tbtMs: number; longestTaskMs: number; slowestInteractionMs: number; tasks: number };
export type InteractionFigure = Window & { scenario: string; ok: boolean };

// Collected from the first byte of every document: long tasks and interactions (Event Timing).
const OBSERVERS = `
  window.__long = []; window.__events = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push([e.startTime, e.duration]); })
    .observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.interactionId) window.__events.push([e.startTime, e.duration]); })
    .observe({ type: 'event', durationThreshold: 16, buffered: true });
`;

/** What the page recorded since `from` (performance.now() in the page). */
export function windowFrom(long: [number, number][], events: [number, number][], from: number): Window {
  const tasks = long.filter(([start]) => start >= from);
  return {
    tbtMs: tasks.reduce((sum, [, d]) => sum + Math.max(0, d - 50), 0),
    longestTaskMs: Math.max(0, ...tasks.map(([, d]) => d)),
    slowestInteractionMs: Math.max(0, ...events.filter(([start]) => start >= from).map(([, d]) => d)),
    tasks: tasks.length,
  };
}

async function measure(page: Page, during: () => Promise<void>): Promise<Window> {
  const from = await page.evaluate(() => performance.now());
  await during();
  // The work an interaction starts may end after its last visible change: a quiet second is included.
  await page.waitForTimeout(1000);
  const [long, events] = await page.evaluate(() => {
    const w = window as unknown as { __long: [number, number][]; __events: [number, number][] };
    return [w.__long, w.__events] as const;
  });
  return windowFrom(long, events, from);
}

/** A header action: a button of the page header on wide screens, an item of its actions menu on phones. */
async function headerAction(page: Page, name: string): Promise<void> {
  const header = page.locator('.Polaris-Page-Header__Row').first();
  const button = header.getByRole('button', { name, exact: true });
  if (await button.first().isVisible()) return button.first().click();
  await header
    .getByRole('button', { name: /actions/i })
    .first()
    .click();
  await page
    .getByRole('menuitem', { name, exact: true })
    .or(page.locator('.Polaris-Popover').getByRole('button', { name, exact: true }))
    .first()
    .click();
}

async function openScreen(page: Page, base: string, token: string): Promise<void> {
  await page.goto(`${base}/image_optimisation?authToken=${token}`);
  await page.waitForSelector('#root[data-live]', { timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1500);
}

/** One pass over the three interactions on a fresh page; the first pass also fills the history. */
async function pass(page: Page, base: string, token: string): Promise<Record<string, Window>> {
  const out: Record<string, Window> = {};
  await openScreen(page, base, token);
  out['open the settings sheet'] = await measure(page, async () => {
    await headerAction(page, 'Settings');
    const sheet = page.getByRole('dialog', { name: 'Settings' });
    // The form replaces the sheet's skeleton once the settings are read.
    await sheet.getByText('Compression', { exact: false }).first().waitFor({ timeout: 30_000 });
  });
  await page.getByRole('dialog', { name: 'Settings' }).getByRole('button', { name: 'Close' }).click();

  // A job needs items left to optimise: a later run of the same shop has none (measured in the first).
  await headerAction(page, 'Manually optimize');
  const dialog = page.getByRole('dialog').filter({ hasText: 'Optimize now' });
  await dialog
    .getByRole('checkbox', { name: /select all/i })
    .first()
    .check({ force: true });
  const optimise = dialog.getByRole('button', { name: 'Optimize now' });
  if (await optimise.isEnabled()) {
    out['start a job, then its progress polled for 15 s'] = await measure(page, async () => {
      await optimise.click();
      await page.waitForTimeout(15_000);
    });
  } else await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The history lists the optimised items (10 per page; more than 10 once the job is far enough): the next page.
  await page.getByText(/Showing 1 - 10 of (1[1-9]|[2-9]\d|\d{3,}) /).waitFor({ timeout: 300_000 });
  out['page the history'] = await measure(page, async () => {
    await page.getByRole('button', { name: 'Next' }).last().click();
    await page.getByText(/Showing 11 - /).waitFor({ timeout: 30_000 });
  });
  return out;
}

function table(figures: InteractionFigure[]): void {
  const rows = figures.map((f) => [
    f.scenario,
    `${f.tbtMs.toFixed(0)} ms`,
    `${f.longestTaskMs.toFixed(0)} ms`,
    `${f.slowestInteractionMs.toFixed(0)} ms`,
    String(f.tasks),
    f.ok ? 'ok' : 'MISS',
  ]);
  const head = [
    'interaction (mobile: 390 px, CPU 4x slower)',
    'TBT',
    'longest task',
    'slowest interaction',
    'long tasks',
    'verdict',
  ];
  console.log(
    `\nTargets: no long task over ${INTERACTION_TARGETS.longestTaskMs} ms, TBT <= ${INTERACTION_TARGETS.tbtMs} ms` +
      (RUNS > 1 ? `; each figure the median of ${RUNS} runs` : ''),
  );
  printColumns(head, rows);
}

async function main() {
  const started = await productFor('admin-interactions', args);
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--host-resolver-rules=MAP cdn.shopify.com ~NOTFOUND',
    ],
  });
  const runs: Record<string, Window>[] = [];
  try {
    await finishWizard(started.base, started.token);
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      });
      await context.addInitScript(OBSERVERS);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const r = await pass(page, started.base, started.token);
      runs.push(r);
      for (const [scenario, w] of Object.entries(r))
        console.log(
          `${scenario}${RUNS > 1 ? ` (run ${i + 1}/${RUNS})` : ''}: TBT ${w.tbtMs.toFixed(0)} ms, longest task ${w.longestTaskMs.toFixed(0)} ms, slowest interaction ${w.slowestInteractionMs.toFixed(0)} ms`,
        );
      await context.close();
    }
  } finally {
    await browser.close();
    started.stop();
  }
  const figures: InteractionFigure[] = Object.keys(runs[0] ?? {}).map((scenario) => {
    const of = (k: keyof Window) => median(runs.map((r) => r[scenario]?.[k] ?? Number.NaN));
    const f = {
      scenario,
      tbtMs: of('tbtMs'),
      longestTaskMs: of('longestTaskMs'),
      slowestInteractionMs: of('slowestInteractionMs'),
      tasks: of('tasks'),
    };
    return { ...f, ok: f.tbtMs <= INTERACTION_TARGETS.tbtMs && f.longestTaskMs <= INTERACTION_TARGETS.longestTaskMs };
  });
  table(figures);
  if (args.json) writeFileSync(args.json, JSON.stringify({ targets: INTERACTION_TARGETS, figures }, null, 2));
  process.exitCode = figures.length === 3 ? 0 : 1;
}

void main();
