// Cloudflare limits that local runs cannot see (Miniflare enforces no CPU limit), held as configuration
// checks: the image consumer Worker has the CPU for the largest image the engine takes, with a margin,
// and the HTTP Worker keeps a protective limit. The engine's CPU figures are read from its own README
// (worker/images/README.md, every "CPU ms/MP" table column and "N ms/MP" in the text), so a worse figure
// recorded there tightens this check.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_PIXELS } from '../../worker/images/declared-size';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

type Consumer = { queue: string; max_batch_size?: number; max_retries?: number; dead_letter_queue?: string };
type WorkerConfig = {
  name?: string;
  main?: string;
  limits?: { cpu_ms?: number };
  queues?: { producers?: { binding: string; queue: string }[]; consumers?: Consumer[] };
  d1_databases?: { binding: string; database_name: string; database_id: string }[];
  r2_buckets?: { binding: string; bucket_name: string }[];
  vars?: Record<string, string>;
  env?: Record<string, WorkerConfig>;
};

const http = parse(read('wrangler.toml')) as WorkerConfig;
const images = parse(read('wrangler.images.toml')) as WorkerConfig;

/** Cloudflare's defaults and ceiling for CPU per invocation (ms). */
const DEFAULT_CPU_MS = 30_000;
const MAX_CPU_MS = 300_000;
/** Wrangler's default max_batch_size of a queue consumer. */
const DEFAULT_BATCH = 10;

/** Every CPU ms/MP figure the engine's README records. */
function engineCpuFigures(readme: string): number[] {
  const figures: number[] = [];
  const lines = readme.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i]!.startsWith('|') ? lines[i]!.split('|').map((c) => c.trim()) : [];
    const col = header.indexOf('CPU ms/MP');
    if (col < 0) continue;
    for (i += 2; i < lines.length && lines[i]!.startsWith('|'); i++) {
      const cell = (lines[i]!.split('|')[col] ?? '').replace(/\([^)]*\)/g, ''); // notes in parentheses are not figures
      figures.push(...[...cell.matchAll(/\d+/g)].map((m) => Number(m[0])));
    }
  }
  // In the text: "564 ms/MP", "795 / 622 / 564 ms/MP", "271-540 CPU ms/MP".
  for (const m of readme.matchAll(/((?:\d+\s*[/-]\s*)*\d+)\s+(?:CPU\s+)?ms\/MP/g))
    figures.push(...[...m[1]!.matchAll(/\d+/g)].map((n) => Number(n[0])));
  return figures;
}

const figures = engineCpuFigures(read('worker/images/README.md'));
const worstMsPerMp = Math.max(...figures);
const largestMp = MAX_IMAGE_PIXELS / 1_000_000;

/** The configurations Cloudflare runs: the top level (local, tests) and each [env.*]. */
function environments(config: WorkerConfig): [string, WorkerConfig][] {
  return [['top level', config], ...Object.entries(config.env ?? {})];
}

describe('CPU limits (Miniflare enforces none)', () => {
  it('reads the engine’s measured figures', () => {
    // 2435 ms/MP: PNG at Medium on the 19-PNG corpus (small images, machine at load 10-40), the worst.
    expect(figures.length).toBeGreaterThan(20);
    expect(worstMsPerMp).toBeGreaterThanOrEqual(2435);
    expect(largestMp).toBe(25);
  });

  it.each(environments(images))(
    'image Worker (%s): cpu_ms >= batch size x worst ms/MP x 25 MP x 2, within Cloudflare’s ceiling',
    (_name, config) => {
      const consumers = config.queues?.consumers ?? images.queues?.consumers ?? [];
      const optimise = consumers.filter((c) => c.queue.replace(/-(staging|production)$/, '') === 'image-optimise');
      expect(optimise).toHaveLength(1);
      const batch = optimise[0]!.max_batch_size ?? DEFAULT_BATCH;
      const cpuMs = config.limits?.cpu_ms ?? images.limits?.cpu_ms ?? DEFAULT_CPU_MS;
      const needed = batch * worstMsPerMp * largestMp * 2;
      expect(
        cpuMs,
        `cpu_ms ${cpuMs} < ${batch} x ${worstMsPerMp} ms/MP x ${largestMp} MP x 2 = ${needed}`,
      ).toBeGreaterThanOrEqual(needed);
      expect(cpuMs).toBeLessThanOrEqual(MAX_CPU_MS);
    },
  );

  it.each(environments(http))('HTTP Worker (%s): a protective limit, and no image-optimise consumer', (_name, config) => {
    const cpuMs = config.limits?.cpu_ms ?? http.limits?.cpu_ms;
    expect(cpuMs).toBeGreaterThan(0);
    expect(cpuMs).toBeLessThanOrEqual(DEFAULT_CPU_MS);
    const consumers = config.queues?.consumers ?? http.queues?.consumers ?? [];
    expect(consumers.map((c) => c.queue.replace(/-(staging|production)$/, ''))).not.toContain('image-optimise');
  });
});

describe('the image Worker has the HTTP Worker’s bindings', () => {
  const bindings = (c: WorkerConfig) => ({
    d1: c.d1_databases?.map(({ binding, database_name, database_id }) => ({ binding, database_name, database_id })),
    r2: c.r2_buckets,
    producers: c.queues?.producers,
    vars: c.vars,
  });

  it('the same D1, R2, queue producers and vars, at the top level and in each environment', () => {
    expect(bindings(images)).toEqual(bindings(http));
    expect(Object.keys(images.env ?? {})).toEqual(Object.keys(http.env ?? {}));
    for (const [name, config] of Object.entries(images.env ?? {}))
      expect(bindings(config), name).toEqual(bindings(http.env![name]!));
  });
});
