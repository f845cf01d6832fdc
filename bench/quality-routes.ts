// npm run bench:quality-routes -- [--half tune|held-out|all] [--photos DIR] [--jpegli-wasm FILE] [--only NAME,...]
//                                  [--crop 1600x1200] [--json FILE]
//
// Issue 24's two routes to "MozJPEG q75's look in fewer bytes", measured outside the product so they can
// be compared before anything is wired in: per photo of the store set (bench/lib/photo-set.ts, default
// the tune half), a centre crop at full resolution (butteraugli on whole 6-20 MP photos takes minutes
// each on a shared 2-CPU machine; the crop keeps the camera's pixel statistics), encoded by native
// MozJPEG (sharp mozjpeg: true) at q55-90 and, with --jpegli-wasm, by jpegli (a standalone wasm with the
// same host contract as codecs/mozjpeg-glue.c: jl_enc_open/rows/write/finish/close, built by hand from
// google/jpegli: it is not among the committed codecs) at q65-95, 4:2:0, adaptive quantisation on. Every
// encode is scored with butteraugli_main (3-norm against the crop). Then, per anchor quality (70, 75,
// 90), the bytes each route needs for the anchor's look:
//   - jpegli at equal butteraugli on the same picture (its curve interpolated at MozJPEG's distance),
//   - per-image quality at one target distance for every picture (the set's median native distance),
//   - the best of MozJPEG and jpegli per picture.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { buildPhotoSet, type SetHalf } from './lib/photo-set';
import { median } from './lib/report';

const { values: args } = parseArgs({
  options: {
    half: { type: 'string', default: 'tune' },
    photos: { type: 'string', default: join(tmpdir(), 'bench-photos') },
    'jpegli-wasm': { type: 'string' },
    only: { type: 'string' },
    crop: { type: 'string', default: '1600x1200' },
    json: { type: 'string' },
  },
});
sharp.concurrency(1);

type Point = { q: number; bytes: number; ba: number };
type Curves = { name: string; moz: Point[]; jpegli: Point[] };

const MOZ_Q = [55, 65, 70, 75, 80, 85, 90];
const JPEGLI_Q = [65, 70, 75, 80, 85, 90, 95];
const ANCHORS = [70, 75, 90];

function jpegliEncoder(file: string) {
  const mod = new WebAssembly.Module(readFileSync(file));
  return (rgb: Uint8Array, width: number, height: number, quality: number): Uint8Array => {
    const chunks: Uint8Array[] = [];
    const heap: { memory?: WebAssembly.Memory } = {};
    const inst = new WebAssembly.Instance(mod, {
      env: {
        js_emit: (_s: number, p: number, n: number) => chunks.push(new Uint8Array(heap.memory!.buffer, p, n).slice()),
        js_error: () => {
          throw new Error('jpegli failed');
        },
        emscripten_notify_memory_growth: () => {},
      },
      wasi_snapshot_preview1: { proc_exit: () => {}, fd_close: () => 0, fd_write: () => 0, fd_seek: () => 0 },
    });
    const e = inst.exports as Record<string, (...a: number[]) => number> & { memory: WebAssembly.Memory };
    heap.memory = e.memory;
    e._initialize?.();
    const strip = 16;
    const h = e.jl_enc_open!(0, width, height, quality, 0, 0, strip, 1);
    const rows = e.jl_enc_rows!(h);
    for (let y = 0; y < height; y += strip) {
      const n = Math.min(strip, height - y);
      new Uint8Array(e.memory.buffer, rows, n * width * 3).set(rgb.subarray(y * width * 3, (y + n) * width * 3));
      e.jl_enc_write!(h, n);
    }
    e.jl_enc_finish!(h);
    e.jl_enc_close!(h);
    return Buffer.concat(chunks);
  };
}

