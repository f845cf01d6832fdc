// Every JPEG Shopify accepts gets the lossy path (issue 24, item 3): up to 25 MP whatever its sampling
// (4:4:4, 4:2:2, 4:2:0, grey) and its original quality, within the 128 MB isolate: the original is read as
// a stream (progressive ones in tiles), only the 4:2:0 output's coefficients are held, and every JS-side
// copy is counted (ledger.ts). Each case shows: accounted peak (codec heap peak + JS peak) under the
// budget, the output decodes at the original's size, and it is smaller. Inputs are made here (nothing
// large is committed). `npm test` runs the 25 MP 4:4:4 q100 progressive case (the largest coefficient
// set); `npm run test:images-deep` runs every sampling.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { DEFAULT_BUDGET_BYTES } from '../../../worker/images/budget';
import { jsPeakBytes } from '../../../worker/images/ledger';
import {
  JpegDecoder,
  JpegEncoder,
  JpegOutputTooLarge,
  mozjpegPeakHeapBytes,
  readJpegHeader,
  releaseMozjpeg,
  transcodeJpeg,
} from '../../../worker/images/jpeg/mozjpeg';
import { makeJpegTiles, TiledJpegDecoder } from '../../../worker/images/jpeg/tiles';
import { fixture } from './fixtures';
import { grainyUpscaleStrips, lossless, lossy, optimised } from './helpers';

const DEEP = Boolean((env as unknown as Record<string, string | undefined>).IMAGES_DEEP);
const MiB = 2 ** 20;

function makeJpeg(
  width: number,
  height: number,
  quality: number,
  o: { sampling?: '420' | '444' | '422'; grayscale?: boolean; baseline?: boolean; grain?: number } = {},
): Uint8Array {
  const enc = new JpegEncoder({
    width,
    height,
    quality,
    sampling: o.sampling ?? '420',
    grayscale: o.grayscale ?? false,
    trellis: false,
    optimizeScans: false,
  });
  grainyUpscaleStrips(width, height, 3, (_y, rows, n) => enc.write(rows, n), undefined, o.grain ?? 1);
  const progressive = enc.finish();
  // The test's own transcode holds every coefficient (more than the isolate has): only the test does this.
  return o.baseline ? transcodeJpeg(progressive, { progressive: false }).bytes : progressive;
}

/** Runs the engine on `input` and returns the result with the accounted peak (codec heap + JS side). */
async function measured(input: Uint8Array, settings = lossy(75), budgetBytes?: number) {
  releaseMozjpeg(0);
  mozjpegPeakHeapBytes(true);
  const t0 = Date.now();
  const r = await optimiseImage(input, settings, budgetBytes ? { budgetBytes } : {});
  const ms = Date.now() - t0;
  releaseMozjpeg(0);
  const heap = mozjpegPeakHeapBytes(true);
  const js = jsPeakBytes();
  return { r, heap, js, peak: heap + js, ms };
}

/** The file with a comment segment of `size` bytes after SOI (metadata the engine can remove). */
function withComment(jpeg: Uint8Array, size: number): Uint8Array {
  const seg = new Uint8Array(4 + size).fill(0x41);
  seg.set([0xff, 0xfe, (size + 2) >> 8, (size + 2) & 0xff]);
  const out = new Uint8Array(jpeg.length + seg.length);
  out.set(jpeg.subarray(0, 2));
  out.set(seg, 2);
  out.set(jpeg.subarray(2), 2 + seg.length);
  return out;
}

function decodesAt(bytes: Uint8Array, width: number, height: number): void {
  const d = new JpegDecoder(bytes, { scaleNum: 1, scaleDenom: 8 });
  try {
    let rows = 0;
    for (let n = d.read(); n > 0; n = d.read()) rows += n;
    expect(d.finish()).toMatchObject({ truncated: false });
    expect(rows).toBe(d.height);
  } finally {
    d.close();
  }
  expect(readJpegHeader(bytes)).toMatchObject({ width, height });
}

// 6120 x 4080 = 24.97 MP, just under Shopify's 25 MP.
const W = 6120;
const H = 4080;

