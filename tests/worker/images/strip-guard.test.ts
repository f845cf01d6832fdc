import { describe, expect, it } from 'vitest';
import { decodeJpeg, encodeJpeg } from '../../../worker/images/jsquash';
import {
  displayScale,
  GUARD_SSIM_FLOOR,
  largeErrorShare,
  paletteFloor,
  ssimScore,
} from '../../../worker/images/guard/perceptual';
import { quantise } from '../../../worker/images/png/quantise';
import { createStripGuard, type StripGuardLevel } from '../../../worker/images/guard/strip-guard';
import type { Rgba } from '../../../worker/images/types';
import { makeImage } from './helpers';

// Texture + gradient + a transparent corner: every plane of the metric has something to measure.
const W = 203;
const H = 141;
const original = makeImage(W, H, (x, y) => {
  const v = ((x * 37) ^ (y * 91) ^ ((x * y) >> 3)) & 0xff;
  return [(v + x) & 0xff, (y * 2) & 0xff, (255 - v) & 0xff, x < 40 && y < 30 ? (x * 6) & 0xff : 255];
});

function pack(img: Rgba, channels: 1 | 3 | 4): Uint8Array {
  const out = new Uint8Array(img.width * img.height * channels);
  for (let p = 0; p < img.width * img.height; p++)
    for (let c = 0; c < channels; c++) out[p * channels + c] = img.data[p * 4 + c]!;
  return out;
}

/** Expands packed rows back to RGBA, as the whole-image guard sees them (grey to r=g=b, opaque). */
function unpack(bytes: Uint8Array, w: number, h: number, channels: 1 | 3 | 4): Rgba {
  const data = new Uint8ClampedArray(w * h * 4);
  for (let p = 0; p < w * h; p++) {
    for (let c = 0; c < 3; c++) data[p * 4 + c] = bytes[p * channels + (channels === 1 ? 0 : c)]!;
    data[p * 4 + 3] = channels === 4 ? bytes[p * channels + 3]! : 255;
  }
  return { data, width: w, height: h };
}

function stripScore(a: Uint8Array, b: Uint8Array, channels: 1 | 3 | 4, level: StripGuardLevel, strip: number, quality = 75) {
  const g = createStripGuard({ width: W, height: H, level, quality });
  const stride = W * channels;
  for (let y = 0; y < H; y += strip) {
    const n = Math.min(strip, H - y);
    g.push(a.subarray(y * stride, (y + n) * stride), b.subarray(y * stride, (y + n) * stride), n, channels);
  }
  return g.result();
}