function butteraugli(ref: string, jpeg: Uint8Array): number {
  const dir = mkdtempSync(join(tmpdir(), 'quality-routes-'));
  try {
    const b = join(dir, 'b.jpg');
    writeFileSync(b, jpeg);
    const out = execFileSync('nice', ['-n', '10', 'butteraugli_main', ref, b], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return Number(/3-norm:\s*([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Bytes a curve needs for distance d: log-bytes linear in distance between its neighbouring points. */
export function bytesAt(curve: Point[], d: number): number {
  const c = [...curve].sort((a, b) => a.ba - b.ba);
  let i = c.findIndex((p, k) => k < c.length - 1 && d >= p.ba && d <= c[k + 1]!.ba);
  if (i < 0) i = d < c[0]!.ba ? 0 : c.length - 2;
  const [a, b] = [c[i]!, c[i + 1]!];
  const t = (d - a.ba) / (b.ba - a.ba);
  return Math.exp(Math.log(a.bytes) * (1 - t) + Math.log(b.bytes) * t);
}

async function main() {
  const [cw, ch] = args.crop.split('x').map(Number) as [number, number];
  const half = args.half === 'all' ? undefined : (args.half as SetHalf);
  const only = args.only?.split(',').filter(Boolean);
  const set = (await buildPhotoSet(args.photos, half)).filter((p) => !only?.length || only.some((o) => p.name.includes(o)));
  const jpegli = args['jpegli-wasm'] ? jpegliEncoder(args['jpegli-wasm']) : null;
  const dir = mkdtempSync(join(tmpdir(), 'quality-routes-refs-'));
  const all: Curves[] = [];
  try {
    for (const p of set) {
      const ref = join(dir, `${p.name}.png`);
      const crop = sharp(p.path).extract({
        left: Math.floor((p.width - cw) / 2),
        top: Math.floor((p.height - ch) / 2),
        width: cw,
        height: ch,
      });
      await crop.png({ compressionLevel: 1 }).toFile(ref);
      const png = readFileSync(ref);
      const { data } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const c: Curves = { name: p.name, moz: [], jpegli: [] };
      for (const q of MOZ_Q) {
        const out = await sharp(png).jpeg({ quality: q, mozjpeg: true }).toBuffer();
        c.moz.push({ q, bytes: out.length, ba: butteraugli(ref, out) });
      }
      if (jpegli)
        for (const q of JPEGLI_Q) {
          const out = jpegli(data, cw, ch, q);
          c.jpegli.push({ q, bytes: out.length, ba: butteraugli(ref, out) });
        }
      all.push(c);
      console.log(
        `${p.name.padEnd(18)} MozJPEG ${c.moz.map((x) => `q${x.q} ${x.bytes} B ${x.ba.toFixed(2)}`).join(', ')}` +
          (jpegli
            ? `\n${''.padEnd(18)} jpegli  ${c.jpegli.map((x) => `q${x.q} ${x.bytes} B ${x.ba.toFixed(2)}`).join(', ')}`
            : ''),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  for (const anchor of ANCHORS) {
    const nat = all.map((c) => c.moz.find((x) => x.q === anchor)!);
    const M = median(nat.map((n) => n.ba));
    const natBytes = nat.reduce((n, x) => n + x.bytes, 0);
    const lines = [
      `q${anchor}: native butteraugli median ${M.toFixed(2)}, worst ${Math.max(...nat.map((n) => n.ba)).toFixed(2)}`,
    ];
    const perImage = all.map((c) => bytesAt(c.moz, M));
    lines.push(
      `  per-image MozJPEG quality at the median distance: median ${pct(median(perImage.map((b, i) => b / nat[i]!.bytes)))}, total ${pct(perImage.reduce((a, b) => a + b, 0) / natBytes)} of native`,
    );
    if (jpegli) {
      const eq = all.map((c, i) => bytesAt(c.jpegli, nat[i]!.ba) / nat[i]!.bytes);
      lines.push(
        `  jpegli at equal butteraugli per picture: median ${pct(median(eq))} (${pct(Math.min(...eq))}-${pct(Math.max(...eq))}); best of both per picture ${pct(median(eq.map((r) => Math.min(1, r))))}`,
      );
      const both = all.map((c) => Math.min(bytesAt(c.moz, M), bytesAt(c.jpegli, M)));
      lines.push(
        `  per-image quality at the median distance, best encoder: median ${pct(median(both.map((b, i) => b / nat[i]!.bytes)))}, total ${pct(both.reduce((a, b) => a + b, 0) / natBytes)}`,
      );
    }
    console.log(lines.join('\n'));
  }
  if (args.json) writeFileSync(args.json, JSON.stringify(all, null, 1));
}

main().catch((e: unknown) => {
  console.error(`bench:quality-routes failed: ${(e as Error).message}`);
  process.exitCode = 1;
});
