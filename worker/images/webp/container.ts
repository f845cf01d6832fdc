// The WebP container (RIFF), as far as the bounded path needs it: find the VP8 chunk libwebp wrote, and
// assemble the extended format RIFF / VP8X / ALPH / VP8 around our own alpha chunk (webp/alph.ts).
// Chunks: FourCC, 32-bit little-endian payload size, payload, one zero byte of padding when the size is odd.

const fourCC = (b: Uint8Array, o: number) => String.fromCharCode(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!);
const u32 = (b: Uint8Array, o: number) => (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;

/** The chunks of a WebP file: FourCC and the payload's offset and size. */
export function webpChunks(file: Uint8Array): { id: string; offset: number; size: number }[] {
  if (file.length < 12 || fourCC(file, 0) !== 'RIFF' || fourCC(file, 8) !== 'WEBP') throw new Error('not a WebP file');
  const end = Math.min(file.length, 8 + u32(file, 4));
  const chunks: { id: string; offset: number; size: number }[] = [];
  for (let o = 12; o + 8 <= end;) {
    const size = u32(file, o + 4);
    if (o + 8 + size > end) throw new Error('truncated WebP chunk');
    chunks.push({ id: fourCC(file, o), offset: o + 8, size });
    o += 8 + size + (size & 1);
  }
  return chunks;
}

/** The payload of the "VP8 " chunk (the lossy bitstream) of a file libwebp wrote. */
export function vp8Payload(file: Uint8Array): Uint8Array {
  const c = webpChunks(file).find((k) => k.id === 'VP8 ');
  if (!c) throw new Error('no VP8 chunk');
  return file.subarray(c.offset, c.offset + c.size);
}

/**
 * RIFF / VP8X (alpha flag, canvas size) / ALPH / VP8: a lossy WebP with an alpha plane, as the container
 * specification lays it out.
 */
export function assembleWithAlpha(vp8: Uint8Array, alph: Uint8Array, width: number, height: number): Uint8Array {
  const padded = (n: number) => n + (n & 1);
  const size = 12 + (8 + 10) + 8 + padded(alph.length) + 8 + padded(vp8.length);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  const put4 = (o: number, s: string) => {
    for (let i = 0; i < 4; i++) out[o + i] = s.charCodeAt(i);
  };
  const put24 = (o: number, v: number) => {
    out[o] = v & 0xff;
    out[o + 1] = (v >> 8) & 0xff;
    out[o + 2] = (v >> 16) & 0xff;
  };
  put4(0, 'RIFF');
  dv.setUint32(4, size - 8, true);
  put4(8, 'WEBP');
  let o = 12;
  put4(o, 'VP8X');
  dv.setUint32(o + 4, 10, true);
  out[o + 8] = 0x10; // flags: alpha (ICC, EXIF, XMP, animation off)
  put24(o + 12, width - 1);
  put24(o + 15, height - 1);
  o += 18;
  put4(o, 'ALPH');
  dv.setUint32(o + 4, alph.length, true);
  out.set(alph, o + 8);
  o += 8 + padded(alph.length);
  put4(o, 'VP8 ');
  dv.setUint32(o + 4, vp8.length, true);
  out.set(vp8, o + 8);
  return out;
}
