// npm run bench:images -- --corpus DIR [--json FILE] [--levels lossless,low,medium,high] [--metric auto|butteraugli|ssim]
//                         [--compare-guard] [--only SUBSTRING] [--large DIR] [--budget-mb N] [--fresh] [--warm]
// --large DIR builds (once) and runs the large set (bench/lib/large-set.ts: wallpaper crops of 2048-4000 px,
// 4/12/25 MP JPEG/PNG/WebP, 9 MP PNG graphics) and compares the JPEG savings with native MozJPEG q75.
// The engine runs with the product's memory budget; --budget-mb only for measuring what a left-unchanged
// image would need.
// Runs the image engine inside workerd (wrangler's unstable_startWorker with worker/images/bench-entry.ts)
// over every JPEG/PNG/WebP in the corpus at each level and prints bytes saved, kept-as-original counts,
// a perceptual score, ms per megapixel and the workerd peak memory per image.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { unstable_startWorker } from 'wrangler';
import { cpuMs, findWorkerd, hwmBytes, resetHwm, rssBytes } from './lib/memory';
import { availableMetric, score, type Metric } from './lib/metrics';
import { median, table, type BenchRecord } from './lib/report';
import { buildLargeSet, nativeMozjpegBytes } from './lib/large-set';
import sharp from 'sharp';

const { values: args } = parseArgs({
  options: {
    corpus: { type: 'string' },
    json: { type: 'string' },
    levels: { type: 'string', default: 'lossless,low,medium,high' },
    metric: { type: 'string', default: 'auto' },
    'compare-guard': { type: 'boolean', default: false },
    only: { type: 'string' },
    // Print the tables from --json files of earlier (e.g. sharded) runs instead of running: --report a.json,b.json
    report: { type: 'string' },
    large: { type: 'string' },
    'budget-mb': { type: 'string' },
    // A fresh workerd for every level too (memory points: no garbage of the previous level counted).
    fresh: { type: 'boolean', default: false },
    // Send each request a second time to the same isolate and report that CPU too: a Worker optimises
    // image after image, so its codecs are compiled and tiered up; a fresh workerd pays that once.
    warm: { type: 'boolean', default: false },
  },
});
const corpus = resolve(args.large ?? args.corpus ?? (existsSync('../shared/corpus') ? '../shared/corpus' : ''));
const budgetBytes = args['budget-mb'] ? Number(args['budget-mb']) * 2 ** 20 : undefined;
const ISOLATE_MB = 128;
if (!args.report && !args.large && !existsSync(corpus)) throw new Error('no corpus: pass --corpus DIR');
const LEVELS: Record<string, { mode: 'lossless' | 'lossy'; quality: number; perceptualGuard: boolean | 'measure' }> = {
  lossless: { mode: 'lossless', quality: 75, perceptualGuard: true },
  low: { mode: 'lossy', quality: 90, perceptualGuard: true },
  medium: { mode: 'lossy', quality: 75, perceptualGuard: true },
  high: { mode: 'lossy', quality: 70, perceptualGuard: true },
  'medium-noguard': { mode: 'lossy', quality: 75, perceptualGuard: 'measure' },
  'high-noguard': { mode: 'lossy', quality: 70, perceptualGuard: 'measure' },
  // Guard off entirely: the plain decode + MozJPEG encode speed (the 150 ms/MP target).
  'medium-off': { mode: 'lossy', quality: 75, perceptualGuard: false },
  // PNG to JPG at Medium (size control on, as the settings default).
  'medium-jpg': { mode: 'lossy', quality: 75, perceptualGuard: true, pngToJpg: true } as never,
  // Resize on request (JPEG): Medium with the long side capped at 2048 / 4096 px.
  'medium-2048': { mode: 'lossy', quality: 75, perceptualGuard: true, resizeLongSide: 2048 } as never,
  'medium-4096': { mode: 'lossy', quality: 75, perceptualGuard: true, resizeLongSide: 4096 } as never,
};
const levels = args.levels.split(',').filter(Boolean);
if (args['compare-guard']) levels.push('medium-noguard', 'high-noguard');
for (const l of levels) if (!LEVELS[l]) throw new Error(`unknown level ${l}`);
// Shards may overlap (--only is a substring): one record per file and level, the first file listed wins.
const byKey = new Map<string, BenchRecord>();
for (const f of (args.report ?? '').split(',').filter(Boolean)) {
  for (const r of JSON.parse(readFileSync(f, 'utf8')) as BenchRecord[])
    if (!byKey.has(`${r.file}\u0000${r.level}`)) byKey.set(`${r.file}\u0000${r.level}`, r);
}
const reported: BenchRecord[] = [...byKey.values()];
// --metric engine: the engine's own block SSIM (guard) as the score, no external scoring (fast on 25 MP).
const metric = (
  reported[0] ? reported[0].metric : args.metric === 'engine' ? 'engine' : availableMetric(args.metric as 'auto' | Metric)
) as Metric | 'engine';

