// Image bytes: the seed photographs and a header sniffer for dimensions (what Shopify reports as
// image.width / image.height after processing).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Blob } from './types';

const SEED_DIR = fileURLToPath(new URL('../seed-images/', import.meta.url));

export const SEED_IMAGE_NAMES = [
  'rocket.jpg',
  'keong-macan.jpg',
  'riaphotographs.jpg',
  'astronaut.jpg',
  'chelsea.jpg',
  'flower.jpg',
  'chelsea.png',
  'flower-alpha.png',
  'riaphotographs-alpha.png',
  'skimage-logo.png',
  'horse.png',
  'sway-blue.png',
] as const;
export type SeedImageName = (typeof SEED_IMAGE_NAMES)[number];

const cache = new Map<string, Blob>();

/** Seed bytes are read once and shared by every shop (blobs are immutable). */
export function seedBlob(name: SeedImageName): Blob {
  const cached = cache.get(name);
  if (cached) return cached;
  const blob = blobFromBytes(new Uint8Array(readFileSync(join(SEED_DIR, name))));
  if (!blob) throw new Error(`seed image ${name} is not a readable PNG/JPEG/GIF/WebP`);
  cache.set(name, blob);
  return blob;
}

export function blobFromBytes(bytes: Uint8Array): Blob | null {
  const info = imageInfo(bytes);
  return info ? { bytes, ...info } : null;
}

/** Width, height and MIME type from the file header; null when the bytes are not an image. */
export function imageInfo(b: Uint8Array): { mimeType: string; width: number; height: number } | null {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length > 24 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) {
    return { mimeType: 'image/png', width: dv.getUint32(16), height: dv.getUint32(20) };
  }
  if (b.length > 10 && b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) {
    return { mimeType: 'image/gif', width: dv.getUint16(6, true), height: dv.getUint16(8, true) };
  }
  if (b.length > 30 && b[0] === 0x52 && b[1] === 0x49 && b[8] === 0x57 && b[9] === 0x45) {
    const chunk = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!);
    if (chunk === 'VP8X')
      return {
        mimeType: 'image/webp',
        width: 1 + (dv.getUint32(24, true) & 0xffffff),
        height: 1 + (dv.getUint32(27, true) & 0xffffff),
      };
    if (chunk === 'VP8 ')
      return { mimeType: 'image/webp', width: dv.getUint16(26, true) & 0x3fff, height: dv.getUint16(28, true) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = dv.getUint32(21, true);
      return { mimeType: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
  }
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1]!;
      const len = dv.getUint16(i + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { mimeType: 'image/jpeg', height: dv.getUint16(i + 5), width: dv.getUint16(i + 7) };
      }
      i += 2 + len;
    }
  }
  return null;
}

export function extensionOf(filename: string): string {
  const m = /\.([a-z0-9]+)$/i.exec(filename);
  return m ? m[1]!.toLowerCase() : '';
}

export function mimeForExtension(ext: string): string {
  return (
    { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' }[ext] ??
    'application/octet-stream'
  );
}
