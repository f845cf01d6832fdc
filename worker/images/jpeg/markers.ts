// JPEG segment surgery without decoding: lossless metadata stripping and re-attaching the two pieces of
// metadata that change how an image looks (EXIF orientation and the ICC colour profile).
import { ImageDecodeError } from '../errors';
import { ascii, be16 } from '../sniff';

type Segment = { marker: number; start: number; end: number };

/** Segments from SOI up to (not including) the first SOS; `scanStart` is where SOS begins. */
function headerSegments(b: Uint8Array): { segments: Segment[]; scanStart: number } {
  const segments: Segment[] = [];
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) throw new ImageDecodeError('JPEG marker expected');
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1;
      continue;
    }
    if (marker === 0xda) return { segments, scanStart: i };
    const len = be16(b, i + 2);
    if (len < 2 || i + 2 + len > b.length) throw new ImageDecodeError('JPEG segment runs past the end');
    segments.push({ marker, start: i, end: i + 2 + len });
    i += 2 + len;
  }
  throw new ImageDecodeError('JPEG has no scan (truncated)');
}

/** End of the entropy-coded data: just past the last EOI marker (bytes after it are trailers). */
function imageEnd(b: Uint8Array): number {
  for (let i = b.length - 2; i >= 2; i--) if (b[i] === 0xff && b[i + 1] === 0xd9) return i + 2;
  throw new ImageDecodeError('JPEG has no end marker (truncated)');
}

const isExif = (b: Uint8Array, s: Segment) => s.marker === 0xe1 && ascii(b, s.start + 4, 6) === 'Exif\0\0';
const isIcc = (b: Uint8Array, s: Segment) => s.marker === 0xe2 && ascii(b, s.start + 4, 12) === 'ICC_PROFILE\0';
// APP14 "Adobe" tells decoders whether 3/4-channel data is YCbCr/YCCK or RGB/CMYK: dropping it changes colours.
const isAdobe = (b: Uint8Array, s: Segment) => s.marker === 0xee && ascii(b, s.start + 4, 5) === 'Adobe';
const isJfif = (b: Uint8Array, s: Segment) => s.marker === 0xe0 && ascii(b, s.start + 4, 5) === 'JFIF\0';

/** EXIF orientation 1..8 (1 when absent or unreadable). */
export function jpegOrientation(b: Uint8Array): number {
  const { segments } = headerSegments(b);
  const exif = segments.find((s) => isExif(b, s));
  if (!exif) return 1;
  const t = exif.start + 10;
  const little = ascii(b, t, 2) === 'II';
  const u16 = (i: number) => (little ? b[i]! | (b[i + 1]! << 8) : be16(b, i));
  const u32 = (i: number) =>
    little ? (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16)) + b[i + 3]! * 0x1000000 : be16(b, i) * 0x10000 + be16(b, i + 2);
  const ifd = t + u32(t + 4);
  if (ifd + 2 > exif.end) return 1;
  const count = u16(ifd);
  for (let k = 0; k < count; k++) {
    const e = ifd + 2 + k * 12;
    if (e + 12 > exif.end) break;
    if (u16(e) === 0x0112) {
      const v = u16(e + 8);
      return v >= 1 && v <= 8 ? v : 1;
    }
  }
  return 1;
}

/** A 36-byte APP1 EXIF segment carrying only the orientation tag. */
export function orientationSegment(orientation: number): Uint8Array {
  // prettier-ignore
  return new Uint8Array([
    0xff, 0xe1, 0x00, 0x22, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00, // APP1, length 34, "Exif\0\0"
    0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08,             // TIFF big-endian, IFD0 at 8
    0x00, 0x01,                                                 // one entry
    0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00, // Orientation SHORT
    0x00, 0x00, 0x00, 0x00,                                     // no next IFD
  ]);
}

/** The ICC_PROFILE APP2 segments (a profile may span several), verbatim. */
export function iccSegments(b: Uint8Array): Uint8Array[] {
  return headerSegments(b)
    .segments.filter((s) => isIcc(b, s))
    .map((s) => b.subarray(s.start, s.end));
}

/**
 * Lossless waste removal: drops comments, XMP, Photoshop IRB, thumbnails, MPF and trailers; keeps
 * JFIF, Adobe, the ICC profile, orientation (as a minimal EXIF) and every coding segment. The scan data
 * is copied byte for byte, so the decoded pixels are identical.
 */
export function stripJpegMetadata(b: Uint8Array): Uint8Array {
  const { segments, scanStart } = headerSegments(b);
  const end = imageEnd(b);
  const orientation = jpegOrientation(b);
  const parts: Uint8Array[] = [b.subarray(0, 2)];
  let exifPlaced = false;
  for (const s of segments) {
    const isApp = (s.marker >= 0xe0 && s.marker <= 0xef) || s.marker === 0xfe;
    if (isExif(b, s)) {
      if (orientation !== 1 && !exifPlaced) parts.push(orientationSegment(orientation));
      exifPlaced = true;
    } else if (!isApp || isIcc(b, s) || isAdobe(b, s) || isJfif(b, s)) {
      parts.push(b.subarray(s.start, s.end));
    }
  }
  parts.push(b.subarray(scanStart, end));
  return concat(parts);
}

/** Puts orientation and ICC segments right after the JFIF header of a freshly encoded JPEG. */
export function attachMetadata(encoded: Uint8Array, meta: { orientation: number; icc: Uint8Array[] }): Uint8Array {
  const extra: Uint8Array[] = [];
  if (meta.orientation !== 1) extra.push(orientationSegment(meta.orientation));
  extra.push(...meta.icc);
  if (extra.length === 0) return encoded;
  const { segments } = headerSegments(encoded);
  const first = segments[0];
  const at = first && isJfif(encoded, first) ? first.end : 2;
  return concat([encoded.subarray(0, at), ...extra, encoded.subarray(at)]);
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