const largeFiles = args.large && !args.report ? await buildLargeSet(corpus) : null;
const files = args.report
  ? []
  : (largeFiles ?? readdirSync(corpus))
      .filter(
        (f) =>
          /\.(jpe?g|png|webp)$/i.test(f) && (!args.only || args.only.split(',').some((o) => f.startsWith(o) || f.includes(o))),
      )
      .sort();
const kindOf = (b: Uint8Array) => (b[0] === 0xff ? 'jpeg' : b[0] === 0x89 ? 'png' : 'webp');

// A fresh workerd per image: memory left behind by one image (dead WASM heaps awaiting GC) must not be
// charged to the next, and a crash on one huge image must not end the run.
async function startEngine() {
  const worker = await unstable_startWorker({
    config: 'bench/lib/wrangler.bench.toml',
    dev: { server: { port: 0 }, inspector: false, watch: false, logLevel: process.env.BENCH_LOG ?? 'error' },
  } as never);
  await worker.ready;
  const once = (body: Uint8Array, settings: object) =>
    worker.fetch('http://bench/optimise', {
      method: 'POST',
      body,
      headers: { 'x-settings': JSON.stringify({ pngToJpg: false, pngToJpgSizeControl: true, ...settings }) },
    });
  // After a long request the kept-alive socket to wrangler's proxy may already be closed ("other side
  // closed" within milliseconds): the request is idempotent, so it is simply sent again.
  const send = async (body: Uint8Array, settings: object) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(body, settings);
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
  };
  // Warm up (instantiates the codecs once), then take the idle RSS of our workerd processes as baseline.
  await (await send(readFileSync('tests/fixtures/images/chelsea-rgb.png'), LEVELS.medium!)).arrayBuffer();
  await (await send(readFileSync('tests/fixtures/images/rocket-baseline.jpg'), LEVELS.medium!)).arrayBuffer();
  // wrangler runs two workerd processes (its proxy and the Worker); the Worker's is the one that grows.
  const pids = findWorkerd();
  const idle = new Map(pids.map((p) => [p, rssBytes(p)]));
  return {
    send,
    dispose: () => worker.dispose(),
    idleText: pids.map((p) => `${(idle.get(p)! / 2 ** 20).toFixed(0)} MB`).join(' + '),
    resetAll: () => pids.length > 0 && pids.every((p) => resetHwm(p)),
    peakOverIdle: () => Math.max(...pids.map((p) => hwmBytes(p) - idle.get(p)!)),
    cpu: () => pids.reduce((n, p) => n + cpuMs(p), 0),
  };
}
if (!args.report)
  console.log(
    `corpus ${corpus}: ${files.length} images, levels ${levels.join(', ')}, metric ${metric}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} CPUs`,
  );

