// The perceptual guard: a lossy output must keep a minimum SSIM against the pixels it was made from.
// If it does not, the quality is raised ONE step of 5 (never above 90, the Low level). Floor 0.97 (block
// SSIM on luma, guard/perceptual.ts): on the corpus at q75 the images under it are exactly the ones butteraugli
// ranks worst (3-norm: rocket 1.51, Autumn 1.45, Volna 1.31, Blinds 1.22; median 0.95).
// Why one step: measured on the corpus, raising until the floor is met sent the two texture-heavy
// images (Volna, Blinds) to q90, x4.7 their bytes, because SSIM over-penalises fine texture that
// butteraugli rates acceptable; it cost +66 % bytes and took the Medium median from 64.9 % to 54.0 %.
// One step fixes the visible blocking (Autumn 1.45 -> 1.05) at a bounded cost (figures in README).
// Images larger than a storefront shows (long side > 2048 px) are judged at display scale, box-averaged
// to at most 2048 px (guard/perceptual.ts displayScale): up to 2048 px the calibration above holds unchanged.
//
// This file holds only the rule: no codec is imported here, so every path (whole-image.ts, the
// strip guard of the streaming JPEG/PNG paths, the bounded libwebp) reads the same numbers.
import { GUARD_SSIM_FLOOR } from './perceptual';

export { GUARD_SSIM_FLOOR };
export const GUARD_STEP = 5;
export const GUARD_MAX_QUALITY = 90;
/** Most the guard may add to the requested quality. */
export const GUARD_MAX_RAISE = 5;

/** 'measure' scores the output without raising the quality (benchmarks compare with and without). */
export type GuardMode = 'on' | 'off' | 'measure';

export type GuardedOutput = { bytes: Uint8Array; qualityUsed: number; score: number | null; raised: boolean };
