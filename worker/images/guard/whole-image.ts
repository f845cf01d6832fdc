// The perceptual guard: a lossy output must keep a minimum SSIM against the pixels it was made from.
// If it does not, the quality is raised ONE step of 5 (never above 90, the Low level). Floor 0.97 (block
// SSIM on luma, perceptual.ts): on the corpus at q75 the images under it are exactly the ones butteraugli
// ranks worst (3-norm: rocket 1.51, Autumn 1.45, Volna 1.31, Blinds 1.22; median 0.95).
// Why one step: measured on the corpus, raising until the floor is met sent the two texture-heavy
// images (Volna, Blinds) to q90, x4.7 their bytes, because SSIM over-penalises fine texture that
// butteraugli rates acceptable; it cost +66 % bytes and took the Medium median from 64.9 % to 54.0 %.
// One step fixes the visible blocking (Autumn 1.45 -> 1.05) at a bounded cost (figures in README).
// Images larger than a storefront shows (long side > 2048 px) are judged at display scale, box-averaged
// to at most 2048 px (perceptual.ts displayScale): up to 2048 px the calibration above holds unchanged.
import { decodeJpeg, decodeWebp, encodeJpeg, encodeWebp } from '../jsquash';
import { GUARD_SSIM_FLOOR, ssimScore } from './perceptual';
import type { Rgba } from '../types';

export { GUARD_SSIM_FLOOR };
export const GUARD_STEP = 5;
export const GUARD_MAX_QUALITY = 90;
/** Most the guard may add to the requested quality. */
export const GUARD_MAX_RAISE = 5;

/** 'measure' scores the output without raising the quality (benchmarks compare with and without). */
export type GuardMode = 'on' | 'off' | 'measure';

export type GuardedOutput = { bytes: Uint8Array; qualityUsed: number; score: number | null; raised: boolean };

type Codec = { encode(q: number): Promise<Uint8Array>; decode(b: Uint8Array): Promise<Rgba> };

async function guarded(
  source: Rgba,
  quality: number,
  codec: Codec,
  guard: GuardMode,
  withAlpha: boolean,
): Promise<GuardedOutput> {
  let q = quality;
  let bytes = await codec.encode(q);
  if (guard === 'off') return { bytes, qualityUsed: q, score: null, raised: false };
  let score = ssimScore(source, await codec.decode(bytes), withAlpha);
  const ceiling = Math.min(GUARD_MAX_QUALITY, quality + GUARD_MAX_RAISE);
  while (guard === 'on' && score < GUARD_SSIM_FLOOR && q < ceiling) {
    q = Math.min(ceiling, q + GUARD_STEP);
    bytes = await codec.encode(q);
    score = ssimScore(source, await codec.decode(bytes), withAlpha);
  }
  return { bytes, qualityUsed: q, score, raised: q !== quality };
}

export function guardedJpeg(source: Rgba, quality: number, grayscale: boolean, guard: GuardMode): Promise<GuardedOutput> {
  return guarded(
    source,
    quality,
    { encode: (q) => encodeJpeg(source, { quality: q, grayscale }), decode: decodeJpeg },
    guard,
    false,
  );
}

export function guardedWebp(source: Rgba, quality: number, guard: GuardMode, withAlpha: boolean): Promise<GuardedOutput> {
  return guarded(
    source,
    quality,
    { encode: (q) => encodeWebp(source, { quality: q, lossless: false }), decode: decodeWebp },
    guard,
    withAlpha,
  );
}