const records: BenchRecord[] = [...reported];
for (const file of files) {
  const input = new Uint8Array(readFileSync(join(corpus, file)));
  let engine = await startEngine();
  try {
    for (const [li, level] of levels.entries()) {
      if (args.fresh && li > 0) {
        await engine.dispose().catch(() => undefined);
        engine = await startEngine();
      }
      const { send, resetAll, peakOverIdle, cpu } = engine;
      const canReset = resetAll();
      const t0 = performance.now();
      const c0 = cpu();
      const res = await send(input, { ...LEVELS[level]!, ...(budgetBytes ? { budgetBytes } : {}) }).catch(
        (e: unknown) =>
          new Response(null, { status: 599, headers: { 'x-result': JSON.stringify({ kind: 'crash', reason: String(e) }) } }),
      );
      const out = new Uint8Array(await res.arrayBuffer());
      const ms = performance.now() - t0;
      const cpuUsed = cpu() - c0;
      const peakBytes = canReset ? peakOverIdle() : null;
      let cpuWarmMs: number | undefined;
      if (args.warm) {
        const w0 = cpu();
        await (
          await send(input, { ...LEVELS[level]!, ...(budgetBytes ? { budgetBytes } : {}) })
        )
          .arrayBuffer()
          .catch(() => undefined);
        cpuWarmMs = Math.round(cpu() - w0);
      }
      const meta = JSON.parse(res.headers.get('x-result') ?? '{}') as {
        kind: string;
        format?: string;
        width?: number;
        height?: number;
        qualityUsed?: number;
        reason?: string;
        ssim?: number;
        tiles?: number;
        banded?: boolean;
        note?: string;
        wasmHeapBytes?: number;
        path?: string;
      };
      const kept = meta.kind !== 'optimised';
      if (meta.kind === 'crash' || meta.kind === 'decode-error')
        console.log(`${file} ${level}: ${meta.kind} ${meta.reason ?? ''}`);
      const outFormat = kept ? kindOf(input) : meta.format!;
      const dims = meta.width ? { w: meta.width, h: meta.height! } : await readDims(file, input);
      const sc: { value: number; max?: number | undefined } = kept
        ? { value: metric === 'butteraugli' ? 0 : 1, max: metric === 'butteraugli' ? 0 : undefined }
        : metric === 'engine'
          ? { value: meta.ssim ?? Number.NaN }
          : await score(metric, input, kindOf(input), out, outFormat).catch(() => ({ value: Number.NaN, max: undefined }));
      const s = sc.value;
      const rec: BenchRecord = {
        file,
        kind: kindOf(input),
        category: file.split('_')[0] ?? file,
        level,
        bytesIn: input.length,
        bytesOut: kept ? input.length : out.length,
        kept,
        result: meta.kind,
        outFormat,
        score: s,
        metric,
        ms: Math.round(ms),
        cpuMs: Math.round(cpuUsed),
        megapixels: (dims.w * dims.h) / 1e6,
        peakBytes,
        qualityUsed: meta.qualityUsed ?? null,
        path:
          (meta.tiles
            ? `${meta.path ?? 'wasm'}-tiles${meta.tiles}`
            : (meta.path ?? (meta.kind === 'optimised' ? 'wasm' : meta.kind))) + (meta.banded ? '-banded' : ''),
        ...(meta.reason || meta.note ? { reason: meta.reason ?? meta.note } : {}),
        ...(sc.max !== undefined ? { scoreMax: sc.max } : {}),
        ...(meta.ssim !== undefined ? { engineSsim: meta.ssim } : {}),
        ...(meta.wasmHeapBytes ? { wasmHeapBytes: meta.wasmHeapBytes } : {}),
        ...(cpuWarmMs !== undefined ? { cpuWarmMs } : {}),
      };
      if (largeFiles && rec.kind === 'jpeg' && level === 'medium') rec.nativeBytes = await nativeMozjpegBytes(input);
      records.push(rec);
      const savedPct = ((1 - rec.bytesOut / rec.bytesIn) * 100).toFixed(1);
      console.log(
        `${file.padEnd(44)} ${level.padEnd(11)} ${rec.megapixels.toFixed(1).padStart(5)} MP  ${String(rec.path).padEnd(13)} ${rec.result.padEnd(15)} ${String(rec.bytesIn).padStart(8)} -> ${String(rec.bytesOut).padStart(8)} (${savedPct.padStart(5)} %${rec.nativeBytes ? `, native q75 ${((1 - rec.nativeBytes / rec.bytesIn) * 100).toFixed(1)} %` : ''})  q=${rec.qualityUsed ?? '-'}  ${metric}=${Number.isFinite(s) ? s.toFixed(3) : '-'}${sc.max !== undefined ? ` (max ${sc.max.toFixed(2)})` : ''} ssim=${meta.ssim?.toFixed(4) ?? '-'}  CPU ${rec.cpuMs} ms = ${Math.round((rec.cpuMs ?? 0) / rec.megapixels)} ms/MP${cpuWarmMs !== undefined ? ` (warm ${Math.round(cpuWarmMs / rec.megapixels)})` : ''}  peak ${peakBytes === null ? '-' : (peakBytes / 2 ** 20).toFixed(0)} of ${ISOLATE_MB} MB (WASM heaps ${((meta.wasmHeapBytes ?? 0) / 2 ** 20).toFixed(0)} MB)${rec.reason && (rec.kept || meta.note) ? `  [${rec.reason}]` : ''}`,
      );
    }
  } finally {
    await engine.dispose().catch(() => undefined);
  }
}

