// Row-wise PNG decoding for images too large to decode whole in the isolate (a 25 MP RGBA image is
// 100 MB of pixels alone). The IDAT stream is inflated in small synchronous steps (pako, see inflate())
// and unfiltered here one scanline at a time: memory grows with the
// width, not the area. Interlaced (Adam7) images are decoded in sweeps: each sweep inflates the whole
// stream again and keeps only the rows of one band, so the band buffer, not the image, bounds memory.
import * as zlib from 'pako/lib/zlib/inflate.js';
import ZStream from 'pako/lib/zlib/zstream.js';
import { ImageDecodeError } from '../errors';
import { ascii, be32 } from '../sniff';

export type PngInfo = {
  width: number;
  height: number;
  bitDepth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA. */
  colourType: number;
  interlaced: boolean;
  /** Samples per pixel in the file (palette: 1). */
  channels: number;
  /** Bytes of one unfiltered full-width row in the file's own format. */
  rowBytes: number;
  palette: Uint8Array | null;
  trns: Uint8Array | null;
  idat: Uint8Array[];
  /** Chunks before IDAT that describe colour (iCCP, sRGB, gAMA, cHRM), raw with length and CRC. */
  colourChunks: Uint8Array[];
};

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const COLOUR_CHUNKS = new Set(['iCCP', 'sRGB', 'gAMA', 'cHRM']);

export function readPngInfo(png: Uint8Array): PngInfo {
  if (png.length < 33 || be32(png, 0) !== 0x89504e47) throw new ImageDecodeError('not a PNG');
  let width = 0,
    height = 0,
    bitDepth = 0,
    colourType = -1,
    interlaced = false;
  let palette: Uint8Array | null = null;
  let trns: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  const colourChunks: Uint8Array[] = [];
  let ended = false;
  for (let i = 8; i + 12 <= png.length;) {
    const len = be32(png, i);
    const type = ascii(png, i + 4, 4);
    const end = i + 12 + len;
    if (end > png.length) {
      if (type === 'IDAT') idat.push(png.subarray(i + 8, png.length)); // truncated: inflate reports it
      break;
    }
    const data = png.subarray(i + 8, i + 8 + len);
    if (type === 'IHDR') {
      width = be32(data, 0);
      height = be32(data, 4);
      bitDepth = data[8]!;
      colourType = data[9]!;
      interlaced = data[12] === 1;
    } else if (type === 'PLTE') palette = data;
    else if (type === 'tRNS') trns = data;
    else if (type === 'IDAT') idat.push(data);
    else if (COLOUR_CHUNKS.has(type) && idat.length === 0) colourChunks.push(png.subarray(i, end));
    else if (type === 'IEND') {
      ended = true;
      break;
    }
    i = end;
  }
  const channels = CHANNELS[colourType];
  if (!width || !height || !channels || ![1, 2, 4, 8, 16].includes(bitDepth)) throw new ImageDecodeError('PNG header is invalid');
  if (colourType === 3 && !palette) throw new ImageDecodeError('palette PNG without PLTE');
  if (idat.length === 0) throw new ImageDecodeError('PNG has no image data');
  void ended;
  return {
    width,
    height,
    bitDepth,
    colourType,
    interlaced,
    channels,
    rowBytes: Math.ceil((width * channels * bitDepth) / 8),
    palette,
    trns,
    idat,
    colourChunks,
  };
}

/**
 * Inflates the zlib stream spread over the IDAT chunks into ONE reused 64 KB buffer, yielding views of
 * it (the caller consumes each view before asking for the next). pako's low-level inflater (pure JS)
 * rather than the runtime's DecompressionStream: workerd's DecompressionStream applies no backpressure
 * (measured: 50 writes of a 50 MB stream all resolve with nothing read, the whole output queued), so a
 * 25 MP image would sit decompressed in memory; and a fresh buffer per piece would leave the image's
 * size in garbage for the GC to find.
 */
