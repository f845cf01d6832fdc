import { decodeJpeg, decodePng, decodeWebp, encodePng } from '../../../worker/images/jsquash';
import type { EngineResult, EngineSettings } from '../../../worker/images';
import type { Rgba } from '../../../worker/images/types';
import { decodeJpegRgb } from '../../../worker/images/jpeg/mozjpeg';
import { fixture } from './fixtures';

export const lossy = (quality = 75, extra: Partial<EngineSettings> = {}): EngineSettings => ({
  mode: 'lossy',
  quality,
  pngToJpg: false,
  pngToJpgSizeControl: true,
  ...extra,
});
export const lossless = (extra: Partial<EngineSettings> = {}): EngineSettings => ({
  mode: 'lossless',
  quality: 75,
  pngToJpg: false,
  pngToJpgSizeControl: true,
  ...extra,
});

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
  for (let i = 2; i < b.length - 9;) {
    const m = b[i + 1]!;
    const len = (b[i + 2]! << 8) | b[i + 3]!;
    if (m >= 0xc0 && m <= 0xc2) return b[i + 9]!;
    i += 2 + len;
  }
  return 0;
}

export const text = (b: Uint8Array) => new TextDecoder('latin1').decode(b);

/**
 * A large photo-like image made at test time, strip by strip (16 rows): the rocket fixture upscaled
 * bilinearly to width x height with deterministic grain, so nothing large is committed. `alphaAt` fills
 * the fourth channel when channels is 4.
 */
export function grainyUpscaleStrips(
  width: number,
  height: number,
  channels: 3 | 4,
  onStrip: (y0: number, rows: Uint8Array, count: number) => void,
  alphaAt: (x: number) => number = () => 255,
  /** Grain amplitude (levels either side): 4 is camera-noise-like; 1 makes smooth, highly compressible photos. */
  grain = 4,
): void {
  const src = decodeJpegRgb(fixture('rocket-baseline.jpg'));
  const rows = new Uint8Array(width * channels * 16);
  let seed = 12345;
  const sx = (src.width - 1) / (width - 1),
    sy = (src.height - 1) / (height - 1);
  const p = (yy: number, xx: number, c: number) => src.data[(yy * src.width + xx) * 3 + c]!;
  for (let y0 = 0; y0 < height; y0 += 16) {
    const n = Math.min(16, height - y0);
    for (let r = 0; r < n; r++) {
      const fy = (y0 + r) * sy,
        y = Math.floor(fy),
        wy = fy - y,
        y1 = Math.min(src.height - 1, y + 1);
      for (let x = 0; x < width; x++) {
        const fx = x * sx,
          xi = Math.floor(fx),
          wx = fx - xi,
          x1 = Math.min(src.width - 1, xi + 1);
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const g = ((seed >> 16) % (2 * grain + 1)) - grain;
        for (let c = 0; c < 3; c++) {
          const v = (p(y, xi, c) * (1 - wx) + p(y, x1, c) * wx) * (1 - wy) + (p(y1, xi, c) * (1 - wx) + p(y1, x1, c) * wx) * wy;
          rows[(r * width + x) * channels + c] = Math.max(0, Math.min(255, Math.round(v + g)));
        }
        if (channels === 4) rows[(r * width + x) * 4 + 3] = alphaAt(x);
      }
    }
    onStrip(y0, rows, n);
  }
}
