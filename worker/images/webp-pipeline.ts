// WebP originals: lossy re-encode (libwebp, with alpha) under the perceptual guard, or lossless
// (exact) re-encode that keeps every pixel; the never-larger check decides whether either is kept.
import type { Candidate } from './candidates';
import { decodeWebp, encodeWebp } from './codecs';
import { guardedWebp, type GuardMode } from './guard';
import { hasTransparency } from './pixels';
import type { HeaderInfo } from './sniff';
import type { EngineSettings } from './types';
import { applyWatermark } from './watermark';

export async function webpCandidates(input: Uint8Array, header: HeaderInfo, s: EngineSettings, guard: GuardMode): Promise<{ best: Candidate | null; note?: string }> {
  const pixels = await decodeWebp(input);
  if (s.watermark) await applyWatermark(pixels, s.watermark);
  const base = { format: 'webp' as const, width: pixels.width, height: pixels.height, convertedToJpg: false, watermarked: Boolean(s.watermark) };
  if (s.mode === 'lossless') {
    // A lossy WebP re-encoded losslessly is always larger: only lossless originals are worth trying.
    if (!header.webpLossless && !s.watermark) return { best: null, note: 'lossy WebP original: lossless mode cannot make it smaller' };
    return { best: { ...base, bytes: await encodeWebp(pixels, { quality: 100, lossless: true }) } };
  }
  const out = await guardedWebp(pixels, s.quality, guard, hasTransparency(pixels));
  return { best: { ...base, bytes: out.bytes, qualityUsed: out.qualityUsed, ssim: out.score } };
}
