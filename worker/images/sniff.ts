import type { SniffedFormat } from './types';
import { ImageDecodeError } from './errors';

/** Format from the magic bytes only (never the file name: Shopify URLs lie after a PNG to JPG swap). */
export function sniffFormat(bytes: Uint8Array): SniffedFormat {
  const b = bytes;
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  )
    return 'png';
  if (b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'webp';
  if (b.length >= 6 && (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a')) return 'gif';
  return 'unknown';
}

export function ascii(b: Uint8Array, at: number, len: number): string {
  let s = '';
  for (let i = at; i < at + len && i < b.length; i++) s += String.fromCharCode(b[i]!);
  return s;
}

export const be16 = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
export const be32 = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;
export const le16 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
export const le24 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
export const le32 = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16)) + b[i + 3]! * 0x1000000;

/** What the headers say, read without decoding pixels (so the memory budget can be checked first). */
export type HeaderInfo = {
  width: number;
  height: number;
  /** JPEG: 1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK. PNG: samples per pixel. WebP: 3 or 4. */
  components: number;
  /** PNG bits per sample (1..16); 8 otherwise. */
  bitDepth: number;
  /** The container can carry alpha (PNG colour type 4/6 or tRNS; WebP alpha flag). */
  mayHaveAlpha: boolean;
  /** PNG colour type (0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA); -1 otherwise. */
  pngColorType: number;
  /** WebP: VP8L (lossless) bitstream. */
  webpLossless: boolean;
  /** More than one frame (animated PNG or WebP): left unchanged. */
  animated: boolean;
};

export function readHeader(bytes: Uint8Array, format: 'jpeg' | 'png' | 'webp'): HeaderInfo {
  const info = format === 'jpeg' ? jpegHeader(bytes) : format === 'png' ? pngHeader(bytes) : webpHeader(bytes);
  if (!(info.width > 0 && info.height > 0)) throw new ImageDecodeError(`${format} header has no valid size`);
  return info;
}

const base: HeaderInfo = {
  width: 0,
  height: 0,
  components: 3,
  bitDepth: 8,
  mayHaveAlpha: false,
  pngColorType: -1,
  webpLossless: false,
  animated: false,
};

function jpegHeader(b: Uint8Array): HeaderInfo {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) throw new ImageDecodeError('JPEG marker expected');
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    const len = be16(b, i + 2);
    if (len < 2) throw new ImageDecodeError('JPEG segment length invalid');
    // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (i + 10 > b.length) break;
      return { ...base, height: be16(b, i + 5), width: be16(b, i + 7), components: b[i + 9]! };
    }
    if (marker === 0xda || marker === 0xd9) break;
    i += 2 + len;
  }
  throw new ImageDecodeError('JPEG has no frame header (truncated or corrupt)');
}

function pngHeader(b: Uint8Array): HeaderInfo {
  if (b.length < 33 || ascii(b, 12, 4) !== 'IHDR') throw new ImageDecodeError('PNG has no IHDR chunk');
  const colorType = b[25]!;
  const samples = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[colorType];
  if (samples === undefined) throw new ImageDecodeError('PNG colour type invalid');
  let hasTrns = false;
  let animated = false;
  // Walk chunk headers only up to the first IDAT (tRNS and acTL must come before it).
  for (let i = 8; i + 8 <= b.length;) {
    const len = be32(b, i);
    const type = ascii(b, i + 4, 4);
    if (type === 'tRNS') hasTrns = true;
    if (type === 'acTL') animated = true;
    if (type === 'IDAT' || type === 'IEND') break;
    i += 12 + len;
  }
  return {
    ...base,
    width: be32(b, 16),
    height: be32(b, 20),
    bitDepth: b[24]!,
    components: samples,
    pngColorType: colorType,
    mayHaveAlpha: colorType === 4 || colorType === 6 || hasTrns,
    animated,
  };
}

function webpHeader(b: Uint8Array): HeaderInfo {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ' && b.length >= 30) {
    return { ...base, width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
  }
  if (chunk === 'VP8L' && b.length >= 25) {
    const bits = le32(b, 21);
    return {
      ...base,
      width: (bits & 0x3fff) + 1,
      height: ((bits >>> 14) & 0x3fff) + 1,
      mayHaveAlpha: ((bits >>> 28) & 1) === 1,
      components: 4,
      webpLossless: true,
    };
  }
  if (chunk === 'VP8X' && b.length >= 30) {
    const flags = b[20]!;
    let lossless = false;
    for (let i = 12; i + 8 <= b.length;) {
      const type = ascii(b, i, 4);
      if (type === 'VP8L') {
        lossless = true;
        break;
      }
      if (type === 'VP8 ') break;
      i += 8 + le32(b, i + 4) + (le32(b, i + 4) & 1);
    }
    return {
      ...base,
      width: le24(b, 24) + 1,
      height: le24(b, 27) + 1,
      mayHaveAlpha: (flags & 0x10) !== 0,
      animated: (flags & 0x02) !== 0,
      webpLossless: lossless,
    };
  }
  throw new ImageDecodeError('WebP has no VP8/VP8L/VP8X chunk');
}
