// The banded baseline JPEG writer (jpeg/banded.ts): bands encoded on their own and joined with restart
// markers must make one valid JPEG (no decoder warning: a wrong restart marker or DC predictor would
// warn or show), with the whole image's quality, a few % larger than the progressive encoder's output,
// in a heap of one band.
import { describe, expect, it } from 'vitest';
import { BAND_ROWS, createBandedJpegWriter } from '../../../worker/images/jpeg/banded';
import {
  JpegDecoder,
  JpegEncoder,
  mozjpegPeakHeapBytes,
  readJpegHeader,
  releaseMozjpeg,
} from '../../../worker/images/jpeg/mozjpeg';
import { grainyUpscaleStrips } from './helpers';

function source(width: number, height: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  grainyUpscaleStrips(width, height, 3, (y, rows, n) => rgb.set(rows.subarray(0, n * width * 3), y * width * 3), undefined, 2);
  return rgb;
}

function decode(bytes: Uint8Array): { rgb: Uint8Array; warnings: number } {
  const d = new JpegDecoder(bytes);
  const rgb = new Uint8Array(d.width * d.height * 3);
  let y = 0;
  try {
    for (let n = d.read(); n > 0; n = d.read()) {
      rgb.set(d.rows(n), y * d.width * 3);
      y += n;
    }
    const { warnings, truncated } = d.finish();
    expect(truncated).toBe(false);
    expect(y).toBe(d.height);
    return { rgb, warnings };
  } finally {
    d.close();
  }
}

const meanAbs = (a: Uint8Array, b: Uint8Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return s / a.length;
};

describe('banded baseline JPEG writer', () => {
  for (const [w, h] of [
    [1001, 3 * BAND_ROWS + 37],
    [640, BAND_ROWS],
    [333, 50],
  ] as const) {
    it(`${w} x ${h}: one valid baseline file, the progressive encoder's fidelity, a few % more bytes`, () => {
      const rgb = source(w, h);
      const writer = createBandedJpegWriter({ width: w, height: h, quality: 75 });
      // Rows arrive in odd-sized strips, as from the PNG reader.
      for (let y = 0; y < h; y += 23) writer.write(rgb.subarray(y * w * 3), Math.min(23, h - y));
      const banded = writer.finish();
      expect(readJpegHeader(banded)).toMatchObject({ width: w, height: h, progressive: false, maxH: 2, maxV: 2 });
      const enc = new JpegEncoder({ width: w, height: h, quality: 75, optimizeScans: false });
      enc.write(rgb, h);
      const whole = enc.finish();
      const a = decode(banded);
      const b = decode(whole);
      expect(a.warnings).toBe(0);
      const errBanded = meanAbs(a.rgb, rgb);
      const errWhole = meanAbs(b.rgb, rgb);
      expect(Math.abs(errBanded - errWhole)).toBeLessThan(0.05 * errWhole + 0.02);
      // Standard tables and baseline: more bytes than the progressive encoder's optimised output.
      expect(banded.length).toBeLessThan(whole.length * 1.5);
      expect(banded.length).toBeGreaterThan(whole.length * 0.95);
      console.log(
        `banded ${w} x ${h}: ${banded.length} B, progressive ${whole.length} B (+${((100 * banded.length) / whole.length - 100).toFixed(1)} %)`,
      );
    });
  }

  it('keeps the heap at one band for a 25 MP image', { timeout: 300_000 }, () => {
    const w = 6120;
    const h = 4080;
    releaseMozjpeg(0);
    mozjpegPeakHeapBytes(true);
    const writer = createBandedJpegWriter({ width: w, height: h, quality: 75 });
    grainyUpscaleStrips(w, h, 3, (_y, rows, n) => writer.write(rows, n), undefined, 2);
    const out = writer.finish();
    releaseMozjpeg(0);
    const heap = mozjpegPeakHeapBytes(true);
    expect(heap).toBeLessThan(24 * 2 ** 20); // the progressive encoder needs 75 MB of coefficients here
    const d = new JpegDecoder(out, { scaleNum: 1, scaleDenom: 8 });
    try {
      while (d.read() > 0);
      expect(d.finish().warnings).toBe(0);
    } finally {
      d.close();
    }
  });
});
