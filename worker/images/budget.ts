// Which path an image takes: the WASM codecs inside the isolate (identical everywhere, preferred) or the
// Images binding (runs outside the isolate's 128 MB; production path for images above the budget).
// Peak bytes per pixel were measured with `npm run bench:images` (workerd RSS high-water mark minus the
// idle isolate); see bench/images.ts and the figures in worker/images/README.md.
import type { EngineSettings, EnginePath } from './types';
import type { HeaderInfo } from './sniff';

/** Isolate memory limit. */
export const ISOLATE_BYTES = 128 * 1024 * 1024;
/** Left for the Worker's own code, the request, the queue batch and the original bytes. */
export const RESERVED_BYTES = 24 * 1024 * 1024;

/**
 * Peak bytes per pixel of each in-isolate pipeline: worst case on the corpus of the workerd RSS rise on
 * the first lossy image in a fresh isolate (npm run bench:images): JPEG lossy 40.1 B/px (median 29.4),
 * PNG lossless 28.9 (median 22.1), PNG lossy 49.0 (median 39.6). The codecs' WASM heaps dominate
 * (MozJPEG decoder + encoder ~33 B/px). Watermark adds an upright copy; WebP (no corpus images) as JPEG.
 */
export const PEAK_BYTES_PER_PIXEL = {
  jpegLossy: 40,
  jpegWatermark: 44,
  pngLossless: 34,
  pngLossy: 50,
  webp: 40,
} as const;

export type Pipeline = keyof typeof PEAK_BYTES_PER_PIXEL | 'jpegStrip';

export function pipelineFor(format: 'jpeg' | 'png' | 'webp', header: HeaderInfo, settings: EngineSettings): Pipeline {
  if (format === 'jpeg') {
    if (settings.watermark) return 'jpegWatermark';
    // Lossless JPEG and CMYK JPEG never decode: segment surgery needs about twice the file size.
    if (settings.mode === 'lossless' || header.components === 4) return 'jpegStrip';
    return 'jpegLossy';
  }
  if (format === 'png') return settings.mode === 'lossless' && !settings.watermark && !settings.pngToJpg ? 'pngLossless' : 'pngLossy';
  return 'webp';
}

export function estimatePeakBytes(pipeline: Pipeline, header: HeaderInfo, inputBytes: number): number {
  if (pipeline === 'jpegStrip') return inputBytes * 2;
  return header.width * header.height * PEAK_BYTES_PER_PIXEL[pipeline] + inputBytes * 2;
}

/** Largest pixel count a pipeline handles within the isolate budget (stated in the README). */
export function maxPixelsInIsolate(pipeline: keyof typeof PEAK_BYTES_PER_PIXEL): number {
  return Math.floor(DEFAULT_BUDGET_BYTES / PEAK_BYTES_PER_PIXEL[pipeline]);
}

export type PathChoice = { path: EnginePath; pipeline: Pipeline; estimatedPeakBytes: number } | { path: 'none'; pipeline: Pipeline; estimatedPeakBytes: number; reason: string };

export const DEFAULT_BUDGET_BYTES = ISOLATE_BYTES - RESERVED_BYTES;

export function selectPath(format: 'jpeg' | 'png' | 'webp', header: HeaderInfo, inputBytes: number, settings: EngineSettings, hasImagesBinding: boolean, budgetBytes = DEFAULT_BUDGET_BYTES): PathChoice {
  const pipeline = pipelineFor(format, header, settings);
  const estimatedPeakBytes = estimatePeakBytes(pipeline, header, inputBytes);
  if (estimatedPeakBytes <= budgetBytes) return { path: 'wasm', pipeline, estimatedPeakBytes };
  if (hasImagesBinding) return { path: 'images-binding', pipeline, estimatedPeakBytes };
  const mp = ((header.width * header.height) / 1e6).toFixed(1);
  return { path: 'none', pipeline, estimatedPeakBytes, reason: `image of ${mp} MP is above the in-isolate memory budget and no Images binding is configured` };
}