const cases = [
  { name: '4:4:4 q100 progressive', q: 100, o: { sampling: '444' as const, grain: 2 }, deep: false },
  { name: '4:2:2 q100 progressive', q: 100, o: { sampling: '422' as const, grain: 2 }, deep: true },
  { name: '4:2:0 q100 progressive', q: 100, o: { sampling: '420' as const }, deep: true },
  { name: '4:4:4 q100 baseline', q: 100, o: { sampling: '444' as const, baseline: true }, deep: true },
  { name: 'grey q100 progressive', q: 100, o: { grayscale: true }, deep: true },
  { name: '4:4:4 q95 progressive, camera grain', q: 95, o: { sampling: '444' as const, grain: 3 }, deep: true },
  { name: '4:4:4 q100 progressive, camera grain', q: 100, o: { sampling: '444' as const, grain: 3 }, deep: true },
  { name: '4:2:2 q100 progressive, camera grain', q: 100, o: { sampling: '422' as const, grain: 3 }, deep: true },
  { name: '4:4:4 q100 progressive, heavy grain', q: 100, o: { sampling: '444' as const, grain: 4 }, deep: true },
  { name: '4:4:4 q100 baseline, heavy grain', q: 100, o: { sampling: '444' as const, grain: 4, baseline: true }, deep: true },
];

describe('every JPEG up to 25 MP gets the lossy path within the budget', () => {
  for (const c of cases) {
    it.skipIf(c.deep && !DEEP)(`25 MP ${c.name}`, { timeout: 600_000 }, async () => {
      const input = makeJpeg(W, H, c.q, c.o);
      const info = readJpegHeader(input);
      const { r: res, heap, js, peak, ms } = await measured(input);
      const r = optimised(res);
      console.log(
        `25 MP ${c.name}: ${(input.length / MiB).toFixed(1)} MiB -> ${(r.bytesOut / MiB).toFixed(2)} MiB ` +
          `(${(100 - (100 * r.bytesOut) / r.bytesIn).toFixed(1)} % saved, q${r.qualityUsed}, ssim ${r.ssim?.toFixed(4)}, ` +
          `tiles ${r.tiles ?? 0}${r.banded ? ', banded' : ''}); peak ${(peak / MiB).toFixed(1)} MiB = heap ${(heap / MiB).toFixed(1)} + JS ${(js / MiB).toFixed(1)}; ` +
          `${ms} ms wall (${(ms / 24.97).toFixed(0)} ms/MP)`,
      );
      expect(r.limited).toBeUndefined();
      expect(r.qualityUsed).toBeGreaterThanOrEqual(75);
      expect(r.bytesOut).toBeLessThan(r.bytesIn * 0.6);
      expect(peak).toBeLessThan(DEFAULT_BUDGET_BYTES);
      expect(heap).toBeGreaterThan(30 * MiB); // the measure saw the encoder's coefficients
      decodesAt(r.bytes, W, H);
      // The output is 4:2:0 (or grey): only those coefficients were held.
      expect(readJpegHeader(r.bytes)).toMatchObject(info.components === 1 ? { components: 1 } : { maxH: 2, maxV: 2 });
    });
  }

  it.skipIf(!DEEP)(
    'lossless mode on a 25 MP 4:4:4 progressive original: metadata removed, and said so',
    { timeout: 600_000 },
    async () => {
      const input = withComment(makeJpeg(W, H, 100, { sampling: '444' }), 4096);
      const { r: res, peak } = await measured(input, lossless());
      const r = optimised(res);
      expect(r.limited).toBe('metadata-only');
      expect(r.note).toMatch(/metadata removed only/);
      expect(peak).toBeLessThan(DEFAULT_BUDGET_BYTES);
    },
  );
});

