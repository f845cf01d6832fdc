// What Cloudflare would receive: `wrangler deploy --dry-run` bundles each Worker as a deploy does
// (nothing is uploaded, no account needed), and the gzipped Worker must stay within the budget
// (issue 22: at most 1.5 MB gzipped; Cloudflare refuses a Worker above 3 MB on the free plan, 10 MB on
// paid ones, and start-up time grows with the bundle). The HTTP Worker also renders the admin's first
// screen into its document (issue 26, worker/document-render.ts): React DOM's server renderer, Polaris, the
// router and the screens, and the 21 catalogues ours and Polaris' (about 310 KB gzipped of the 650 KB it
// added), loaded on the first document an isolate serves rather than at start-up.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { firstScreenScripts } from '../../bench/lib/first-screen';

const ROOT = join(import.meta.dirname, '../..');
const BUDGET_BYTES: Record<string, number> = { 'wrangler.toml': 2_100_000, 'wrangler.images.toml': 1_500_000 };
const out = mkdtempSync(join(tmpdir(), 'dry-run-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function dryRun(config: string, outdir: string): Promise<{ code: number | null; output: string }> {
  mkdirSync(join(ROOT, 'dist/admin'), { recursive: true }); // the assets folder wrangler.toml names
  return new Promise((resolve) => {
    const child = spawn('npx', ['wrangler', 'deploy', '--dry-run', '-c', config, '--outdir', outdir], {
      cwd: ROOT,
      // NODE_ENV as a deploy has it (unset: wrangler bundles for production), not vitest's 'test', which
      // would bundle React's development builds for the Worker's render of the admin's first screen.
      env: { ...process.env, NODE_ENV: 'production', WRANGLER_SEND_METRICS: 'false' },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The modules of the bundle (JS and wasm; not the source map or wrangler's README), each gzipped. */
function gzippedBytes(outdir: string): number {
  return readdirSync(outdir)
    .filter((f) => !f.endsWith('.map') && f !== 'README.md')
    .reduce((sum, f) => sum + gzipSync(readFileSync(join(outdir, f))).length, 0);
}

describe('wrangler deploy --dry-run', { timeout: 180_000 }, () => {
  it.each(['wrangler.toml', 'wrangler.images.toml'])(
    '%s bundles, and the gzipped Worker is within its budget',
    async (config) => {
      const outdir = join(out, config);
      const { code, output } = await dryRun(config, outdir);
      expect(code, output).toBe(0);
      const reported = /Total Upload: [\d.]+ KiB \/ gzip: ([\d.]+) KiB/.exec(output);
      expect(reported, output).not.toBeNull();
      const wranglerGzip = Number(reported![1]) * 1024;
      const ours = gzippedBytes(outdir);
      console.log(
        `${config}: gzip ${(wranglerGzip / 1024).toFixed(1)} KiB (wrangler), ${(ours / 1024).toFixed(1)} KiB (modules gzipped)`,
      );
      expect(wranglerGzip).toBeLessThanOrEqual(BUDGET_BYTES[config]!);
      expect(ours).toBeLessThanOrEqual(BUDGET_BYTES[config]!);
    },
  );
});

// ---- the admin's first screen (issue 26) ----
// What a screen downloads before it can show anything: the entry script and the modulepreloads in
// index.html, plus the screen's own chunks that the inline preload table lists for its path
// (admin/build/screen-preload.ts), each gzipped as it travels. The target is 150 KB on every
// screen (README, issue 26), and every screen is at or below it: the limits are what the build reached
// (KB, 1 KB = 1024 bytes) plus about 1 KB, never above 150, so it cannot grow unnoticed (new code for a
// screen goes into a lazy chunk, or the limit is raised here with the reason, up to 150). /main and
// /image_optimisation are within 1.5 KB of 150. What is left is mostly React DOM, the router, i18next,
// TanStack Query and jotai (the stack's state library, about 2.9 KB): about 96 KB of the entry's 130.5.
const FIRST_SCREEN_KB: Record<string, number> = {
  '/main': 150, // 148.6
  '/image_optimisation': 150, // 149.4
  '/image_optimisation_details': 147.5, // 146.4
  '/pricing': 143.5, // 142.2
  '/setting': 141, // 139.8
  '/guidance': 137.5, // 136.3
  '/recommended-apps': 136, // 135.1
  '/privacy-policy': 134, // 133.1
  '/cookieError': 133, // 131.8
  '/error': 132.5, // 131.1
  '/404': 132.5, // 131.1
};
/** The stylesheet every screen waits for (render-blocking), gzipped. */
const STYLESHEET_KB = 34;

function viteBuild(outDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['vite', 'build', '--config', 'admin/vite.config.ts', '--outDir', outDir, '--logLevel', 'warn'], {
      cwd: ROOT,
      // vitest sets NODE_ENV=test, which would make React's development build
      env: { ...process.env, NODE_ENV: 'production' },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('admin build', { timeout: 180_000 }, () => {
  it('each screen starts with at most its budget of JavaScript, and the stylesheet within its own', async () => {
    const dir = join(out, 'admin');
    const { code, output } = await viteBuild(dir);
    expect(code, output).toBe(0);
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    const kb = (file: string) => gzipSync(readFileSync(join(dir, file.replace(/^\//, '')))).length / 1024;
    const css = [...html.matchAll(/<link rel="stylesheet"[^>]* href="([^"]+)"/g)].map((m) => m[1]!);
    const measured: Record<string, number> = {};
    for (const route of Object.keys(FIRST_SCREEN_KB)) {
      const files = firstScreenScripts(html, route);
      expect(files, route).toBeDefined();
      measured[route] = files!.reduce((sum, f) => sum + kb(f), 0);
    }
    const stylesheet = css.reduce((sum, f) => sum + kb(f), 0);
    console.log(
      'first-screen JavaScript (KB gzipped):',
      JSON.stringify(measured, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(1)) : v)),
      'stylesheet',
      stylesheet.toFixed(1),
    );
    for (const [route, limit] of Object.entries(FIRST_SCREEN_KB)) {
      expect(limit, `${route}: the issue's target is 150 KB`).toBeLessThanOrEqual(150);
      expect(measured[route], `${route}: first-screen JavaScript (KB gzipped) above its budget`).toBeLessThanOrEqual(limit);
    }
    expect(stylesheet).toBeLessThanOrEqual(STYLESHEET_KB);
  });
});
