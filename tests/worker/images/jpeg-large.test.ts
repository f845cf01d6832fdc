// A 25 MP JPEG (the largest Shopify accepts) through the product's JPEG path inside workerd, within the
// isolate's memory: the photo is made at test time (a fixture photo upscaled to 5000 x 5000 with
// grain, streamed into our encoder row by row), so nothing large is committed.
import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { DEFAULT_BUDGET_BYTES } from '../../../worker/images/budget';
import {
  JpegDecoder,
  JpegEncoder,
  mozjpegPeakHeapBytes,
  readJpegHeader,
  releaseMozjpeg,
  transcodeJpeg,
} from '../../../worker/images/jpeg/mozjpeg';
import { grainyUpscaleStrips, lossless, lossy, optimised } from './helpers';

const SIDE = 5000;

/** 5000 x 5000 photo-like JPEG: bilinear upscale of the rocket photo plus deterministic grain. */
function make25MpJpeg(quality: number): Uint8Array {
  const enc = new JpegEncoder({ width: SIDE, height: SIDE, quality, trellis: false, optimizeScans: false }); // fast to make
  grainyUpscaleStrips(SIDE, SIDE, 3, (_y0, rows, n) => enc.write(rows, n));
  return enc.finish();
}

describe('25 MP JPEG in the isolate', () => {
  it('lossy with the strip guard and lossless transcode, each within the memory budget', { timeout: 120_000 }, async () => {
    const progressive = make25MpJpeg(92);
    // Camera JPEGs are baseline: the same pixels as a baseline file (lossless transcode).
    const input = transcodeJpeg(progressive, { progressive: false }).bytes;
    expect(readJpegHeader(input)).toMatchObject({ width: SIDE, height: SIDE, progressive: false });
    releaseMozjpeg(0);
    mozjpegPeakHeapBytes(true);

    const r = optimised(await optimiseImage(input, lossy(75)));
    releaseMozjpeg(0);
    const lossyHeap = mozjpegPeakHeapBytes(true);
    expect([r.width, r.height]).toEqual([SIDE, SIDE]);
    expect(r.bytesOut).toBeLessThan(r.bytesIn * 0.7);
    expect(r.ssim).toBeGreaterThan(0.9); // the strip guard ran on all 25 MP
    // Heap: the encoder's coefficients (3 B/px at 4:2:0 = 75 MB) + strips, well inside the budget with the
    // input and output bytes on the JS side.
    expect(lossyHeap).toBeLessThan(SIDE * SIDE * 3.3);
    expect(lossyHeap + input.length + r.bytesOut * 2).toBeLessThan(DEFAULT_BUDGET_BYTES);
    // The output decodes (strip by strip) to the full size.
    const dec = new JpegDecoder(r.bytes);
    let rows = 0;
    for (let n = dec.read(); n > 0; n = dec.read()) rows += n;
    dec.close();
    expect(rows).toBe(SIDE);

    const l = optimised(await optimiseImage(input, lossless()));
    releaseMozjpeg(0);
    const losslessHeap = mozjpegPeakHeapBytes(true);
    expect(l.bytesOut).toBeLessThan(l.bytesIn);
    expect(readJpegHeader(l.bytes).progressive).toBe(true);
    expect(losslessHeap).toBeLessThan(SIDE * SIDE * 3.3);
    console.log(
      `25 MP: input ${input.length} B, lossy ${r.bytesOut} B (q${r.qualityUsed}, ssim ${r.ssim?.toFixed(4)}), heap ${(lossyHeap / 2 ** 20).toFixed(1)} MiB; lossless ${l.bytesOut} B, heap ${(losslessHeap / 2 ** 20).toFixed(1)} MiB`,
    );
  });
});
