// The merchant's logo composited onto the image: scaled to a fraction of the image height, placed at one
// of seven positions with a margin, blended with straight-alpha "over" at the chosen opacity.
import { forEachJpegRgbaStrip } from '../jpeg/rows';
import { forEachRgbaStrip, readPngInfo, stripRowsFor } from '../png/stream';
import { readHeader, sniffFormat } from '../sniff';
import type { Rgba, WatermarkPosition } from '../types';

/** Documented limit for the logo ('watermark picture maximum size 500kb'). */
export const WATERMARK_MAX_BYTES = 512000;

export class WatermarkError extends Error {
  override name = 'WatermarkError';
}

/**
 * A logo is decoded at most to this size (longest side and pixel count): a 5000 x 5000 logo of 100 KB
 * would otherwise be 100 MB of pixels. Larger logos are box-averaged while they are decoded row by row,
 * so the full-size pixels never exist. 2048 px covers a logo of half the height of a 4096 px image
 * without upscaling; the largest images upscale the logo at most 3x, which area sampling keeps smooth.
 */
export const LOGO_MAX_SIDE = 2048;
export const LOGO_MAX_PIXELS = 2_000_000;

/** A decoded logo: pixels at most LOGO_MAX_*, and the size the file declares (placement uses that). */
export type Logo = { pixels: Rgba; width: number; height: number };

/** Bytes a decoded logo holds at most (counted in the memory budget, budget.ts). */
export const LOGO_MAX_BYTES = LOGO_MAX_PIXELS * 4;

// One decoded logo per isolate, keyed on its bytes: a job watermarks all its images with the same logo
// (read again from R2 for each), so it is decoded once per job.
let cached: { key: string; logo: Logo } | null = null;

function keyOf(b: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return `${b.length}:${h >>> 0}`;
}

export async function decodeLogo(bytes: Uint8Array): Promise<Logo> {
  if (bytes.length > WATERMARK_MAX_BYTES) throw new WatermarkError('watermark picture maximum size 500kb');
  const fmt = sniffFormat(bytes);
  if (fmt !== 'png' && fmt !== 'jpeg') throw new WatermarkError('File type must be .jpg .jpeg .png.');
  const key = keyOf(bytes);
  if (cached?.key === key) return cached.logo;
  cached = null; // the previous logo is released before the next one is decoded
  let logo: Logo;
  try {
    logo = fmt === 'png' ? await decodePngLogo(bytes) : await decodeJpegLogo(bytes);
  } catch (e) {
    if (e instanceof WatermarkError) throw e;
    throw new WatermarkError('watermark picture cannot be decoded');
  }
  cached = { key, logo };
  return logo;
}

/** Integer box factor that brings w x h within the logo limits. */
export function logoFactor(w: number, h: number): number {
  return Math.max(1, Math.ceil(Math.max(w / LOGO_MAX_SIDE, h / LOGO_MAX_SIDE, Math.sqrt((w * h) / LOGO_MAX_PIXELS))));
}

/** Box-averages f x f blocks (premultiplied) of RGBA rows pushed top to bottom. */
function boxShrinker(w: number, h: number, f: number) {
  const ow = Math.max(1, Math.floor(w / f));
  const oh = Math.max(1, Math.floor(h / f));
  const out = new Uint8ClampedArray(ow * oh * 4);
  const acc = new Float64Array(ow * 4);
  const wsum = new Float64Array(ow);
  return {
    pixels: { data: out, width: ow, height: oh } as Rgba,
    row(rgba: Uint8Array | Uint8ClampedArray, off: number, y: number) {
      const oy = Math.floor(y / f);
      if (oy >= oh) return;
      for (let x = 0; x < ow * f; x++) {
        const i = off + x * 4;
        const a = rgba[i + 3]!;
        const o = Math.floor(x / f);
        acc[o * 4] = acc[o * 4]! + rgba[i]! * a;
        acc[o * 4 + 1] = acc[o * 4 + 1]! + rgba[i + 1]! * a;
        acc[o * 4 + 2] = acc[o * 4 + 2]! + rgba[i + 2]! * a;
        acc[o * 4 + 3] = acc[o * 4 + 3]! + a;
        wsum[o] = wsum[o]! + 1;
      }
      if (y % f === f - 1 || y === h - 1) {
        for (let o = 0; o < ow; o++) {
          const a = acc[o * 4 + 3]!;
          const p = (oy * ow + o) * 4;
          if (a > 0) {
            out[p] = acc[o * 4]! / a;
            out[p + 1] = acc[o * 4 + 1]! / a;
            out[p + 2] = acc[o * 4 + 2]! / a;
          }
          out[p + 3] = wsum[o]! > 0 ? a / wsum[o]! : 0;
        }
        acc.fill(0);
        wsum.fill(0);
      }
    },
  };
}

