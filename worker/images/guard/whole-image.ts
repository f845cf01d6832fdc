// The whole-image guard (small JPEG/WebP/PNG paths): encode with the jSquash codecs, decode, score, raise
// once. The rule itself (floor, step, ceiling) lives in policy.ts, which imports no codec, so the bounded
// codecs (webp/libwebp.ts) can follow it without importing this file.
import { decodeJpeg, decodeWebp, encodeJpeg, encodeWebp } from '../jsquash';
import { ssimScore } from './perceptual';
import { GUARD_MAX_QUALITY, GUARD_MAX_RAISE, GUARD_SSIM_FLOOR, GUARD_STEP, type GuardMode, type GuardedOutput } from './policy';
import type { Rgba } from '../types';

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
