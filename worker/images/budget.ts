// Which in-isolate pipeline an image takes, and whether it fits the isolate at all. Every image Shopify
// accepts (25 MP, 20 MB) must run here with the guard (the Images binding is not a
// quality path): small PNGs take the whole-image codecs (OxiPNG compresses best), large ones the
// row-wise path (png/large.ts), whose memory grows with the width and the file size, not the area.
// Figures were measured with `npm run bench:images` (workerd RSS high-water mark over the idle Worker
// and the codec heaps; see bench/images.ts and worker/images/README.md).
import { MAX_IMAGE_PIXELS } from './declared-size';
import { LOGO_MAX_BYTES } from './pixels/watermark';
import { resizedSize } from './pixels/resize';
import type { EngineSettings } from './types';
import type { HeaderInfo } from './sniff';

/** Isolate memory limit. */
export const ISOLATE_BYTES = 128 * 1024 * 1024;
/** Left for the Worker's own code, the request, the queue batch and the caller's copy of the original. */
export const RESERVED_BYTES = 24 * 1024 * 1024;
export const DEFAULT_BUDGET_BYTES = ISOLATE_BYTES - RESERVED_BYTES;

/**
 * Peak bytes per pixel of the whole-image pipelines: worst case on the corpus of the workerd RSS rise on
 * the first lossy image in a fresh isolate: PNG lossless 28.9 B/px (median 22.1), PNG lossy 49.0 (median
 * 39.6). WebP (jSquash: the decoder's heap keeps the RGBA, the JS copy, the encoder's copy and its YUV
 * picture, and the guard decodes the output whole again). JPEG sizes itself from the file's header
 * (jpegPeakBytes in jpeg/pipeline.ts).
 */
export const PEAK_BYTES_PER_PIXEL = {
  pngLossless: 34,
  pngLossy: 50,
  // Measured (bench memory points, guard on, raised once): 4 MP 121 MB, 12 MP 322 MB = 27-30 B/px.
  webp: 30,
} as const;

/**
 * Row-wise PNG (png/large.ts), fitted to the bench's memory points (engine share: workerd RSS rise minus
 * the harness's own request/response buffers, 2.9x the file; README): 4 MP / 4.7 MB file 35 MB,
 * 12 MP / 11 MB 56 MB, 25 MP / 18 MB 87 MB, all including the original once. Fixed part (palette cache
 * 8 MB, strips, inflater), per byte of the file (the original, the re-encoded PNG held to pick the
 * smallest), per pixel (what the GC has not collected yet of the per-pass buffers), per byte of width.
 */
export const PNG_ROWS = { fixedBytes: 20 << 20, perInputByte: 2, perPixel: 1.3, perWidthByte: 64 } as const;
/**
 * PNG to JPG of a large PNG: MozJPEG's heap when it encodes (progressive output keeps every coefficient,
 * 3 B/px at 4:2:0 without trellis) and then decodes its output for the guard; measured 52 MB at 12 MP
 * against 40 MB of coefficients, hence the 1.3 (allocator slack between encoder and decoder).
 */
export const JPEG_STAGE_SLACK = 1.3;

/**
 * Bounded lossy WebP (webp/libwebp.ts, our own libwebp 1.2.4 build): the original as the encoder's YUV
 * 4:2:0 picture (1.5 B/px, 2.5 with an alpha plane), the file copied into the wasm heap, libwebp's
 * encoder state, and the guard's VP8 decoder (a few macroblock rows: the candidate is compared band by
 * band, never held as a picture); JS holds the original, the output and 16-row guard strips.
 * Measured wasm heap peaks (workerd; tests/worker/images/webp-large.test.ts and webp-alpha-large.test.ts):
 * opaque 25 MP 68.0 MiB (2.85 B/px with the file), hence perPixel 2.8 (the file counted apart). Real
 * transparency costs the A plane (1 B/px) and nothing whole besides: the original's ALPH chunk is decoded
 * by our windowed VP8L decoder (webp/vp8l-dec.ts) straight into the plane (libwebp's alpha decoder held
 * its own plane and index buffer, 2 B/px), and our own VP8L alpha encoder (webp/alph.ts) reads the plane
 * in place (libwebp's needed ~20 B/px); JS holds the decoder's 4 MiB window or the encoder's 1.5 MiB of
 * ring and hash, and the ALPH chunk. 25 MP with a cut-out's alpha: heap 89.9 MiB (3.8 B/px) + JS 4.1 MiB.
 * A lossless (VP8L) original is decoded by the same windowed decoder in JS, its ARGB rows converted
 * into the picture 16 at a time (libwebp's VP8L decoder held a whole ARGB image: 8.3 B/px, ~11 MP): no
 * copy of the file in the heap, the picture and the encoder as above, and in JS the 4 MiB window plus
 * the transforms' side images, at most 0.25 B/px each (one pixel per 4 x 4 block) for the predictor,
 * cross-colour and meta-code images: perPixelLosslessOriginal = 2.7 (perPixel less the heap's copy of
 * the file) + 0.8, the file counted once.
 */
export const WEBP_BOUNDED = {
  fixedBytes: 8 << 20,
  perPixel: 2.8,
  perPixelLosslessOriginal: 3.5,
  perPixelAlphaPlane: 1,
  perInputByte: 2,
} as const;

/** JPEG pipelines are labels only: jpeg/pipeline.ts sizes them (jpegPeakBytes). */
type JpegPipeline = 'jpegLossy' | 'jpegWatermark' | 'jpegStrip';
export type Pipeline = keyof typeof PEAK_BYTES_PER_PIXEL | JpegPipeline | 'pngRows' | 'webpBounded';

