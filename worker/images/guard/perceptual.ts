// A streaming SSIM for the in-isolate perceptual guard. ssim.js keeps several number[] matrices of the
// full image (hundreds of MB at 10 MP), too much for a 128 MB isolate; this one walks 8x8 blocks of luma
// (Bezkrovny's block variant of SSIM, the constants of Wang et al. 2004) and allocates nothing per pixel.
import type { Rgba } from '../types';

/** Lossy JPEG/WebP outputs must keep this block SSIM on luma at display scale (why 0.97: guard/policy.ts). */
export const GUARD_SSIM_FLOOR = 0.97;

/**
 * The lossy guard judges an image at the size a storefront shows it, not at its stored size. Wang et
 * al.'s reference SSIM (ssim.m) box-downsamples by max(1, round(min(H, W) / 256)) before scoring to
 * model viewing distance; we anchor the same idea to the display instead: at most 2048 px on the long
 * side (Shopify's recommended product image size, what themes request from the CDN). So images up to
 * 2048 px keep the floor's calibration exactly (factor 1), and larger ones are box-averaged by the
 * integer factor ceil(long side / 2048) before the 8x8 block SSIM. Measured on 8-16 MP wallpaper crops:
 * full-size block SSIM scored native MozJPEG q75 at 0.80-0.95 on fine texture that butteraugli rates
 * about 1 (the edge of noticeable), so those were raised to q80 for nothing; at display scale q75
 * passes there while q30-q40 on the same photos still scores far under the floor (README, Guard).
 * Palette decisions stay at full size (per-pixel banding and hue shifts are what they judge).
 */
export const DISPLAY_MAX_SIDE = 2048;

/** The integer box factor that brings the long side to at most DISPLAY_MAX_SIDE (1 = as stored). */
export function displayScale(width: number, height: number): number {
  return Math.max(1, Math.ceil(Math.max(width, height) / DISPLAY_MAX_SIDE));
}

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

function planeSsim(a: Rgba, b: Rgba, plane: Plane, k = 1): number {
  // At display scale each sample is the mean of a k x k box (partial boxes at the right and bottom
  // edges ignored), summed row by row as guard/strip-guard.ts sums them, so both give the same bits.
  const w = a.width;
  const sw = Math.floor(w / k),
    sh = Math.floor(a.height / k);
  const kk = k * k;
  const sample = (d: Uint8ClampedArray, x: number, y: number) => {
    if (k === 1) return plane(d, (y * w + x) * 4);
    let s = 0;
    for (let dy = 0; dy < k; dy++) for (let dx = 0; dx < k; dx++) s += plane(d, ((y * k + dy) * w + x * k + dx) * 4);
    return s / kk;
  };
  let total = 0;
  let blocks = 0;
  for (let by = 0; by + BLOCK <= sh; by += BLOCK) {
    for (let bx = 0; bx + BLOCK <= sw; bx += BLOCK) {
      let sa = 0,
        sb = 0,
        saa = 0,
        sbb = 0,
        sab = 0;
      for (let y = by; y < by + BLOCK; y++) {
        for (let x = bx; x < bx + BLOCK; x++) {
          const va = sample(a.data, x, y);
          const vb = sample(b.data, x, y);
          sa += va;
          sb += vb;
          saa += va * va;
          sbb += vb * vb;
          sab += va * vb;
        }
      }
      const n = BLOCK * BLOCK;
      const ma = sa / n,
        mb = sb / n;
      const va = saa / n - ma * ma,
        vb = sbb / n - mb * mb,
        cov = sab / n - ma * mb;
      total += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      blocks++;
    }
  }
  return blocks === 0 ? 1 : total / blocks;
}

/**
 * 1 = identical. Luma always; alpha too when either image has transparency; the two chroma planes when
 * asked (palette decisions). The lowest plane counts. The lossy guard (no chroma) scores at display
 * scale (displayScale); palette decisions at full size.
 */
export function ssimScore(original: Rgba, candidate: Rgba, withAlpha: boolean, withChroma = false): number {
  if (original.width !== candidate.width || original.height !== candidate.height) return 0;
  const k = withChroma ? 1 : displayScale(original.width, original.height);
  let score = planeSsim(original, candidate, luma, k);
  if (withAlpha) score = Math.min(score, planeSsim(original, candidate, alpha, k));
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
      if (Math.abs(va - vb) > threshold) {
        big++;
        break;
      }
    }
  }
  return big / (a.length / 4);
}
