// Colour chunks of a PNG (iCCP, sRGB, gAMA, cHRM) carried over when the PNG is rebuilt from pixels.
import { ascii, be32 } from '../sniff';
import { concat } from '../jpeg/markers';

const COLOUR_CHUNKS = new Set(['iCCP', 'sRGB', 'gAMA', 'cHRM']);

export function colourChunks(png: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 8; i + 12 <= png.length;) {
    const len = be32(png, i);
    const type = ascii(png, i + 4, 4);
    if (type === 'IDAT' || type === 'IEND') break;
    if (COLOUR_CHUNKS.has(type) && i + 12 + len <= png.length) out.push(png.subarray(i, i + 12 + len));
    i += 12 + len;
  }
  return out;
}

/** Inserts chunks right after IHDR (where colour chunks must sit: before PLTE and IDAT). */
export function withChunks(png: Uint8Array, chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 0) return png;
  const afterIhdr = 8 + 12 + be32(png, 8);
  const present = new Set(colourChunks(png).map((c) => ascii(c, 4, 4)));
  const missing = chunks.filter((c) => !present.has(ascii(c, 4, 4)));
  return missing.length ? concat([png.subarray(0, afterIhdr), ...missing, png.subarray(afterIhdr)]) : png;
}

/** Chunks that change the pixels or how they look; everything else (text, EXIF, time, pHYs...) is waste. */
const KEEP = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS', 'iCCP', 'sRGB', 'gAMA', 'cHRM', 'sBIT']);

/** Drops ancillary metadata chunks (OxiPNG as built for WASM keeps tEXt/iTXt/zTXt/eXIf). */
export function stripPngMetadata(png: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [png.subarray(0, 8)];
  let dropped = false;
  for (let i = 8; i + 12 <= png.length;) {
    const end = i + 12 + be32(png, i);
    if (end > png.length) break;
    if (KEEP.has(ascii(png, i + 4, 4))) parts.push(png.subarray(i, end));
    else dropped = true;
    i = end;
  }
  return dropped ? concat(parts) : png;
}

/** Length stripPngMetadata would return, without building it. */
export function strippedPngLength(png: Uint8Array): number {
  let n = 8;
  for (let i = 8; i + 12 <= png.length;) {
    const end = i + 12 + be32(png, i);
    if (end > png.length) break;
    if (KEEP.has(ascii(png, i + 4, 4))) n += end - i;
    i = end;
  }
  return n;
}