async function decodePngLogo(bytes: Uint8Array): Promise<Logo> {
  const info = readPngInfo(bytes);
  const shrink = boxShrinker(info.width, info.height, logoFactor(info.width, info.height));
  await forEachRgbaStrip(info, stripRowsFor(info.width, 256 << 10), (rgba, y, rows) => {
    for (let r = 0; r < rows; r++) shrink.row(rgba, r * info.width * 4, y + r);
  });
  return { pixels: shrink.pixels, width: info.width, height: info.height };
}

/** JPEG logos: MozJPEG's DCT scaling (1/2, 1/4, 1/8) does most of the shrinking, a box filter the rest. */
async function decodeJpegLogo(bytes: Uint8Array): Promise<Logo> {
  const { width, height } = readHeader(bytes, 'jpeg');
  const f = logoFactor(width, height);
  const denom = f >= 8 ? 8 : f >= 4 ? 4 : f >= 2 ? 2 : 1;
  const sw = Math.ceil(width / denom);
  const sh = Math.ceil(height / denom);
  const shrink = boxShrinker(sw, sh, logoFactor(sw, sh));
  await forEachJpegRgbaStrip(
    bytes,
    (rgba, y, rows) => {
      for (let r = 0; r < rows; r++) shrink.row(rgba, r * sw * 4, y + r);
    },
    denom,
  );
  return { pixels: shrink.pixels, width, height };
}

/** Area-average resampling (box filter over premultiplied colour) so downscaled logos stay crisp. */
export function resize(src: Rgba, width: number, height: number): Rgba {
  const out = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) resizeRow(src, width, height, y, out.subarray(y * width * 4, (y + 1) * width * 4));
  return { data: out, width, height };
}

/** Row y of `src` resampled to width x height (area average), written to `out` (width * 4 bytes). */
export function resizeRow(src: Rgba, width: number, height: number, y: number, out: Uint8ClampedArray): void {
  const sx = src.width / width;
  const sy = src.height / height;
  const s = src.data;
  const y0 = y * sy;
  const y1 = Math.min(src.height, y0 + Math.max(sy, 1));
  for (let x = 0; x < width; x++) {
    const x0 = x * sx;
    const x1 = Math.min(src.width, x0 + Math.max(sx, 1));
    let r = 0,
      g = 0,
      b = 0,
      a = 0,
      wsum = 0;
    for (let yy = Math.floor(y0); yy < Math.ceil(y1); yy++) {
      const wy = Math.min(yy + 1, y1) - Math.max(yy, y0);
      if (wy <= 0) continue;
      for (let xx = Math.floor(x0); xx < Math.ceil(x1); xx++) {
        const wx = Math.min(xx + 1, x1) - Math.max(xx, x0);
        if (wx <= 0) continue;
        const wgt = wx * wy;
        const i = (yy * src.width + xx) * 4;
        const al = s[i + 3]! * wgt;
        r += s[i]! * al;
        g += s[i + 1]! * al;
        b += s[i + 2]! * al;
        a += al;
        wsum += wgt;
      }
    }
    const o = x * 4;
    if (a > 0) {
      out[o] = r / a;
      out[o + 1] = g / a;
      out[o + 2] = b / a;
    } else {
      out[o] = 0;
      out[o + 1] = 0;
      out[o + 2] = 0;
    }
    out[o + 3] = wsum > 0 ? a / wsum : 0;
  }
}

