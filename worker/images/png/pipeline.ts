// PNG originals. Lossless: OxiPNG on the file (pixel-identical, 16-bit kept). Lossy: keep PNG, with
// palette reduction only when its SSIM clears the floor for the chosen quality; PNG to JPG when asked
// (flattened on white) and, with size control, only when the JPG is smaller than the best PNG.
import type { Candidate } from '../candidates';
import { smallest } from '../candidates';
import { decodePng, oxipngFile, oxipngPixels } from '../jsquash';
import { guardedJpeg } from '../guard/whole-image';
import type { GuardMode } from '../guard/policy';
import { largeErrorShare, paletteFloor, PALETTE_MAX_BANDING, ssimScore } from '../guard/perceptual';
import { flattenOnWhite, hasTransparency } from '../pixels/rgba';
import { colourChunks, withChunks } from './chunks';
import { countColours, quantise } from './quantise';
import type { HeaderInfo } from '../sniff';
import type { EngineSettings } from '../types';
import { applyWatermark } from '../pixels/watermark';
import { resizedSize, resizeRgbaImage } from '../pixels/resize';

export { paletteFloor, PALETTE_MAX_BANDING } from '../guard/perceptual';

export async function pngCandidates(
  input: Uint8Array,
  header: HeaderInfo,
  s: EngineSettings,
  guard: GuardMode,
): Promise<{ best: Candidate | null; note?: string }> {
  // Resize on request (pixels/resize.ts): the PNG is rebuilt from the resized pixels, and the logo is
  // placed on the resized image.
  const target = resizedSize(header.width, header.height, s.resizeLongSide);
  const base = {
    format: 'png' as const,
    width: target?.width ?? header.width,
    height: target?.height ?? header.height,
    convertedToJpg: false,
    watermarked: false,
  };
  if (s.mode === 'lossless' && !s.watermark && !s.pngToJpg && !target) return { best: { ...base, bytes: oxipngFile(input) } };

  const colour = colourChunks(input);
  const decoded = decodePng(input);
  const pixels = target ? resizeRgbaImage(decoded, target) : decoded;
  if (s.watermark) await applyWatermark(pixels, s.watermark);
  const watermarked = Boolean(s.watermark);
  const alpha = hasTransparency(pixels);

  // Lossless PNG of the (possibly watermarked or resized) pixels; otherwise the file itself is optimised
  // (keeps 16-bit precision in lossless mode).
  const pngLossless: Candidate =
    watermarked || target || (s.mode === 'lossy' && header.bitDepth === 16)
      ? { ...base, watermarked, bytes: withChunks(oxipngPixels(pixels), colour) }
      : { ...base, bytes: oxipngFile(input) };

  let palette: Candidate | null = null;
  let note: string | undefined;
  if (s.mode === 'lossy' && countColours(pixels) > 256) {
    const reduced = quantise(pixels);
    const score = ssimScore(pixels, reduced, alpha, true);
    const banding = largeErrorShare(pixels, reduced);
    if (score >= paletteFloor(s.quality) && banding <= PALETTE_MAX_BANDING)
      palette = { ...base, watermarked, bytes: withChunks(oxipngPixels(reduced), colour) };
    else
      note = `palette rejected (SSIM ${score.toFixed(4)}, floor ${paletteFloor(s.quality).toFixed(4)}; ${(banding * 100).toFixed(1)} % of pixels off by > 6)`;
  }
  const bestPng = smallest([pngLossless, palette]);

  if (!s.pngToJpg) return { best: bestPng, note };
  const quality = s.mode === 'lossless' ? 90 : s.quality;
  const flat = flattenOnWhite(pixels);
  const jpg = await guardedJpeg(flat, quality, false, s.mode === 'lossy' ? guard : 'off');
  const jpgCandidate: Candidate = {
    bytes: jpg.bytes,
    format: 'jpeg',
    width: base.width,
    height: base.height,
    convertedToJpg: true,
    watermarked,
    qualityUsed: jpg.qualityUsed,
    ssim: jpg.score,
  };
  if (s.pngToJpgSizeControl && bestPng && jpgCandidate.bytes.length >= bestPng.bytes.length) {
    return {
      best: bestPng,
      note: `JPG skipped: ${jpgCandidate.bytes.length} bytes is not smaller than the PNG (${bestPng.bytes.length})`,
    };
  }
  // Without size control the merchant asked for JPG: it wins unless it is larger than the original
  // (never larger), in which case the best PNG is used.
  if (jpgCandidate.bytes.length < input.length || watermarked || target) return { best: jpgCandidate, note };
  return { best: bestPng, note: 'JPG not smaller than the original PNG' };
}