describe('strip-wise perceptual guard', () => {
  it('gives the whole-image score bit for bit, whatever the strip height, for JPEG output (luma)', async () => {
    const opaque = makeImage(W, H, (x, y) => {
      const i = (y * W + x) * 4;
      return [original.data[i]!, original.data[i + 1]!, original.data[i + 2]!, 255];
    });
    const src = await decodeJpeg(await encodeJpeg(opaque, { quality: 95 }));
    const low = await decodeJpeg(await encodeJpeg(src, { quality: 40 }));
    const whole = ssimScore(src, low, false);
    expect(whole).toBeLessThan(GUARD_SSIM_FLOOR); // q40 on texture fails the floor: the verdict is exercised
    for (const strip of [1, 3, 8, 13, 64, H]) {
      const r = stripScore(pack(src, 3), pack(low, 3), 3, 'luma', strip);
      expect(r.score).toBe(whole);
      expect(r.pass).toBe(false);
    }
    const high = await decodeJpeg(await encodeJpeg(src, { quality: 95 }));
    const r = stripScore(pack(src, 4), pack(high, 4), 4, 'luma', 7);
    expect(r.score).toBe(ssimScore(src, high, false));
    expect(r.pass).toBe(ssimScore(src, high, false) >= GUARD_SSIM_FLOOR);
    expect(r.pass).toBe(true);
  });

  it('matches luma + alpha and greyscale rows', () => {
    const shifted = makeImage(W, H, (x, y) => {
      const i = (y * W + x) * 4;
      const d = original.data;
      return [d[i]! ^ 8, d[i + 1]!, d[i + 2]! ^ 4, d[i + 3]! ^ 16];
    });
    expect(stripScore(pack(original, 4), pack(shifted, 4), 4, 'luma+alpha', 5).score).toBe(ssimScore(original, shifted, true));
    const grey = pack(original, 1);
    const greyB = pack(shifted, 1);
    expect(stripScore(grey, greyB, 1, 'luma', 11).score).toBe(ssimScore(unpack(grey, W, H, 1), unpack(greyB, W, H, 1), false));
  });

  it('judges a palette as the whole-image palette check does (SSIM on four planes, banding)', () => {
    const reduced = quantise(original);
    const whole = ssimScore(original, reduced, true, true);
    const banding = largeErrorShare(original, reduced);
    for (const strip of [2, 8, 50]) {
      const r = stripScore(pack(original, 4), pack(reduced, 4), 4, 'palette', strip, 75);
      expect(r.score).toBe(whole);
      expect(r.banding).toBe(banding);
      expect(r.pass).toBe(whole >= paletteFloor(75) && banding <= 0.01);
    }
    // A flat graphic passes the palette check, the texture above does not.
    const flat = makeImage(W, H, (x, y) => (x < 100 ? [200, 30, 30, 255] : y < 70 ? [20, 20, 200, 255] : [250, 250, 250, 255]));
    expect(stripScore(pack(flat, 4), pack(quantise(flat), 4), 4, 'palette', 9).pass).toBe(true);
    expect(stripScore(pack(original, 4), pack(reduced, 4), 4, 'palette', 9).pass).toBe(false);
  });

  it('scores images wider than the display at display scale, bit for bit with the whole-image guard', () => {
    expect([displayScale(2048, 2048), displayScale(2049, 10), displayScale(10, 4096), displayScale(5000, 5000)]).toEqual([
      1, 2, 2, 3,
    ]);
    for (const [w, h] of [
      [2100, 37],
      [4300, 50],
    ] as const) {
      const k = displayScale(w, h);
      const img = (seed: number) =>
        makeImage(w, h, (x, y) => {
          const v = ((x * 37) ^ (y * 91) ^ ((x * y) >> 3) ^ seed) & 0xff;
          return [(v + x) & 0xff, (y * 5) & 0xff, (255 - v) & 0xff, x % 500 < 40 ? (x * 6) & 0xff : 255];
        });
      const a = img(0);
      const b = img(9);
      for (const withAlpha of [false, true]) {
        const whole = ssimScore(a, b, withAlpha);
        const level = withAlpha ? 'luma+alpha' : 'luma';
        for (const strip of [1, k + 1, 16, h]) {
          const g = createStripGuard({ width: w, height: h, level });
          const pa = pack(a, 4),
            pb = pack(b, 4);
          for (let y = 0; y < h; y += strip) {
            const n = Math.min(strip, h - y);
            g.push(pa.subarray(y * w * 4, (y + n) * w * 4), pb.subarray(y * w * 4, (y + n) * w * 4), n, 4);
          }
          expect(g.result().score).toBe(whole);
        }
        // ...and it is not the full-size score: the box average is really applied.
        const full = createStripGuard({ width: w, height: h, level, scale: 1 });
        full.push(pack(a, 4), pack(b, 4), h, 4);
        expect(full.result().score).not.toBeCloseTo(whole, 3);
      }
    }
  });

  it('refuses missing or extra rows', () => {
    const g = createStripGuard({ width: W, height: H, level: 'luma' });
    const a = pack(original, 4);
    g.push(a, a, 10, 4);
    expect(() => g.result()).toThrow(/10 of 141/);
    expect(() => g.push(a, a, H, 4)).toThrow(RangeError);
  });
});