export type Placement = { x: number; y: number; width: number; height: number };

/** Margin: 3 % of the shorter side (at least 4 px), so logos never touch the edge. */
export function placeWatermark(
  imgW: number,
  imgH: number,
  logoW: number,
  logoH: number,
  position: WatermarkPosition,
  heightFraction: number,
): Placement {
  const margin = Math.max(4, Math.round(Math.min(imgW, imgH) * 0.03));
  let height = Math.max(1, Math.round(imgH * Math.min(1, Math.max(0.01, heightFraction))));
  let width = Math.max(1, Math.round((logoW * height) / logoH));
  // Never wider than the image (minus margins): a wide logo on a tall image shrinks to fit.
  const maxW = Math.max(1, imgW - 2 * margin);
  if (width > maxW) {
    height = Math.max(1, Math.round((height * maxW) / width));
    width = maxW;
  }
  const mH = Math.min(margin, Math.max(0, Math.floor((imgH - height) / 2)));
  const left = margin;
  const centreX = Math.round((imgW - width) / 2);
  const right = imgW - width - margin;
  const top = mH;
  const centreY = Math.round((imgH - height) / 2);
  const bottom = imgH - height - mH;
  const [x, y] = {
    t_l: [left, top],
    t_c: [centreX, top],
    t_r: [right, top],
    c: [centreX, centreY],
    b_l: [left, bottom],
    b_c: [centreX, bottom],
    b_r: [right, bottom],
  }[position] as [number, number];
  return { x: Math.max(0, x), y: Math.max(0, y), width, height };
}

/** A watermark placed on one image: draws itself onto strips of straight RGBA rows as they stream by. */
export type PlacedWatermark = {
  at: Placement;
  drawRows(rgba: Uint8Array | Uint8ClampedArray, y0: number, rows: number, width: number): void;
};

export async function placeLogo(
  wm: { bytes: Uint8Array; position: WatermarkPosition; heightFraction: number; opacity: number },
  imgW: number,
  imgH: number,
): Promise<PlacedWatermark> {
  const logo = await decodeLogo(wm.bytes);
  const at = placeWatermark(imgW, imgH, logo.width, logo.height, wm.position, wm.heightFraction);
  const op = Math.min(1, Math.max(0, wm.opacity));
  const line = new Uint8ClampedArray(at.width * 4);
  return {
    at,
    // Blends the logo rows that fall in [y0, y0 + rows): each logo row is resampled when needed (one
    // row of memory), so a logo covering a 25 MP image never exists at full size.
    drawRows(d, y0, rows, width) {
      const from = Math.max(y0, at.y);
      const to = Math.min(y0 + rows, at.y + at.height);
      for (let iy = from; iy < to; iy++) {
        resizeRow(logo.pixels, at.width, at.height, iy - at.y, line);
        blendRow(d, (iy - y0) * width * 4, line, at, width, op);
      }
    },
  };
}

/** result = logo over image, logo alpha multiplied by opacity, on one image row. */
function blendRow(
  d: Uint8Array | Uint8ClampedArray,
  rowOff: number,
  l: Uint8ClampedArray,
  at: Placement,
  width: number,
  op: number,
): void {
  for (let x = 0; x < at.width; x++) {
    const ix = at.x + x;
    if (ix < 0 || ix >= width) continue;
    const li = x * 4;
    const sa = (l[li + 3]! / 255) * op;
    if (sa <= 0) continue;
    const di = rowOff + ix * 4;
    const da = d[di + 3]! / 255;
    const oa = sa + da * (1 - sa);
    for (let c = 0; c < 3; c++)
      d[di + c] = Math.min(255, Math.max(0, Math.round((l[li + c]! * sa + d[di + c]! * da * (1 - sa)) / oa)));
    d[di + 3] = Math.round(oa * 255);
  }
}

export async function applyWatermark(
  img: Rgba,
  wm: { bytes: Uint8Array; position: WatermarkPosition; heightFraction: number; opacity: number },
): Promise<void> {
  const placed = await placeLogo(wm, img.width, img.height);
  placed.drawRows(img.data, 0, img.height, img.width);
}