async function readDims(_file: string, input: Uint8Array): Promise<{ w: number; h: number }> {
  const m = await sharp(input)
    .metadata()
    .catch(() => ({ width: 1, height: 1 }));
  return { w: m.width ?? 1, h: m.height ?? 1 };
}

console.log(
  `\nBy input kind (${metric}: ${metric === 'butteraugli' ? '3-norm distance, lower is better; kept originals count as 0' : 'mean SSIM, 1 = identical'}):`,
);
console.log(table(records, 'kind', metric));
console.log('\nBy corpus category:');
console.log(table(records, 'category', metric));
// Memory per pixel from the first lossy level of each image, which ran in a fresh workerd: later levels
// also carry the previous level's garbage (released codec heaps V8 has not collected yet).
const firstLossy = new Map<string, BenchRecord>();
for (const r of records) if (r.level !== 'lossless' && !firstLossy.has(r.file)) firstLossy.set(r.file, r);
const budget = 104 * 2 ** 20; // worker/images/budget.ts: 128 MB minus a 24 MB reserve
for (const [label, rs] of [
  ['jpeg lossless', records.filter((r) => r.kind === 'jpeg' && r.level === 'lossless')],
  ['png lossless', records.filter((r) => r.kind === 'png' && r.level === 'lossless')],
  ['jpeg lossy (first level, fresh workerd)', [...firstLossy.values()].filter((r) => r.kind === 'jpeg')],
  ['png lossy (first level, fresh workerd)', [...firstLossy.values()].filter((r) => r.kind === 'png')],
] as const) {
  const xs = rs.filter((r) => r.peakBytes !== null && r.megapixels >= 1).map((r) => r.peakBytes! / (r.megapixels * 1e6));
  if (xs.length)
    console.log(
      `${label}: peak ${median(xs).toFixed(1)} B/px median, ${Math.max(...xs).toFixed(1)} B/px worst -> ${(budget / Math.max(...xs) / 1e6).toFixed(1)} MP within 104 MB`,
    );
}

