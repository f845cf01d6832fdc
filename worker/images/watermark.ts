// The merchant's logo composited onto the image: scaled to a fraction of the image height, placed at one
// of seven positions with a margin, blended with straight-alpha "over" at the chosen opacity.
import { decodeJpeg, decodePng } from './codecs';
import { sniffFormat } from './sniff';
import type { Rgba, WatermarkPosition } from './types';

/** Documented limit for the logo (image-optimisation.md: 'watermark picture maximum size 500kb'). */
export const WATERMARK_MAX_BYTES = 512000;

export class WatermarkError extends Error {
  override name = 'WatermarkError';
}

export async function decodeLogo(bytes: Uint8Array): Promise<Rgba> {
  if (bytes.length > WATERMARK_MAX_BYTES) throw new WatermarkError('watermark picture maximum size 500kb');
  const fmt = sniffFormat(bytes);
  try {
    if (fmt === 'png') return decodePng(bytes);
    if (fmt === 'jpeg') return await decodeJpeg(bytes);
  } catch {
    throw new WatermarkError('watermark picture cannot be decoded');
  }
  throw new WatermarkError('File type must be .jpg .jpeg .png.');
}

/** Area-average resampling (box filter over premultiplied colour) so downscaled logos stay crisp. */
export function resize(src: Rgba, width: number, height: number): Rgba {
  const out = new Uint8ClampedArray(width * height * 4);
  const sx = src.width / width;
  const sy = src.height / height;
  const s = src.data;
  for (let y = 0; y < height; y++) {
    const y0 = y * sy;
    const y1 = Math.min(src.height, y0 + Math.max(sy, 1));
    for (let x = 0; x < width; x++) {
      const x0 = x * sx;
      const x1 = Math.min(src.width, x0 + Math.max(sx, 1));
      let r = 0, g = 0, b = 0, a = 0, wsum = 0;
      for (let yy = Math.floor(y0); yy < Math.ceil(y1); yy++) {
        const wy = Math.min(yy + 1, y1) - Math.max(yy, y0);
        if (wy <= 0) continue;
        for (let xx = Math.floor(x0); xx < Math.ceil(x1); xx++) {
          const wx = Math.min(xx + 1, x1) - Math.max(xx, x0);
          if (wx <= 0) continue;
          const wgt = wx * wy;
          const i = (yy * src.width + xx) * 4;
          const al = s[i + 3]! * wgt;
          r += s[i]! * al; g += s[i + 1]! * al; b += s[i + 2]! * al; a += al; wsum += wgt;
        }
      }
      const o = (y * width + x) * 4;
      if (a > 0) { out[o] = r / a; out[o + 1] = g / a; out[o + 2] = b / a; }
      out[o + 3] = wsum > 0 ? a / wsum : 0;
    }
  }
  return { data: out, width, height };
}

export type Placement = { x: number; y: number; width: number; height: number };

/** Margin: 3 % of the shorter side (at least 4 px), so logos never touch the edge. */
export function placeWatermark(imgW: number, imgH: number, logoW: number, logoH: number, position: WatermarkPosition, heightFraction: number): Placement {
  const margin = Math.max(4, Math.round(Math.min(imgW, imgH) * 0.03));
  let height = Math.max(1, Math.round(imgH * Math.min(1, Math.max(0.01, heightFraction))));
  let width = Math.max(1, Math.round((logoW * height) / logoH));
  // Never wider than the image (minus margins): a wide logo on a tall image shrinks to fit.
  const maxW = Math.max(1, imgW - 2 * margin);
  if (width > maxW) { height = Math.max(1, Math.round((height * maxW) / width)); width = maxW; }
  const mH = Math.min(margin, Math.max(0, Math.floor((imgH - height) / 2)));
  const left = margin;
  const centreX = Math.round((imgW - width) / 2);
  const right = imgW - width - margin;
  const top = mH;
  const centreY = Math.round((imgH - height) / 2);
  const bottom = imgH - height - mH;
  const [x, y] = {
    t_l: [left, top], t_c: [centreX, top], t_r: [right, top], c: [centreX, centreY],
    b_l: [left, bottom], b_c: [centreX, bottom], b_r: [right, bottom],
  }[position] as [number, number];
  return { x: Math.max(0, x), y: Math.max(0, y), width, height };
}

/** In place: result = logo over image, logo alpha multiplied by opacity (0.1..1). */
export function composite(img: Rgba, logo: Rgba, at: Placement, opacity: number): void {
  const op = Math.min(1, Math.max(0, opacity));
  const d = img.data;
  const l = logo.data;
  for (let y = 0; y < logo.height; y++) {
    const iy = at.y + y;
    if (iy < 0 || iy >= img.height) continue;
    for (let x = 0; x < logo.width; x++) {
      const ix = at.x + x;
      if (ix < 0 || ix >= img.width) continue;
      const li = (y * logo.width + x) * 4;
      const sa = (l[li + 3]! / 255) * op;
      if (sa <= 0) continue;
      const di = (iy * img.width + ix) * 4;
      const da = d[di + 3]! / 255;
      const oa = sa + da * (1 - sa);
      for (let c = 0; c < 3; c++) d[di + c] = (l[li + c]! * sa + d[di + c]! * da * (1 - sa)) / oa;
      d[di + 3] = oa * 255;
    }
  }
}

export async function applyWatermark(img: Rgba, wm: { bytes: Uint8Array; position: WatermarkPosition; heightFraction: number; opacity: number }): Promise<void> {
  const logo = await decodeLogo(wm.bytes);
  const at = placeWatermark(img.width, img.height, logo.width, logo.height, wm.position, wm.heightFraction);
  composite(img, resize(logo, at.width, at.height), at, wm.opacity);
}
