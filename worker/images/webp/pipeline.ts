// WebP originals: lossy re-encode (libwebp, with alpha) under the perceptual guard, or lossless
// (exact) re-encode that keeps every pixel; the never-larger check decides whether either is kept.
import type { Candidate } from '../candidates';
import { decodeWebp, encodeWebp } from '../jsquash';
import { guardedWebp } from '../guard/whole-image';
import type { GuardMode } from '../guard/policy';
import { hasTransparency } from '../pixels/rgba';
import { resizedSize, resizeRgbaImage } from '../pixels/resize';
import type { HeaderInfo } from '../sniff';
import type { EngineSettings } from '../types';
import { applyWatermark, placeLogo, type PlacedWatermark } from '../pixels/watermark';
import { DEFAULT_BUDGET_BYTES, estimatePeakBytes } from '../budget';
import { UnsupportedInput } from '../jpeg/pipeline';
import { AlphaTooLarge, optimiseWebpBounded, type WebpPicture } from './libwebp';

export async function webpCandidates(
  input: Uint8Array,
  header: HeaderInfo,
  s: EngineSettings,
  guard: GuardMode,
): Promise<{ best: Candidate | null; note?: string }> {
  const decoded = await decodeWebp(input);
  // Resize on request (pixels/resize.ts) before the logo is placed (on the image the shopper sees).
  const target = resizedSize(decoded.width, decoded.height, s.resizeLongSide);
  const pixels = target ? resizeRgbaImage(decoded, target) : decoded;
  if (s.watermark) await applyWatermark(pixels, s.watermark);
  const base = {
    format: 'webp' as const,
    width: pixels.width,
    height: pixels.height,
    convertedToJpg: false,
    watermarked: Boolean(s.watermark),
  };
  if (s.mode === 'lossless' && (header.webpLossless || !target)) {
    // A lossy WebP re-encoded losslessly is always larger: only lossless originals are worth trying.
    if (!header.webpLossless && !s.watermark)
      return { best: null, note: 'lossy WebP original: lossless mode cannot make it smaller' };
    return { best: { ...base, bytes: await encodeWebp(pixels, { quality: 100, lossless: true }) } };
  }
  // Lossless mode reaches here only for a resized lossy original: encoded at the Low level, like JPEG.
  const quality = s.mode === 'lossless' ? 90 : s.quality;
  const out = await guardedWebp(pixels, quality, s.mode === 'lossless' ? 'off' : guard, hasTransparency(pixels));
  return { best: { ...base, bytes: out.bytes, qualityUsed: out.qualityUsed, ssim: out.score } };
}

/**
 * WebPs beyond jSquash's budget (lossy mode, with or without watermark; budget.ts picks this): our libwebp build
 * decodes into the encoder's YUV picture and guards strip by strip (webp/libwebp.ts); real transparency
 * is written by our own bounded alpha encoder (webp/alph.ts). Memory: budget.ts WEBP_BOUNDED.
 */
export async function largeWebpCandidates(
  input: Uint8Array,
  header: HeaderInfo,
  s: EngineSettings,
  guard: GuardMode,
  budgetBytes = DEFAULT_BUDGET_BYTES,
): Promise<{ best: Candidate | null; note?: string }> {
  // Resize on request: the picture is resized first and the logo placed on the resized image.
  const target = resizedSize(header.width, header.height, s.resizeLongSide);
  const sized = target ? { ...header, ...target } : header;
  const placed = s.watermark ? await placeLogo(s.watermark, sized.width, sized.height) : null;
  // The alpha plane is written once its size is counted: without a watermark an ALPH chunk as large as
  // the original cannot make the file smaller (never larger: the original stays); with one, the output
  // is needed, and the JS holds the chunk and the assembled file within what the budget leaves.
  const leftForAlpha = Math.floor((budgetBytes - estimatePeakBytes('webpBounded', header, input.length, s)) / 2);
  let out;
  try {
    out = optimiseWebpBounded(input, s.quality, guard, {
      draw: placed ? (pic) => drawOnPicture(pic, placed) : undefined,
      resize: target,
      alphaMaxBytes: placed ? Math.max(0, leftForAlpha) : Math.min(input.length, Math.max(0, leftForAlpha)),
    });
  } catch (e) {
    if (!(e instanceof AlphaTooLarge)) throw e;
    const mb = (e.alphBytes / 2 ** 20).toFixed(1);
    if (placed)
      throw new UnsupportedInput(
        `WebP with transparency: its alpha plane alone compresses to ${mb} MB, more than the isolate has left beside the image; left unchanged`,
      );
    return {
      best: null,
      note: `WebP with transparency: its alpha plane alone compresses to ${mb} MB, not smaller than the original; original kept`,
    };
  }
  return {
    best: {
      format: 'webp',
      width: out.width,
      height: out.height,
      convertedToJpg: false,
      watermarked: Boolean(placed),
      bytes: out.bytes,
      qualityUsed: out.qualityUsed,
      ssim: out.score,
    },
  };
}

/** Draws the logo on the rows it covers (even-aligned 16-row strips through RGBA and back). */
function drawOnPicture(pic: WebpPicture, placed: PlacedWatermark): void {
  const STRIP = 16;
  const rows = new Uint8Array(STRIP * pic.width * 4);
  const from = Math.max(0, placed.at.y) & ~1;
  const to = Math.min(pic.height, placed.at.y + placed.at.height);
  for (let y0 = from; y0 < to; y0 += STRIP) {
    const n = Math.min(STRIP, pic.height - y0);
    pic.getRgbaRows(y0, n, rows);
    placed.drawRows(rows, y0, n, pic.width);
    pic.setRgbRows(y0, rows, n, 4);
  }
}