describe('when the progressive encoder does not fit beside the source: baseline in bands', () => {
  // The same step a 25 MP 4:4:4 original of 18-20 MB takes in the 104 MiB budget, shown on 8 MP in 34 MiB.
  it('8 MP 4:4:4 q100 progressive in a 34 MiB budget: tiles + banded writer, within it', { timeout: 300_000 }, async () => {
    const w = 3264;
    const h = 2448;
    const input = makeJpeg(w, h, 100, { sampling: '444', grain: 2 });
    const budget = 34 * MiB;
    const { r: res, heap, js, peak } = await measured(input, lossy(75), budget);
    const r = optimised(res);
    console.log(
      `8 MP 4:4:4 q100 in 34 MiB: ${input.length} B -> ${r.bytesOut} B, q${r.qualityUsed}, ssim ${r.ssim?.toFixed(4)}, tiles ${r.tiles}, ` +
        `banded ${r.banded}; peak ${(peak / MiB).toFixed(1)} MiB = heap ${(heap / MiB).toFixed(1)} + JS ${(js / MiB).toFixed(1)}`,
    );
    expect(r).toMatchObject({ banded: true, width: w, height: h });
    expect(r.limited).toBeUndefined();
    expect(r.tiles).toBeGreaterThan(1);
    expect(r.ssim).toBeGreaterThan(0.97);
    expect(r.bytesOut).toBeLessThan(r.bytesIn * 0.2);
    expect(peak).toBeLessThan(budget);
    expect(readJpegHeader(r.bytes)).toMatchObject({ progressive: false, maxH: 2, maxV: 2 });
    decodesAt(r.bytes, w, h);
    // The same file with the isolate's budget: the progressive encoder (smaller output), no bands.
    const full = optimised((await measured(input)).r);
    expect(full.banded).toBeUndefined();
    // Standard Huffman tables and baseline cost bytes, most at low rates (README: measured 10-35 %).
    expect(r.bytesOut).toBeLessThan(full.bytesOut * 1.5);
    console.log(
      `  progressive encoder: ${full.bytesOut} B (banded ${((100 * r.bytesOut) / full.bytesOut - 100).toFixed(1)} % more)`,
    );
  });
});

describe('CMYK originals take the same steps', () => {
  it(
    'a progressive CMYK original: its tiles decode to its pixels; the lossy path gives an RGB JPEG',
    { timeout: 120_000 },
    async () => {
      const cmyk = fixture('rocket-cmyk-progressive.jpg');
      const info = readJpegHeader(cmyk);
      expect(info).toMatchObject({ components: 4, progressive: true });
      const tiles = makeJpegTiles(cmyk, info, info.coefBytes / 3);
      expect(tiles.tiles.length).toBeGreaterThan(1);
      const whole = new JpegDecoder(cmyk);
      const tiled = new TiledJpegDecoder(tiles);
      let rows = 0;
      try {
        for (;;) {
          const a = whole.read();
          const b = tiled.read();
          expect(b).toBe(a);
          if (a === 0) break;
          expect(Array.from(tiled.rows(b))).toEqual(Array.from(whole.rows(a)));
          rows += a;
        }
      } finally {
        whole.close();
        tiled.close();
      }
      expect(rows).toBe(info.height);
      // Through the engine: CMYK rows become RGB for the encoder (bands and tiles read the same rows).
      const { r: res, peak } = await measured(cmyk, lossy(75));
      const r = optimised(res);
      expect(r).toMatchObject({ width: info.width, height: info.height });
      expect(r.limited).toBeUndefined();
      expect(peak).toBeLessThan(DEFAULT_BUDGET_BYTES);
      expect(readJpegHeader(r.bytes)).toMatchObject({ components: 3, maxH: 2, maxV: 2 });
      // A small grainy photo: the guard raised it once (one step is the policy), judged against the RGB rows.
      expect(r.ssim).toBeGreaterThan(0.9);
    },
  );
});

describe('an encoder output is bounded by what the budget leaves', () => {
  it('stops with JpegOutputTooLarge past its allowance, and the next encoder works', () => {
    const make = (maxOutputBytes?: number) => {
      const enc = new JpegEncoder({ width: 512, height: 512, quality: 90, maxOutputBytes });
      grainyUpscaleStrips(512, 512, 3, (_y, rows, n) => enc.write(rows, n), undefined, 4);
      return enc.finish();
    };
    const full = make();
    expect(() => make(full.length >> 1)).toThrow(JpegOutputTooLarge);
    expect(make(full.length)).toEqual(full);
  });
});
