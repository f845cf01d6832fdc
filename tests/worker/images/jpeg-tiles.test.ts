// Progressive JPEG originals too large to hold whole are cut into tiles (jpeg/tiles.ts, the band patch in
// codecs/build.mjs). The tiles must decode to exactly the original's pixels, at full size and at the
// guard's DCT scales, for every sampling; and a 16.8 MP 4:4:4 quality-100 progressive photo (the issue's
// case: 6 B/px of coefficients, 100 MB) must get the real lossy result inside the memory budget.
import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { DEFAULT_BUDGET_BYTES } from '../../../worker/images/budget';
import { makeJpegTiles, TiledJpegDecoder, type RowSource } from '../../../worker/images/jpeg/tiles';
import {
  JpegDecoder,
  JpegEncoder,
  mozjpegPeakHeapBytes,
  readJpegHeader,
  releaseMozjpeg,
} from '../../../worker/images/jpeg/mozjpeg';
import { grainyUpscaleStrips, lossy, optimised } from './helpers';

function makeJpeg(
  width: number,
  height: number,
  quality: number,
  sampling: '420' | '444' | '422',
  grayscale = false,
): Uint8Array {
  // Progressive with MozJPEG's simple script: DC and AC first scans plus successive-approximation
  // refinement scans (the ones whose parsing depends on which coefficients are already nonzero).
  const enc = new JpegEncoder({ width, height, quality, sampling, grayscale, trellis: false, optimizeScans: false });
  grainyUpscaleStrips(width, height, 3, (_y, rows, n) => enc.write(rows, n));
  return enc.finish();
}

function decodeAll(src: RowSource): Uint8Array {
  const out = new Uint8Array(src.width * src.height * 3);
  let y = 0;
  try {
    for (let n = src.read(); n > 0; n = src.read()) {
      out.set(src.rows(n), y * src.width * 3);
      y += n;
    }
  } finally {
    src.close();
  }
  expect(y).toBe(src.height);
  return out;
}

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

describe('progressive JPEG tiles', () => {
  for (const [sampling, grey] of [
    ['420', false],
    ['444', false],
    ['422', false],
    ['420', true],
  ] as const) {
    it(`decode to the original's pixels (${grey ? 'grey' : sampling}, full size and DCT scales)`, () => {
      const bytes = makeJpeg(613, 1100, 95, sampling, grey);
      const info = readJpegHeader(bytes);
      expect(info.progressive).toBe(true);
      // Tiles of 128 and 256-384 rows: every boundary case (overlap, last partial iMCU row).
      for (const band of [info.coefBytes / 20, info.coefBytes / 3]) {
        const tiles = makeJpegTiles(bytes, info, band);
        expect(tiles.tiles.length).toBeGreaterThan(2);
        for (const scaleNum of [8, 4, 3]) {
          const whole = decodeAll(new JpegDecoder(bytes, { scaleNum, scaleDenom: 8 }));
          const tiled = decodeAll(new TiledJpegDecoder(tiles, { scaleNum, scaleDenom: 8 }));
          expect(tiled.length).toBe(whole.length);
          expect(firstDifference(tiled, whole)).toBe(-1);
        }
      }
    });
  }

  it('16.8 MP 4:4:4 quality-100 progressive: the lossy path in tiles, within the budget', { timeout: 300_000 }, async () => {
    const input = makeJpeg(5016, 3344, 100, '444');
    const info = readJpegHeader(input);
    expect(info).toMatchObject({ progressive: true, maxH: 1, maxV: 1 });
    expect(info.coefBytes).toBeGreaterThan(DEFAULT_BUDGET_BYTES * 0.9); // whole, the coefficients alone nearly fill it
    releaseMozjpeg(0);
    mozjpegPeakHeapBytes(true);
    const r = optimised(await optimiseImage(input, lossy(75)));
    releaseMozjpeg(0);
    const heap = mozjpegPeakHeapBytes(true);
    expect(r.tiles).toBeGreaterThan(1);
    expect(r.qualityUsed).toBeGreaterThanOrEqual(75);
    expect(r.bytesOut).toBeLessThan(r.bytesIn * 0.4); // a real re-encode, not metadata removal
    expect(r.ssim).toBeGreaterThan(0.97);
    expect(readJpegHeader(r.bytes)).toMatchObject({ width: 5016, height: 3344, maxH: 2, maxV: 2 });
    expect(heap + input.length * 2.5).toBeLessThan(DEFAULT_BUDGET_BYTES);
    console.log(
      `16.8 MP 4:4:4 q100: ${input.length} B -> ${r.bytesOut} B (q${r.qualityUsed}, ssim ${r.ssim?.toFixed(4)}), ${r.tiles} tiles, heap ${(heap / 2 ** 20).toFixed(1)} MiB`,
    );
  });
});