// The perceptual guard's effect: Medium with the guard against the same images without it.
for (const [on, off] of [
  ['medium', 'medium-off'],
  ['medium', 'medium-noguard'],
  ['high', 'high-noguard'],
] as const) {
  const pairs = records
    .filter((r) => r.level === on)
    .map((r) => [r, records.find((o) => o.file === r.file && o.level === off)] as const)
    .filter((p): p is readonly [BenchRecord, BenchRecord] => Boolean(p[1]));
  if (pairs.length === 0) continue;
  const raised = pairs.filter(([g]) => g.qualityUsed !== null && g.qualityUsed > ({ medium: 75, high: 70 } as const)[on]);
  const bytes = (rs: BenchRecord[]) => rs.reduce((n, r) => n + r.bytesOut, 0);
  const worst = (rs: BenchRecord[]) => Math.max(...rs.map((r) => r.score ?? Number.NaN).filter(Number.isFinite));
  console.log(
    `\nGuard at ${on} (vs ${off}, ${pairs.length} images): raised the quality of ${raised.length}: ${raised.map(([g, u]) => `${g.file} q${g.qualityUsed} ${metric} ${u.score?.toFixed(2)} -> ${g.score?.toFixed(2)}, ${u.bytesOut} -> ${g.bytesOut} B`).join('; ')}`,
  );
  console.log(
    `  bytes out ${bytes(pairs.map((p) => p[1]))} -> ${bytes(pairs.map((p) => p[0]))} (+${((bytes(pairs.map((p) => p[0])) / bytes(pairs.map((p) => p[1])) - 1) * 100).toFixed(1)} %), median saved ${(median(pairs.map(([, u]) => 1 - u.bytesOut / u.bytesIn)) * 100).toFixed(1)} % -> ${(median(pairs.map(([g]) => 1 - g.bytesOut / g.bytesIn)) * 100).toFixed(1)} %, worst ${metric} ${worst(pairs.map((p) => p[1])).toFixed(2)} -> ${worst(pairs.map((p) => p[0])).toFixed(2)}`,
  );
}
// Large set: the product path's saving next to native MozJPEG q75 on the same JPEG originals.
const withNative = records.filter((r) => r.nativeBytes && r.level === 'medium');
for (const [label, rs] of [
  ['all', withNative],
  ['>= 6 MP', withNative.filter((r) => r.megapixels >= 6)],
] as const) {
  if (rs.length === 0) continue;
  const product = median(rs.map((r) => 1 - r.bytesOut / r.bytesIn));
  const native = median(rs.map((r) => 1 - r.nativeBytes! / r.bytesIn));
  console.log(
    `\nJPEG photos (${label}, ${rs.length}): product Medium median saved ${(product * 100).toFixed(1)} %, native MozJPEG q75 ${(native * 100).toFixed(1)} % -> ${((product / native) * 100).toFixed(1)} % of native; worst ${metric} ${Math.max(...rs.map((r) => r.score ?? 0)).toFixed(2)}`,
  );
  const perMp = (xs: BenchRecord[], k: 'cpuMs' | 'cpuWarmMs') =>
    median(xs.filter((r) => r[k] !== undefined).map((r) => r[k]! / r.megapixels)).toFixed(0);
  const passed = rs.filter((r) => r.qualityUsed === 75);
  const raised = rs.filter((r) => r.qualityUsed !== null && r.qualityUsed > 75);
  console.log(
    `  CPU ms/MP median: guard passed at q75 (${passed.length}) ${perMp(passed, 'cpuMs')}${args.warm ? ` cold, ${perMp(passed, 'cpuWarmMs')} warm` : ''}; raised (${raised.length}) ${perMp(raised, 'cpuMs')}${args.warm ? ` cold, ${perMp(raised, 'cpuWarmMs')} warm` : ''}`,
  );
}
// Memory points: peak (workerd RSS rise over the idle Worker) per kind at 4, 12 and 25 MP.
const points = records.filter((r) => r.file.startsWith('mem-'));
if (points.length) {
  console.log(`\nPeak memory against the ${ISOLATE_MB} MB isolate (workerd RSS high-water mark over the idle Worker):`);
  for (const r of points)
    console.log(
      `  ${r.kind.padEnd(5)} ${r.megapixels.toFixed(1).padStart(5)} MP  ${r.level.padEnd(11)} ${String(r.path).padEnd(13)} peak ${r.peakBytes === null ? '-' : (r.peakBytes / 2 ** 20).toFixed(0).padStart(4)} MB  CPU ${Math.round((r.cpuMs ?? 0) / r.megapixels)} ms/MP  saved ${((1 - r.bytesOut / r.bytesIn) * 100).toFixed(1)} %${r.kept && r.reason ? `  [${r.reason}]` : ''}`,
    );
}
if (args.json) {
  writeFileSync(args.json, JSON.stringify(records, null, 1));
  console.log(`\n${records.length} records written to ${args.json}`);
}
