// A streaming SSIM for the in-isolate perceptual guard. ssim.js keeps several number[] matrices of the
// full image (hundreds of MB at 10 MP), too much for a 128 MB isolate; this one walks 8x8 blocks of luma
// (Bezkrovny's block variant of SSIM, the constants of Wang et al. 2004) and allocates nothing per pixel.
import type { Rgba } from './types';

/** Lossy JPEG/WebP outputs must keep this block SSIM on luma (why 0.97: guard.ts). */
export const GUARD_SSIM_FLOOR = 0.97;

/** Palette kept only above this SSIM: 0.985 at Medium (75), 0.993 at Low (90), 0.975 at 55. */
export function paletteFloor(quality: number): number {
  const q = Math.min(95, Math.max(55, quality));
  return Math.min(0.996, 0.975 + ((q - 55) / 35) * 0.018);
}

/** At most 1 % of pixels may move by more than 6 levels (gradient banding, see largeErrorShare). */
export const PALETTE_MAX_BANDING = 0.01;

const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;
const BLOCK = 8;

type Plane = (d: Uint8ClampedArray, i: number) => number;

/** Luma of the pixel as seen on white (transparent areas compare as white, as a storefront shows them). */
const luma: Plane = (d, i) => {
  const a = d[i + 3]! / 255;
  const y = 0.299 * d[i]! + 0.587 * d[i + 1]! + 0.114 * d[i + 2]!;
  return y * a + 255 * (1 - a);
};
const alpha: Plane = (d, i) => d[i + 3]!;
// Colour-difference planes (on white, like luma): palette reduction errs in hue before it errs in luma.
const onWhite = (d: Uint8ClampedArray, i: number, c: number) => d[i + c]! * (d[i + 3]! / 255) + 255 * (1 - d[i + 3]! / 255);
const chromaB: Plane = (d, i) => 128 + 0.5 * onWhite(d, i, 2) - 0.169 * onWhite(d, i, 0) - 0.331 * onWhite(d, i, 1);
const chromaR: Plane = (d, i) => 128 + 0.5 * onWhite(d, i, 0) - 0.419 * onWhite(d, i, 1) - 0.081 * onWhite(d, i, 2);

function planeSsim(a: Rgba, b: Rgba, plane: Plane): number {
  const { width: w, height: h } = a;
  let total = 0;
  let blocks = 0;
  for (let by = 0; by + BLOCK <= h; by += BLOCK) {
    for (let bx = 0; bx + BLOCK <= w; bx += BLOCK) {
      let sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
      for (let y = by; y < by + BLOCK; y++) {
        for (let x = bx; x < bx + BLOCK; x++) {
          const i = (y * w + x) * 4;
          const va = plane(a.data, i);
          const vb = plane(b.data, i);
          sa += va; sb += vb; saa += va * va; sbb += vb * vb; sab += va * vb;
        }
      }
      const n = BLOCK * BLOCK;
      const ma = sa / n, mb = sb / n;
      const va = saa / n - ma * ma, vb = sbb / n - mb * mb, cov = sab / n - ma * mb;
      total += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      blocks++;
    }
  }
  return blocks === 0 ? 1 : total / blocks;
}

/**
 * 1 = identical. Luma always; alpha too when either image has transparency; the two chroma planes when
 * asked (palette decisions). The lowest plane counts.
 */
export function ssimScore(original: Rgba, candidate: Rgba, withAlpha: boolean, withChroma = false): number {
  if (original.width !== candidate.width || original.height !== candidate.height) return 0;
  let score = planeSsim(original, candidate, luma);
  if (withAlpha) score = Math.min(score, planeSsim(original, candidate, alpha));
  if (withChroma) score = Math.min(score, planeSsim(original, candidate, chromaB), planeSsim(original, candidate, chromaR));
  return score;
}

/**
 * Share of pixels whose colour (as seen on white) moved by more than `threshold` levels in any channel.
 * Catches palette banding on smooth gradients, which block SSIM misses: on the corpus, wallpapers with
 * gradients had 3.4-6.8 % of pixels off by more than 6 (butteraugli 3.7-4.8), flat graphics and
 * screenshots 0.1-0.3 % (butteraugli under 0.9).
 */
export function largeErrorShare(original: Rgba, candidate: Rgba, threshold = 6): number {
  const a = original.data;
  const b = candidate.data;
  let big = 0;
  for (let i = 0; i < a.length; i += 4) {
    const wa = a[i + 3]! / 255;
    const wb = b[i + 3]! / 255;
    for (let c = 0; c < 3; c++) {
      const va = a[i + c]! * wa + 255 * (1 - wa);
      const vb = b[i + c]! * wb + 255 * (1 - wb);
      if (Math.abs(va - vb) > threshold) { big++; break; }
    }
  }
  return big / (a.length / 4);
}
