// JPEG originals. Lossless: segment surgery only (no decode, pixel-identical). Lossy: MozJPEG at the
// chosen quality with the perceptual guard; orientation and ICC profile re-attached to the new file.
import type { Candidate } from './candidates';
import { smallest } from './candidates';
import { decodeJpeg, encodeJpeg } from './codecs';
import { attachMetadata, iccSegments, jpegOrientation, stripJpegMetadata } from './jpeg-markers';
import { applyOrientation } from './pixels';
import type { HeaderInfo } from './sniff';
import { guardedJpeg, type GuardMode } from './guard';
import type { EngineSettings } from './types';
import { applyWatermark } from './watermark';

/** Quality for re-encoding a watermarked JPEG in lossless mode (the Low level: visually lossless). */
export const LOSSLESS_WATERMARK_QUALITY = 90;

export async function jpegCandidates(input: Uint8Array, header: HeaderInfo, s: EngineSettings, guard: GuardMode): Promise<{ best: Candidate | null; note?: string }> {
  const stripped: Candidate = { bytes: stripJpegMetadata(input), format: 'jpeg', width: header.width, height: header.height, convertedToJpg: false, watermarked: false };
  const cmyk = header.components === 4;
  if (cmyk && !s.watermark) return { best: stripped, note: 'CMYK JPEG: the WASM decoder reads YCbCr/grey only, so only metadata was removed' };
  if (cmyk) throw new UnsupportedInput('CMYK JPEG cannot be watermarked by the WASM codec');
  if (s.mode === 'lossless' && !s.watermark) return { best: stripped };

  const orientation = jpegOrientation(input);
  const icc = iccSegments(input);
  let pixels = await decodeJpeg(input);
  const grayscale = header.components === 1 && !s.watermark;
  if (s.watermark) {
    // Composite on upright pixels so "bottom right" is where the shopper sees it; orientation becomes 1.
    pixels = applyOrientation(pixels, orientation);
    await applyWatermark(pixels, s.watermark);
    const quality = s.mode === 'lossless' ? LOSSLESS_WATERMARK_QUALITY : s.quality;
    const out = s.mode === 'lossless' ? { bytes: await encodeJpeg(pixels, { quality }), qualityUsed: quality } : await guardedJpeg(pixels, quality, false, guard);
    return { best: { bytes: attachMetadata(out.bytes, { orientation: 1, icc }), format: 'jpeg', width: pixels.width, height: pixels.height, convertedToJpg: false, watermarked: true, qualityUsed: out.qualityUsed } };
  }
  const out = await guardedJpeg(pixels, s.quality, grayscale, guard);
  const lossy: Candidate = { bytes: attachMetadata(out.bytes, { orientation, icc }), format: 'jpeg', width: header.width, height: header.height, convertedToJpg: false, watermarked: false, qualityUsed: out.qualityUsed, ssim: out.score };
  // At high quality a re-encode can exceed an already-compressed original; metadata removal may still win.
  return { best: smallest([lossy, stripped]) };
}

export class UnsupportedInput extends Error {
  override name = 'UnsupportedInput';
}
