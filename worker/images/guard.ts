// The perceptual guard: a lossy output must keep a minimum SSIM against the pixels it was made from.
// If it does not, the quality is raised in steps of 5 until it does, up to 90 (the Low level, which the
// documents treat as the visually lossless setting); whatever the guard costs is reported by
// `npm run bench:images -- --compare-guard`.
// Floor 0.97 (block SSIM on luma, perceptual.ts): on the corpus at q75 it sits at the lower quartile,
// and the images below it are the ones butteraugli ranks worst (Autumn 3-norm 1.45, Volna 1.31, against
// a median of 0.9); see worker/images/README.md for the figures.
import { decodeJpeg, decodeWebp, encodeJpeg, encodeWebp } from './codecs';
import { ssimScore } from './perceptual';
import type { Rgba } from './types';

export const GUARD_SSIM_FLOOR = 0.97;
export const GUARD_STEP = 5;
export const GUARD_MAX_QUALITY = 90;

/** 'measure' scores the output without raising the quality (benchmarks compare with and without). */
export type GuardMode = 'on' | 'off' | 'measure';

export type GuardedOutput = { bytes: Uint8Array; qualityUsed: number; score: number | null; raised: boolean };

type Codec = { encode(q: number): Promise<Uint8Array>; decode(b: Uint8Array): Promise<Rgba> };

async function guarded(source: Rgba, quality: number, codec: Codec, guard: GuardMode, withAlpha: boolean): Promise<GuardedOutput> {
  let q = quality;
  let bytes = await codec.encode(q);
  if (guard === 'off') return { bytes, qualityUsed: q, score: null, raised: false };
  let score = ssimScore(source, await codec.decode(bytes), withAlpha);
  while (guard === 'on' && score < GUARD_SSIM_FLOOR && q < GUARD_MAX_QUALITY) {
    q = Math.min(GUARD_MAX_QUALITY, q + GUARD_STEP);
    bytes = await codec.encode(q);
    score = ssimScore(source, await codec.decode(bytes), withAlpha);
  }
  return { bytes, qualityUsed: q, score, raised: q !== quality };
}

export function guardedJpeg(source: Rgba, quality: number, grayscale: boolean, guard: GuardMode): Promise<GuardedOutput> {
  return guarded(source, quality, { encode: (q) => encodeJpeg(source, { quality: q, grayscale }), decode: decodeJpeg }, guard, false);
}

export function guardedWebp(source: Rgba, quality: number, guard: GuardMode, withAlpha: boolean): Promise<GuardedOutput> {
  return guarded(source, quality, { encode: (q) => encodeWebp(source, { quality: q, lossless: false }), decode: decodeWebp }, guard, withAlpha);
}
