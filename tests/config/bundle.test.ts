// What Cloudflare would receive: `wrangler deploy --dry-run` bundles each Worker as a deploy does
// (nothing is uploaded, no account needed), and the gzipped Worker must stay within the budget
// (issue 22: at most 1.5 MB gzipped; Cloudflare refuses a Worker above 3 MB on the free plan, 10 MB on
// paid ones, and start-up time grows with the bundle).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const BUDGET_BYTES = 1_500_000;
const out = mkdtempSync(join(tmpdir(), 'dry-run-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function dryRun(config: string, outdir: string): Promise<{ code: number | null; output: string }> {
  mkdirSync(join(ROOT, 'dist/admin'), { recursive: true }); // the assets folder wrangler.toml names
  return new Promise((resolve) => {
    const child = spawn('npx', ['wrangler', 'deploy', '--dry-run', '-c', config, '--outdir', outdir], {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
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
  it.each(['wrangler.toml', 'wrangler.images.toml'])('%s bundles, and the gzipped Worker is at most 1.5 MB', async (config) => {
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
    expect(wranglerGzip).toBeLessThanOrEqual(BUDGET_BYTES);
    expect(ours).toBeLessThanOrEqual(BUDGET_BYTES);
  });
});