async function* inflate(parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  const strm = new ZStream();
  if (zlib.inflateInit2(strm, 15) !== 0) throw new ImageDecodeError('PNG inflater could not start');
  const out = new Uint8Array(64 * 1024);
  try {
    for (const p of parts) {
      strm.input = p;
      strm.next_in = 0;
      strm.avail_in = p.length;
      do {
        strm.output = out;
        strm.next_out = 0;
        strm.avail_out = out.length;
        const status = zlib.inflate(strm, 0 /* Z_NO_FLUSH */);
        if (status < 0 && status !== -5 /* Z_BUF_ERROR: no progress possible */)
          throw new ImageDecodeError(`PNG data is corrupt: ${strm.msg || `zlib error ${status}`}`);
        const n = out.length - strm.avail_out;
        if (n > 0) yield out.subarray(0, n);
        if (status === 1 /* Z_STREAM_END */) return;
        if (n === 0 && (status === -5 || strm.avail_in === 0)) break;
      } while (strm.avail_in > 0 || strm.avail_out === 0);
    }
    // Input exhausted before the end of the stream: scan() reports the missing rows as truncation.
  } finally {
    zlib.inflateEnd(strm);
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a),
    pb = Math.abs(p - b),
    pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Unfilters `cur` (filter byte at index 0) in place against `prev` (same layout; zeros for the first row). */
export function unfilter(cur: Uint8Array, prev: Uint8Array, bpp: number): void {
  const filter = cur[0]!;
  const n = cur.length;
  switch (filter) {
    case 0:
      return;
    case 1:
      for (let i = 1 + bpp; i < n; i++) cur[i] = (cur[i]! + cur[i - bpp]!) & 255;
      return;
    case 2:
      for (let i = 1; i < n; i++) cur[i] = (cur[i]! + prev[i]!) & 255;
      return;
    case 3:
      for (let i = 1; i < n; i++) cur[i] = (cur[i]! + (((i > bpp ? cur[i - bpp]! : 0) + prev[i]!) >> 1)) & 255;
      return;
    case 4:
      for (let i = 1; i < n; i++) {
        const a = i > bpp ? cur[i - bpp]! : 0;
        const c = i > bpp ? prev[i - bpp]! : 0;
        cur[i] = (cur[i]! + paeth(a, prev[i]!, c)) & 255;
      }
      return;
    default:
      throw new ImageDecodeError(`PNG row has unknown filter ${filter}`);
  }
}

type PassRow = (row: Uint8Array, pass: number, passY: number) => void | Promise<void>;

const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

function passesOf(info: PngInfo): { w: number; h: number; x0: number; y0: number; dx: number; dy: number }[] {
  if (!info.interlaced) return [{ w: info.width, h: info.height, x0: 0, y0: 0, dx: 1, dy: 1 }];
  return ADAM7.map(([x0, y0, dx, dy]) => ({
    w: Math.ceil((info.width - x0) / dx),
    h: Math.ceil((info.height - y0) / dy),
    x0,
    y0,
    dx,
    dy,
  }));
}

/** One full pass over the compressed data: every (sub-image) row unfiltered, in file order. */
async function scan(info: PngInfo, onRow: PassRow): Promise<void> {
  const bitsPP = info.channels * info.bitDepth;
  const bpp = Math.max(1, bitsPP >> 3);
  const passes = passesOf(info);
  let p = 0;
  while (p < passes.length && (passes[p]!.w === 0 || passes[p]!.h === 0)) p++;
  const widest = 1 + Math.ceil((info.width * bitsPP) / 8);
  let cur = new Uint8Array(widest);
  let prev = new Uint8Array(widest);
  let rowLen = p < passes.length ? 1 + Math.ceil((passes[p]!.w * bitsPP) / 8) : 0;
  let filled = 0;
  let y = 0;
  for await (const piece of inflate(info.idat)) {
    let o = 0;
    while (o < piece.length && p < passes.length) {
      const take = Math.min(rowLen - filled, piece.length - o);
      cur.set(piece.subarray(o, o + take), filled);
      filled += take;
      o += take;
      if (filled < rowLen) break;
      const row = cur.subarray(0, rowLen);
      unfilter(row, prev.subarray(0, rowLen), bpp);
      await onRow(row, p, y);
      [cur, prev] = [prev, cur];
      filled = 0;
      if (++y === passes[p]!.h) {
        y = 0;
        prev.fill(0);
        do p++;
        while (p < passes.length && (passes[p]!.w === 0 || passes[p]!.h === 0));
        if (p < passes.length) rowLen = 1 + Math.ceil((passes[p]!.w * bitsPP) / 8);
      }
    }
  }
  if (p < passes.length) throw new ImageDecodeError('PNG data is truncated');
}

/**
 * Full-width unfiltered rows in the file's own sample format, top to bottom (the buffer is reused:
 * copy what you keep). Interlaced files: bands of `bandRows` rows, one inflate sweep per band.
 */
export async function forEachRawRow(
  info: PngInfo,
  onRow: (raw: Uint8Array, y: number) => void | Promise<void>,
  bandBytes = 16 << 20,
): Promise<void> {
  if (!info.interlaced) {
    await scan(info, (row, _p, y) => onRow(row.subarray(1), y));
    return;
  }
  const band = Math.max(8, Math.min(info.height, Math.floor(bandBytes / info.rowBytes)));
  const buf = new Uint8Array(band * info.rowBytes);
  const passes = passesOf(info);
  const bits = info.channels * info.bitDepth;
  for (let top = 0; top < info.height; top += band) {
    const bottom = Math.min(info.height, top + band);
    buf.fill(0);
    await scan(info, (row, p, py) => {
      const ps = passes[p]!;
      const fy = ps.y0 + py * ps.dy;
      if (fy < top || fy >= bottom) return;
      const dst = (fy - top) * info.rowBytes;
      if (bits >= 8) {
        const b = bits >> 3;
        for (let i = 0; i < ps.w; i++) {
          const s = 1 + i * b;
          buf.set(row.subarray(s, s + b), dst + (ps.x0 + i * ps.dx) * b);
        }
      } else {
        const mask = (1 << bits) - 1;
        for (let i = 0; i < ps.w; i++) {
          const sb = i * bits;
          const v = (row[1 + (sb >> 3)]! >> (8 - bits - (sb & 7))) & mask;
          const db = (ps.x0 + i * ps.dx) * bits;
          buf[dst + (db >> 3)] = buf[dst + (db >> 3)]! | (v << (8 - bits - (db & 7)));
        }
      }
    });
    for (let fy = top; fy < bottom; fy++)
      await onRow(buf.subarray((fy - top) * info.rowBytes, (fy - top + 1) * info.rowBytes), fy);
  }
}

/** Converts one raw row to 8-bit straight RGBA (16-bit samples rounded, palette and tRNS expanded). */
export function rawToRgba(info: PngInfo, raw: Uint8Array, out: Uint8Array | Uint8ClampedArray, outOff: number): void {
  const { width: w, bitDepth: bd, colourType: ct, trns, palette } = info;
  const s16 = (i: number) => (raw[i]! << 8) | raw[i + 1]!;
  const to8 = (v: number) => ((v * 255 + 32767) / 65535) | 0;
  if (ct === 3 || (ct === 0 && bd < 8)) {
    const mask = (1 << bd) - 1;
    const key = ct === 0 && trns && trns.length >= 2 ? (trns[0]! << 8) | trns[1]! : -1;
    for (let x = 0; x < w; x++) {
      const bit = x * bd;
      const v = bd === 8 ? raw[x]! : (raw[bit >> 3]! >> (8 - bd - (bit & 7))) & mask;
      const o = outOff + x * 4;
      if (ct === 3) {
        const p = v * 3;
        if (p + 2 < palette!.length) {
          out[o] = palette![p]!;
          out[o + 1] = palette![p + 1]!;
          out[o + 2] = palette![p + 2]!;
        } else {
          out[o] = 0;
          out[o + 1] = 0;
          out[o + 2] = 0;
        }
        out[o + 3] = trns && v < trns.length ? trns[v]! : 255;
      } else {
        const g = ((v * 255) / mask) | 0;
        out[o] = g;
        out[o + 1] = g;
        out[o + 2] = g;
        out[o + 3] = v === key ? 0 : 255;
      }
    }
    return;
  }
  const ch = info.channels;
  if (bd === 8) {
    const key0 = trns && trns.length >= 2 ? trns[1]! : -1;
    const hasKey = trns !== null && (ct === 0 || ct === 2) && trns[0] === 0 && (ct === 0 || (trns[2] === 0 && trns[4] === 0));
    for (let x = 0; x < w; x++) {
      const i = x * ch;
      const o = outOff + x * 4;
      if (ct === 6) {
        out[o] = raw[i]!;
        out[o + 1] = raw[i + 1]!;
        out[o + 2] = raw[i + 2]!;
        out[o + 3] = raw[i + 3]!;
        continue;
      }
      if (ct === 2) {
        out[o] = raw[i]!;
        out[o + 1] = raw[i + 1]!;
        out[o + 2] = raw[i + 2]!;
        out[o + 3] = hasKey && raw[i] === trns[1] && raw[i + 1] === trns[3] && raw[i + 2] === trns[5] ? 0 : 255;
        continue;
      }
      const g = raw[i]!;
      out[o] = g;
      out[o + 1] = g;
      out[o + 2] = g;
      out[o + 3] = ct === 4 ? raw[i + 1]! : hasKey && g === key0 ? 0 : 255;
    }
    return;
  }
  // 16-bit
  for (let x = 0; x < w; x++) {
    const i = x * ch * 2;
    const o = outOff + x * 4;
    if (ct === 6 || ct === 2) {
      const r = s16(i),
        g = s16(i + 2),
        b = s16(i + 4);
      out[o] = to8(r);
      out[o + 1] = to8(g);
      out[o + 2] = to8(b);
      out[o + 3] =
        ct === 6
          ? to8(s16(i + 6))
          : trns &&
              trns.length >= 6 &&
              r === ((trns[0]! << 8) | trns[1]!) &&
              g === ((trns[2]! << 8) | trns[3]!) &&
              b === ((trns[4]! << 8) | trns[5]!)
            ? 0
            : 255;
    } else {
      const v = s16(i);
      const g8 = to8(v);
      out[o] = g8;
      out[o + 1] = g8;
      out[o + 2] = g8;
      out[o + 3] = ct === 4 ? to8(s16(i + 2)) : trns && trns.length >= 2 && v === ((trns[0]! << 8) | trns[1]!) ? 0 : 255;
    }
  }
}

/**
 * 8-bit RGBA strips of at most `stripRows` rows, top to bottom. The strip buffer is reused between
 * calls: the callback must finish with it (await inside) before returning.
 */
export async function forEachRgbaStrip(
  info: PngInfo,
  stripRows: number,
  onStrip: (rgba: Uint8Array, y: number, rows: number) => void | Promise<void>,
): Promise<void> {
  const rows = Math.max(1, Math.min(stripRows, info.height));
  const strip = new Uint8Array(rows * info.width * 4);
  let top = 0;
  let n = 0;
  await forEachRawRow(info, async (raw, y) => {
    rawToRgba(info, raw, strip, n * info.width * 4);
    n++;
    if (n === rows || y === info.height - 1) {
      await onStrip(strip.subarray(0, n * info.width * 4), top, n);
      top = y + 1;
      n = 0;
    }
  });
}

/** Rows per strip so that one RGBA strip stays near `bytes` (at least 8 rows: a guard block row). */
export function stripRowsFor(width: number, bytes = 1 << 20): number {
  return Math.max(8, Math.floor(bytes / (width * 4)) & ~7);
}