export function pipelineFor(
  format: 'jpeg' | 'png' | 'webp',
  header: HeaderInfo,
  settings: EngineSettings,
): Exclude<Pipeline, 'pngRows' | 'webpBounded'> {
  if (format === 'jpeg') {
    if (settings.watermark) return 'jpegWatermark';
    // Lossless JPEG and CMYK JPEG never decode: segment surgery needs about twice the file size.
    if (settings.mode === 'lossless' || header.components === 4) return 'jpegStrip';
    return 'jpegLossy';
  }
  if (format === 'png')
    return settings.mode === 'lossless' &&
      !settings.watermark &&
      !settings.pngToJpg &&
      !resizedSize(header.width, header.height, settings.resizeLongSide)
      ? 'pngLossless'
      : 'pngLossy';
  return 'webp';
}

export function estimatePeakBytes(pipeline: Pipeline, header: HeaderInfo, inputBytes: number, settings?: EngineSettings): number {
  const logo = settings?.watermark ? LOGO_MAX_BYTES : 0;
  if (pipeline === 'jpegLossy' || pipeline === 'jpegWatermark' || pipeline === 'jpegStrip') return inputBytes * 2;
  if (pipeline === 'pngRows') {
    // PNG to JPG runs after the PNG work, in what it left: png/large.ts drops it when it does not fit.
    return (
      PNG_ROWS.fixedBytes +
      header.width * PNG_ROWS.perWidthByte +
      header.width * header.height * PNG_ROWS.perPixel +
      inputBytes * PNG_ROWS.perInputByte +
      logo
    );
  }
  if (pipeline === 'webpBounded') {
    // An alpha flag alone costs the A plane; real transparency is checked after decoding (see above).
    const perPixel =
      (header.webpLossless ? WEBP_BOUNDED.perPixelLosslessOriginal : WEBP_BOUNDED.perPixel) +
      (header.mayHaveAlpha ? WEBP_BOUNDED.perPixelAlphaPlane : 0);
    // A lossless original is decoded in JS: the file is held once (no copy in the heap).
    const perInput = header.webpLossless ? 1 : WEBP_BOUNDED.perInputByte;
    return WEBP_BOUNDED.fixedBytes + header.width * header.height * perPixel + inputBytes * perInput + logo;
  }
  return header.width * header.height * PEAK_BYTES_PER_PIXEL[pipeline] + inputBytes * 2 + logo;
}

/** Largest pixel count a whole-image pipeline handles within the isolate budget (stated in the README). */
export function maxPixelsInIsolate(pipeline: keyof typeof PEAK_BYTES_PER_PIXEL): number {
  return Math.floor(DEFAULT_BUDGET_BYTES / PEAK_BYTES_PER_PIXEL[pipeline]);
}

export type PathChoice =
  | { path: 'wasm' | 'wasm-rows'; pipeline: Pipeline; estimatedPeakBytes: number }
  | { path: 'none'; pipeline: Pipeline; estimatedPeakBytes: number; reason: string };

export function selectPath(
  format: 'jpeg' | 'png' | 'webp',
  header: HeaderInfo,
  inputBytes: number,
  settings: EngineSettings,
  budgetBytes = DEFAULT_BUDGET_BYTES,
): PathChoice {
  const pipeline = pipelineFor(format, header, settings);
  // [16a] JPEG sizes itself from the file's real header (sampling, progressive: jpegPeakBytes in
  // jpeg/pipeline.ts) and steps down to a lossless transcode or metadata removal when lossy cannot fit.
  if (format === 'jpeg') return { path: 'wasm', pipeline, estimatedPeakBytes: inputBytes * 2 };
  const estimatedPeakBytes = estimatePeakBytes(pipeline, header, inputBytes, settings);
  if (estimatedPeakBytes <= budgetBytes) return { path: 'wasm', pipeline, estimatedPeakBytes };
  let need = estimatedPeakBytes;
  if (format === 'png') {
    need = estimatePeakBytes('pngRows', header, inputBytes, settings);
    if (need <= budgetBytes && header.width * header.height <= MAX_IMAGE_PIXELS)
      return { path: 'wasm-rows', pipeline: 'pngRows', estimatedPeakBytes: need };
  }
  // Large lossy WebP (watermark drawn into its picture): the bounded libwebp path (webp/libwebp.ts), the image held once as YUV.
  if (format === 'webp' && settings.mode === 'lossy') {
    need = estimatePeakBytes('webpBounded', header, inputBytes, settings);
    if (need <= budgetBytes && header.width * header.height <= MAX_IMAGE_PIXELS)
      return { path: 'wasm-rows', pipeline: 'webpBounded', estimatedPeakBytes: need };
  }
  const mp = ((header.width * header.height) / 1e6).toFixed(1);
  if (header.width * header.height > MAX_IMAGE_PIXELS)
    return {
      path: 'none',
      pipeline,
      estimatedPeakBytes: need,
      reason: `image of ${mp} MP is above the 25 MP Shopify accepts; left unchanged`,
    };
  return {
    path: 'none',
    pipeline,
    estimatedPeakBytes: need,
    reason: `image of ${mp} MP needs about ${Math.round(need / 2 ** 20)} MB, above the in-isolate memory budget (${Math.round(budgetBytes / 2 ** 20)} MB); left unchanged`,
  };
}
