// The lossy guard judges large photos at the size a storefront shows them (guard/perceptual.ts displayScale):
// a 6 MP textured photo keeps the requested q75 although its full-size block SSIM is under the floor
// (fine grain that no display shows), while a visibly degraded candidate is still refused at display scale.
import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { guardDecodeScale } from '../../../worker/images/jpeg/pipeline';
import { JpegDecoder, JpegEncoder } from '../../../worker/images/jpeg/mozjpeg';
import { displayScale, GUARD_SSIM_FLOOR } from '../../../worker/images/guard/perceptual';
import { createStripGuard } from '../../../worker/images/guard/strip-guard';
import { lossy, optimised } from './helpers';

const W = 3000;
const H = 2000;

/**
 * Camera-like texture: value noise on a 4 px grid (detail a 1500 px display still shows) + per-pixel
 * grain of +-8 (sensor noise, averaged away at display size) over a gradient, saved as a q92 JPEG.
 */
function texturedPhoto(): Uint8Array {
  let seed = 1;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >> 8) / (1 << 23);
  };
  const cell = 4;
  const gw = Math.ceil(W / cell) + 2;
  const gh = Math.ceil(H / cell) + 2;
  const grid = new Float64Array(gw * gh * 3).map(() => rnd() * 2 - 1);
  const enc = new JpegEncoder({ width: W, height: H, quality: 92, trellis: false, optimizeScans: false });
  const rows = new Uint8Array(W * 3 * 16);
  for (let y0 = 0; y0 < H; y0 += 16) {
    const n = Math.min(16, H - y0);
    for (let r = 0; r < n; r++) {
      const y = y0 + r;
      const gy = Math.floor(y / cell),
        wy = y / cell - gy;
      for (let x = 0; x < W; x++) {
        const gx = Math.floor(x / cell),
          wx = x / cell - gx;
        const grain = (rnd() * 2 - 1) * 8;
        for (let c = 0; c < 3; c++) {
          const at = (yy: number, xx: number) => grid[(yy * gw + xx) * 3 + c]!;
          const v =
            (at(gy, gx) * (1 - wx) + at(gy, gx + 1) * wx) * (1 - wy) + (at(gy + 1, gx) * (1 - wx) + at(gy + 1, gx + 1) * wx) * wy;
          const base = 60 + 120 * (x / W) + 40 * (c === 0 ? y / H : 0.5);
          rows[(r * W + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(base + 40 * v + grain)));
        }
      }
    }
    enc.write(rows, n);
  }
  return enc.finish();
}

/** Re-encodes a JPEG at `quality` (strips straight through, as the product does). */
function reencode(bytes: Uint8Array, quality: number): Uint8Array {
  const dec = new JpegDecoder(bytes);
  const enc = new JpegEncoder({ width: dec.width, height: dec.height, quality });
  for (let n = dec.read(); n > 0; n = dec.read()) enc.write(dec.rows(n).slice(), n);
  dec.close();
  return enc.finish();
}

/** Block SSIM of `candidate` against `original` at the given box scale (default: display scale). */
function score(original: Uint8Array, candidate: Uint8Array, scale?: number): number {
  const a = new JpegDecoder(original);
  const b = new JpegDecoder(candidate);
  const g = createStripGuard({ width: a.width, height: a.height, level: 'luma', scale });
  for (;;) {
    const na = a.read();
    const nb = b.read();
    if (na === 0 || na !== nb) break;
    g.push(a.rows(na), b.rows(nb), na, 3);
  }
  a.close();
  b.close();
  return g.result().score;
}

describe('display-scale perceptual guard', () => {
  it(
    'keeps q75 on a large textured photo whose full-size score is under the floor, and refuses q30 there',
    { timeout: 120_000 },
    async () => {
      const input = texturedPhoto();
      expect(displayScale(W, H)).toBe(2);

      const r = optimised(await optimiseImage(input, lossy(75)));
      expect(r.qualityUsed).toBe(75);
      expect(r.ssim).toBeGreaterThanOrEqual(GUARD_SSIM_FLOOR);
      expect(r.bytesOut).toBeLessThan(input.length * 0.5);
      // The JPEG guard decodes both images with libjpeg's DCT scaling (here 1/2) instead of box-averaging
      // full-size rows: the same judgement within a few thousandths.
      expect(guardDecodeScale(W, H)).toBe(4);
      expect([guardDecodeScale(2048, 2048), guardDecodeScale(5000, 5000), guardDecodeScale(8192, 3000)]).toEqual([8, 3, 2]);
      expect(Math.abs(r.ssim! - score(input, r.bytes))).toBeLessThan(0.005);
      // What the full-size guard saw (it raised this photo to q80): grain that JPEG q75 smooths away.
      const full = score(input, reencode(input, 75), 1);
      expect(full).toBeLessThan(GUARD_SSIM_FLOOR - 0.03);
      expect(r.ssim!).toBeGreaterThan(full);

      // Visibly degraded candidates are still refused at display scale: q30's blocking and smeared
      // texture, and 8 x 8 blocks flattened to their mean (what blocking looks like at its worst).
      const q30 = score(input, reencode(input, 30));
      expect(q30).toBeLessThan(GUARD_SSIM_FLOOR - 0.01);
      const dec = new JpegDecoder(input);
      const enc = new JpegEncoder({ width: W, height: H, quality: 95 });
      for (let n = dec.read(); n > 0; n = dec.read()) {
        const rows = dec.rows(n).slice();
        for (let y = 0; y < n; y += 8) {
          for (let x = 0; x + 8 <= W; x += 8) {
            for (let c = 0; c < 3; c++) {
              let s = 0;
              for (let dy = 0; dy < 8; dy++) for (let dx = 0; dx < 8; dx++) s += rows[((y + dy) * W + x + dx) * 3 + c]!;
              for (let dy = 0; dy < 8; dy++)
                for (let dx = 0; dx < 8; dx++) rows[((y + dy) * W + x + dx) * 3 + c] = Math.round(s / 64);
            }
          }
        }
        enc.write(rows, n);
      }
      dec.close();
      expect(score(input, enc.finish())).toBeLessThan(GUARD_SSIM_FLOOR - 0.05);
    },
  );
});
