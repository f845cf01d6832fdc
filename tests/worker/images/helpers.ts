import { decodeJpeg, decodePng, decodeWebp, encodePng } from '../../../worker/images/codecs';
import type { EngineResult, EngineSettings } from '../../../worker/images';
import type { Rgba } from '../../../worker/images/types';

export const lossy = (quality = 75, extra: Partial<EngineSettings> = {}): EngineSettings => ({ mode: 'lossy', quality, pngToJpg: false, pngToJpgSizeControl: true, ...extra });
export const lossless = (extra: Partial<EngineSettings> = {}): EngineSettings => ({ mode: 'lossless', quality: 75, pngToJpg: false, pngToJpgSizeControl: true, ...extra });

export function decodeAny(bytes: Uint8Array, format: string): Promise<Rgba> | Rgba {
  if (format === 'jpeg') return decodeJpeg(bytes);
  if (format === 'png') return decodePng(bytes);
  return decodeWebp(bytes);
}

export function optimised(r: EngineResult) {
  if (r.kind !== 'optimised') throw new Error(`expected optimised, got ${r.kind}: ${'reason' in r ? r.reason : ''}`);
  return r;
}

/** A solid image; `fill(x, y)` returns [r, g, b, a]. */
export function makeImage(width: number, height: number, fill: (x: number, y: number) => [number, number, number, number]): Rgba {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(fill(x, y), (y * width + x) * 4);
  return { data, width, height };
}

export const pngOf = (img: Rgba) => encodePng(img);

export function pixel(img: Rgba, x: number, y: number): number[] {
  const i = (y * img.width + x) * 4;
  return Array.from(img.data.subarray(i, i + 4));
}

export function maxChannelDiff(a: Rgba, b: Rgba): number {
  let m = 0;
  for (let i = 0; i < a.data.length; i++) m = Math.max(m, Math.abs(a.data[i]! - b.data[i]!));
  return m;
}

/** Number of components in the JPEG frame header (1 = greyscale). */
export function jpegComponents(b: Uint8Array): number {
  for (let i = 2; i < b.length - 9; ) {
    const m = b[i + 1]!;
    const len = (b[i + 2]! << 8) | b[i + 3]!;
    if (m >= 0xc0 && m <= 0xc2) return b[i + 9]!;
    i += 2 + len;
  }
  return 0;
}

export const text = (b: Uint8Array) => new TextDecoder('latin1').decode(b);
