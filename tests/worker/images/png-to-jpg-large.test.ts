// PNG to JPG above 12-14 MP (issue 24, item 3): the progressive encoder's coefficients (75 MB at 25 MP)
// do not fit beside the PNG work, so the JPG is written as baseline in bands (jpeg/banded.ts). Shown on a
// 25 MP photo-like PNG made here: the accounted peak (codec heap + what the row-wise PNG path holds, as
// counted in ledger.ts) stays under the budget, the JPG decodes at full size and is far smaller.
// `npm run test:images-deep` (about a minute of CPU: the PNG is inflated four times).
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { DEFAULT_BUDGET_BYTES } from '../../../worker/images/budget';
import { jsPeakBytes } from '../../../worker/images/ledger';
import { JpegDecoder, mozjpegPeakHeapBytes, readJpegHeader, releaseMozjpeg } from '../../../worker/images/jpeg/mozjpeg';
import { createPngWriter } from '../../../worker/images/png/writer';
import { lossy, optimised } from './helpers';

const DEEP = Boolean((env as unknown as Record<string, string | undefined>).IMAGES_DEEP);
const MiB = 2 ** 20;

async function photoPng(width: number, height: number, grain = false): Promise<Uint8Array> {
  const w = createPngWriter({ width, height, bitDepth: 8, colourType: 2 });
  const row = new Uint8Array(width * 3);
  let seed = 0x2545f491;
  for (let y = 0; y < height; y++) {
    for (let x = 0, o = 0; x < width; x++, o += 3) {
      let t = ((Math.imul(x * 7919 + y, 0x9e3779b1) >>> 28) & 3) - 1;
      if (grain) {
        // Sensor-like grain (xorshift32): deflate cannot predict it, so the original is large.
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        t = (seed >>> 27) - 16;
      }
      row[o] = 40 + ((x >> 5) & 127) + t;
      row[o + 1] = 30 + ((y >> 5) & 127) - t;
      row[o + 2] = 60 + (((x + y) >> 6) & 127) + t;
    }
    await w.writeRow(row);
  }
  return w.finish();
}

describe('PNG to JPG of a 25 MP PNG', () => {
  it.skipIf(!DEEP)('converts in bands within the budget', { timeout: 600_000 }, async () => {
    const W = 6120;
    const H = 4080;
    const input = await photoPng(W, H);
    releaseMozjpeg(0);
    mozjpegPeakHeapBytes(true);
    const t0 = Date.now();
    const r = optimised(await optimiseImage(input, lossy(75, { pngToJpg: true })));
    const ms = Date.now() - t0;
    releaseMozjpeg(0);
    const heap = mozjpegPeakHeapBytes(true);
    const js = jsPeakBytes();
    console.log(
      `25 MP PNG to JPG: ${(input.length / MiB).toFixed(1)} MiB -> ${(r.bytesOut / MiB).toFixed(2)} MiB (q${r.qualityUsed}, ssim ${r.ssim?.toFixed(4)}); ` +
        `peak ${((heap + js) / MiB).toFixed(1)} MiB = heap ${(heap / MiB).toFixed(1)} + JS ${(js / MiB).toFixed(1)}; ${ms} ms wall; ${r.note ?? ''}`,
    );
    expect(r).toMatchObject({ format: 'jpeg', convertedToJpg: true, width: W, height: H });
    expect(r.bytesOut).toBeLessThan(r.bytesIn * 0.5);
    expect(heap + js).toBeLessThan(DEFAULT_BUDGET_BYTES);
    expect(readJpegHeader(r.bytes)).toMatchObject({ width: W, height: H, progressive: false });
    const d = new JpegDecoder(r.bytes, { scaleNum: 1, scaleDenom: 8 });
    try {
      while (d.read() > 0);
      expect(d.finish().warnings).toBe(0);
    } finally {
      d.close();
    }
  });
});

// Below the banded size the JPG is made first and the PNG candidates are written after it (png/large.ts,
// while they can still win): they run beside the grown MozJPEG heap, so their peak is held here too, on a
// grainy PNG (a large original: the best-PNG allowance is the stripped original's size).
describe('PNG to JPG of a 13.5 MP grainy PNG (JPG first, then the PNG candidates)', () => {
  it.skipIf(!DEEP)('stays within the budget', { timeout: 600_000 }, async () => {
    const W = 4500;
    const H = 3000;
    const input = await photoPng(W, H, true);
    releaseMozjpeg(0);
    mozjpegPeakHeapBytes(true);
    const r = optimised(await optimiseImage(input, lossy(75, { pngToJpg: true })));
    releaseMozjpeg(0);
    const heap = mozjpegPeakHeapBytes(true);
    const js = jsPeakBytes();
    console.log(
      `13.5 MP PNG to JPG: ${(input.length / MiB).toFixed(1)} MiB -> ${(r.bytesOut / MiB).toFixed(2)} MiB; ` +
        `peak ${((heap + js) / MiB).toFixed(1)} MiB = heap ${(heap / MiB).toFixed(1)} + JS ${(js / MiB).toFixed(1)}; ${r.note ?? ''}`,
    );
    expect(r).toMatchObject({ format: 'jpeg', convertedToJpg: true, width: W, height: H });
    expect(heap + js).toBeLessThan(DEFAULT_BUDGET_BYTES);
  });
});
