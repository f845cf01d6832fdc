// Small pixel operations on straight RGBA buffers.
import type { Rgba } from '../types';

/** Applies EXIF orientation 1..8 so the pixels are upright as displayed (then orientation becomes 1). */
export function applyOrientation(img: Rgba, orientation: number): Rgba {
  if (orientation <= 1 || orientation > 8) return img;
  const { width: w, height: h } = img;
  const swap = orientation >= 5;
  const W = swap ? h : w;
  const H = swap ? w : h;
  const src = new Uint32Array(img.data.buffer, img.data.byteOffset, w * h);
  const outBytes = new Uint8ClampedArray(W * H * 4);
  const dst = new Uint32Array(outBytes.buffer);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      // Destination of source pixel (x, y) for each EXIF orientation (TIFF 6.0 definitions).
      let dx: number;
      let dy: number;
      switch (orientation) {
        case 2:
          dx = w - 1 - x;
          dy = y;
          break;
        case 3:
          dx = w - 1 - x;
          dy = h - 1 - y;
          break;
        case 4:
          dx = x;
          dy = h - 1 - y;
          break;
        case 5:
          dx = y;
          dy = x;
          break;
        case 6:
          dx = h - 1 - y;
          dy = x;
          break;
        case 7:
          dx = h - 1 - y;
          dy = w - 1 - x;
          break;
        default:
          dx = y;
          dy = w - 1 - x;
          break; // 8
      }
      dst[dy * W + dx] = src[y * w + x]!;
    }
  }
  return { data: outBytes, width: W, height: H };
}

export function hasTransparency(img: Rgba): boolean {
  const d = img.data;
  for (let i = 3; i < d.length; i += 4) if (d[i] !== 255) return true;
  return false;
}

/** Composites onto opaque white (PNG to JPG: transparent areas become white). */
export function flattenOnWhite(img: Rgba): Rgba {
  const d = img.data;
  const out = new Uint8ClampedArray(d.length);
  for (let i = 0; i < d.length; i += 4) {
    const a = d[i + 3]!;
    const inv = 255 - a;
    out[i] = (d[i]! * a + 255 * inv + 127) / 255;
    out[i + 1] = (d[i + 1]! * a + 255 * inv + 127) / 255;
    out[i + 2] = (d[i + 2]! * a + 255 * inv + 127) / 255;
    out[i + 3] = 255;
  }
  return { data: out, width: img.width, height: img.height };
}

export function pixelsEqual(a: Rgba, b: Rgba): boolean {
  if (a.width !== b.width || a.height !== b.height || a.data.length !== b.data.length) return false;
  for (let i = 0; i < a.data.length; i++) if (a.data[i] !== b.data[i]) return false;
  return true;
}
