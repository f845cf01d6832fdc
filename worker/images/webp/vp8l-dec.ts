// A windowed decoder of the WebP lossless bitstream (VP8L, RFC 9649 section 3), written from the spec:
// it hands out the image row by row and holds a ring of the last 2^20 decoded pixels (a back reference
// reaches at most 1048576 - 120 pixels back, or seven rows and eight pixels through the 2-D codes), the
// transforms' side images (one pixel per 2^n x 2^n block) and two rows per transform, never the image. Used for the alpha plane of a lossy WebP original (the
// ALPH chunk: an image stream of implicit size with the values in green), where libwebp's decoder holds
// a whole plane and a whole index buffer (2 B/px) before it copies rows out.
//
// Every feature of the format is decoded (an original's alpha may use any): the four transforms, the
// colour cache, meta prefix codes, LZ77 with the 2-D distance map.

import { DISTANCE_MAP } from './alph';

const RING_BITS = 20;
/** JS bytes of the decoder's window (the ring of decoded pixels). */
export const VP8L_WINDOW_BYTES = (1 << RING_BITS) * 4;

class Reader {
  private pos = 0;
  private readonly end: number;
  constructor(private readonly b: Uint8Array) {
    this.end = b.length * 8;
  }
  /** n <= 24 bits, LSB first. */
  bits(n: number): number {
    if (n === 0) return 0;
    const p = this.pos;
    const i = p >>> 3;
    const b = this.b;
    const w = ((b[i] ?? 0) | ((b[i + 1] ?? 0) << 8) | ((b[i + 2] ?? 0) << 16) | ((b[i + 3] ?? 0) << 24)) >>> (p & 7);
    this.pos = p + n;
    if (this.pos > this.end) throw new Error('VP8L data truncated');
    return w & ((1 << n) - 1);
  }
  bit(): number {
    const p = this.pos++;
    if (p >= this.end) throw new Error('VP8L data truncated');
    return (this.b[p >>> 3]! >>> (p & 7)) & 1;
  }
}

/** A canonical prefix code, decoded bit by bit (first bit = the code's most significant). */
class Code {
  readonly count = new Uint16Array(16);
  readonly symbols: Uint16Array;
  /** Decodes as zero bits (one symbol). */
  readonly single: number;
  constructor(lengths: Uint8Array) {
    let used = 0;
    let last = 0;
    for (let s = 0; s < lengths.length; s++)
      if (lengths[s]) {
        this.count[lengths[s]!]!++;
        used++;
        last = s;
      }
    if (used === 0) throw new Error('VP8L: empty prefix code');
    this.single = used === 1 ? last : -1;
    const offs = new Uint16Array(16);
    for (let l = 1; l < 16; l++) offs[l] = offs[l - 1]! + this.count[l - 1]!;
    this.symbols = new Uint16Array(used);
    for (let s = 0; s < lengths.length; s++) if (lengths[s]) this.symbols[offs[lengths[s]!]!++] = s;
    // Over-subscribed codes are invalid; incomplete ones are refused as libwebp does.
    let left = 1;
    for (let l = 1; l < 16; l++) {
      left = left * 2 - this.count[l]!;
      if (left < 0) throw new Error('VP8L: over-subscribed prefix code');
    }
    if (used > 1 && left !== 0) throw new Error('VP8L: incomplete prefix code');
  }
  read(r: Reader): number {
    if (this.single >= 0) return this.single;
    let code = 0;
    let first = 0;
    let index = 0;
    for (let len = 1; len < 16; len++) {
      code |= r.bit();
      const count = this.count[len]!;
      if (code - count < first) return this.symbols[index + (code - first)]!;
      index += count;
      first = (first + count) << 1;
      code <<= 1;
    }
    throw new Error('VP8L: bad prefix code');
  }
}

const CODE_LENGTH_ORDER = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

function readCode(r: Reader, alphabet: number): Code {
  const lengths = new Uint8Array(alphabet);
  if (r.bit()) {
    // Simple code: one or two symbols, each 1 bit (one symbol: zero bits).
    const n = r.bit() + 1;
    const s0 = r.bits(r.bit() ? 8 : 1);
    if (s0 >= alphabet) throw new Error('VP8L: symbol out of range');
    lengths[s0] = 1;
    if (n === 2) {
      const s1 = r.bits(8);
      if (s1 >= alphabet) throw new Error('VP8L: symbol out of range');
      lengths[s1] = 1;
    }
    return new Code(lengths);
  }
  const clLengths = new Uint8Array(19);
  const num = r.bits(4) + 4;
  for (let i = 0; i < num; i++) clLengths[CODE_LENGTH_ORDER[i]!] = r.bits(3);
  const cl = new Code(clLengths);
  let max = alphabet;
  if (r.bit()) {
    const nbits = 2 + 2 * r.bits(3);
    max = 2 + r.bits(nbits);
    if (max > alphabet) throw new Error('VP8L: max_symbol too large');
  }
  let prev = 8;
  for (let s = 0; s < alphabet;) {
    if (max-- === 0) break;
    const c = cl.read(r);
    if (c < 16) {
      lengths[s++] = c;
      if (c) prev = c;
      continue;
    }
    const [extra, base, v] = c === 16 ? [2, 3, prev] : c === 17 ? [3, 3, 0] : [7, 11, 0];
    const rep = base + r.bits(extra);
    if (s + rep > alphabet) throw new Error('VP8L: code lengths overflow');
    for (let k = 0; k < rep; k++) lengths[s++] = v;
  }
  return new Code(lengths);
}

type Group = [Code, Code, Code, Code, Code]; // green+length+cache, red, blue, alpha, distance

function readGroups(r: Reader, n: number, cacheSize: number): Group[] {
  const groups: Group[] = [];
  for (let g = 0; g < n; g++)
    groups.push([readCode(r, 256 + 24 + cacheSize), readCode(r, 256), readCode(r, 256), readCode(r, 256), readCode(r, 40)]);
  return groups;
}

const prefixValue = (r: Reader, sym: number): number => {
  if (sym < 4) return sym + 1;
  const extra = (sym - 2) >> 1;
  return ((2 + (sym & 1)) << extra) + r.bits(extra) + 1;
};

const subSize = (size: number, bits: number) => (size + (1 << bits) - 1) >> bits;

function readColorCacheBits(r: Reader): number {
  if (!r.bit()) return 0;
  const b = r.bits(4);
  if (b < 1 || b > 11) throw new Error('VP8L: bad colour cache size');
  return b;
}

/** Pixel decoding state shared by sub-images and the main image. */
class PixelDecoder {
  private readonly cache: Uint32Array | null;
  private readonly cacheShift: number;
  private readonly near: Int32Array;
  constructor(
    private readonly r: Reader,
    private readonly width: number,
    cacheBits: number,
    private readonly groups: Group[],
    private readonly groupAt: ((x: number, y: number) => number) | null,
  ) {
    this.cache = cacheBits ? new Uint32Array(1 << cacheBits) : null;
    this.cacheShift = 32 - cacheBits;
    this.near = new Int32Array(120);
    for (let k = 0; k < 120; k++) this.near[k] = Math.max(1, DISTANCE_MAP[2 * k]! + DISTANCE_MAP[2 * k + 1]! * width);
  }
  /**
   * Decodes `total` pixels into `out` (a ring of `mask + 1` entries, or a whole buffer with mask -1 >>> 0),
   * calling `row(y)` after each complete row.
   */
  run(out: Uint32Array, mask: number, total: number, row: ((y: number) => void) | null): void {
    const { r, width, groups, cache, cacheShift } = this;
    let x = 0;
    let y = 0;
    let g = groups[this.groupAt ? this.groupAt(0, 0) : 0]!;
    const cacheLimit = 256 + 24;
    const put = (argb: number, i: number) => {
      out[i & mask] = argb;
      if (cache) cache[Math.imul(argb, 0x1e35a7bd) >>> cacheShift] = argb;
    };
    for (let i = 0; i < total;) {
      if (this.groupAt) g = groups[this.groupAt(x, y)]!;
      const s = g[0].read(r);
      let n = 1;
      if (s < 256) {
        const red = g[1].read(r);
        const blue = g[2].read(r);
        const alpha = g[3].read(r);
        put(((alpha << 24) | (red << 16) | (s << 8) | blue) >>> 0, i);
      } else if (s < cacheLimit) {
        n = prefixValue(r, s - 256);
        const dc = prefixValue(r, g[4].read(r));
        const d = dc > 120 ? dc - 120 : this.near[dc - 1]!;
        if (d > i || d > mask) throw new Error('VP8L: back reference before the start or beyond the window');
        if (i + n > total) throw new Error('VP8L: copy past the end');
        for (let k = 0; k < n; k++) put(out[(i + k - d) & mask]!, i + k);
      } else {
        if (!cache) throw new Error('VP8L: colour cache symbol without a cache');
        put(cache[s - cacheLimit]!, i);
      }
      i += n;
      x += n;
      while (x >= width) {
        x -= width;
        if (row) row(y);
        y++;
      }
    }
  }
}

/** An entropy-coded sub-image (transform data, meta codes), decoded whole: it is small. */
function readSubImage(r: Reader, w: number, h: number): Uint32Array {
  const cacheBits = readColorCacheBits(r);
  const groups = readGroups(r, 1, cacheBits ? 1 << cacheBits : 0);
  const out = new Uint32Array(w * h);
  new PixelDecoder(r, w, cacheBits, groups, null).run(out, 0xffffffff, w * h, null);
  return out;
}

type Transform =
  | { type: 0 | 1; bits: number; data: Uint32Array; bw: number; outW: number }
  | { type: 2; outW: number }
  | { type: 3; bits: number; palette: Uint32Array; outW: number };

const add = (a: number, b: number) =>
  ((((a >>> 24) + (b >>> 24)) & 0xff) << 24) |
  ((((a >>> 16) + (b >>> 16)) & 0xff) << 16) |
  ((((a >>> 8) + (b >>> 8)) & 0xff) << 8) |
  ((a + b) & 0xff);
const avg2 = (a: number, b: number) =>
  ((((a >>> 24) + (b >>> 24)) >>> 1) << 24) |
  (((((a >>> 16) & 0xff) + ((b >>> 16) & 0xff)) >>> 1) << 16) |
  (((((a >>> 8) & 0xff) + ((b >>> 8) & 0xff)) >>> 1) << 8) |
  (((a & 0xff) + (b & 0xff)) >>> 1);
const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);
const ch = (p: number, s: number) => (p >>> s) & 0xff;
function select(L: number, T: number, TL: number): number {
  let pL = 0;
  let pT = 0;
  for (let s = 0; s < 32; s += 8) {
    const p = ch(L, s) + ch(T, s) - ch(TL, s);
    pL += Math.abs(p - ch(L, s));
    pT += Math.abs(p - ch(T, s));
  }
  return pL < pT ? L : T;
}
function clampFull(a: number, b: number, c: number): number {
  let o = 0;
  for (let s = 0; s < 32; s += 8) o |= clamp(ch(a, s) + ch(b, s) - ch(c, s)) << s;
  return o >>> 0;
}
function clampHalf(a: number, b: number): number {
  let o = 0;
  for (let s = 0; s < 32; s += 8) o |= clamp(ch(a, s) + Math.trunc((ch(a, s) - ch(b, s)) / 2)) << s;
  return o >>> 0;
}
function predict(mode: number, L: number, T: number, TR: number, TL: number): number {
  switch (mode) {
    case 0:
      return 0xff000000;
    case 1:
      return L;
    case 2:
      return T;
    case 3:
      return TR;
    case 4:
      return TL;
    case 5:
      return avg2(avg2(L, TR), T);
    case 6:
      return avg2(L, TL);
    case 7:
      return avg2(L, T);
    case 8:
      return avg2(TL, T);
    case 9:
      return avg2(T, TR);
    case 10:
      return avg2(avg2(L, TL), avg2(T, TR));
    case 11:
      return select(L, T, TL);
    case 12:
      return clampFull(L, T, TL);
    case 13:
      return clampHalf(avg2(L, T), TL);
    default:
      return 0xff000000; // modes 14 and 15 are not used by encoders; libwebp predicts black
  }
}
const delta = (t: number, c: number) => (((t << 24) >> 24) * ((c << 24) >> 24)) >> 5;

/**
 * Decodes a VP8L image stream of `width` x `height` (no header: as in the ALPH chunk) row by row:
 * `onRow(y, argb)` gets each row's final ARGB (a view valid during the call).
 */
export function decodeVp8lRows(
  data: Uint8Array,
  width: number,
  height: number,
  onRow: (y: number, argb: Uint32Array) => void,
): void {
  const r = new Reader(data);
  const transforms: Transform[] = [];
  let xsize = width;
  const seen = new Set<number>();
  while (r.bit()) {
    const type = r.bits(2) as 0 | 1 | 2 | 3;
    if (seen.has(type)) throw new Error('VP8L: transform used twice');
    seen.add(type);
    if (type === 0 || type === 1) {
      const bits = r.bits(3) + 2;
      const bw = subSize(xsize, bits);
      transforms.push({ type, bits, bw, data: readSubImage(r, bw, subSize(height, bits)), outW: xsize });
    } else if (type === 2) transforms.push({ type, outW: xsize });
    else {
      const size = r.bits(8) + 1;
      const raw = readSubImage(r, size, 1);
      const palette = new Uint32Array(256);
      let prev = 0;
      for (let i = 0; i < size; i++) palette[i] = prev = add(prev, raw[i]!) >>> 0;
      const bits = size <= 2 ? 3 : size <= 4 ? 2 : size <= 16 ? 1 : 0;
      transforms.push({ type, bits, palette, outW: xsize });
      xsize = subSize(xsize, bits);
    }
  }
  // The main image: colour cache, meta prefix codes, the codes, then the pixels.
  const cacheBits = readColorCacheBits(r);
  let groupAt: ((x: number, y: number) => number) | null = null;
  let nGroups = 1;
  if (r.bit()) {
    const bits = r.bits(3) + 2;
    const mw = subSize(xsize, bits);
    const meta = readSubImage(r, mw, subSize(height, bits));
    for (let i = 0; i < meta.length; i++) {
      meta[i] = (meta[i]! >>> 8) & 0xffff;
      nGroups = Math.max(nGroups, meta[i]! + 1);
    }
    groupAt = (x, y) => meta[(y >> bits) * mw + (x >> bits)]!;
  }
  const groups = readGroups(r, nGroups, cacheBits ? 1 << cacheBits : 0);
  const RING = 1 << RING_BITS;
  const ring = new Uint32Array(RING);
  // Two rows per transform stage (its output and the row above it), in decoding order.
  const stages = transforms
    .slice()
    .reverse()
    .map((t) => ({ t, cur: new Uint32Array(t.outW), up: new Uint32Array(t.outW) }));
  const inRow = new Uint32Array(xsize);
  const pd = new PixelDecoder(r, xsize, cacheBits, groups, groupAt);
  pd.run(ring, RING - 1, xsize * height, (y) => {
    const base = (y * xsize) & (RING - 1);
    for (let x = 0; x < xsize; x++) inRow[x] = ring[(base + x) & (RING - 1)]!;
    let src: Uint32Array = inRow;
    for (const st of stages) {
      const { t, cur, up } = st;
      const w = t.outW;
      if (t.type === 2) {
        for (let x = 0; x < w; x++) {
          const p = src[x]!;
          const g = (p >>> 8) & 0xff;
          cur[x] = ((p & 0xff00ff00) | ((((p >>> 16) + g) & 0xff) << 16) | ((p + g) & 0xff)) >>> 0;
        }
      } else if (t.type === 3) {
        const per = 1 << t.bits;
        const bpp = 8 >> t.bits;
        const m = (1 << bpp) - 1;
        for (let x = 0; x < w; x++) {
          const packed = (src[x >> t.bits]! >>> 8) & 0xff;
          cur[x] = t.palette[(packed >>> ((x & (per - 1)) * bpp)) & m]!;
        }
      } else if (t.type === 1) {
        for (let x = 0; x < w; x++) {
          const e = t.data[(y >> t.bits) * t.bw + (x >> t.bits)]!;
          const p = src[x]!;
          const g = (p >>> 8) & 0xff;
          const red = ((p >>> 16) + delta(e, g)) & 0xff; // e's blue byte: green_to_red
          const blue = (p + delta(e >>> 8, g) + delta(e >>> 16, red)) & 0xff;
          cur[x] = ((p & 0xff00ff00) | (red << 16) | blue) >>> 0;
        }
      } else {
        for (let x = 0; x < w; x++) {
          let pred: number;
          if (y === 0) pred = x === 0 ? 0xff000000 : cur[x - 1]!;
          else if (x === 0) pred = up[0]!;
          else {
            const mode = (t.data[(y >> t.bits) * t.bw + (x >> t.bits)]! >>> 8) & 0xf;
            const TR = x === w - 1 ? cur[0]! : up[x + 1]!;
            pred = predict(mode, cur[x - 1]!, up[x]!, TR, up[x - 1]!);
          }
          cur[x] = add(src[x]!, pred) >>> 0;
        }
      }
      src = cur;
    }
    onRow(y, src);
    for (const st of stages) {
      const tmp = st.up;
      st.up = st.cur;
      st.cur = tmp;
    }
  });
}

/**
 * Decodes an ALPH chunk's payload (header byte + data) into `out` (rows `stride` apart), un-filtering as
 * the container spec says. Compression 0 (raw) and 1 (VP8L).
 */
export function decodeAlphInto(alph: Uint8Array, width: number, height: number, out: Uint8Array, stride: number): void {
  if (alph.length < 1) throw new Error('ALPH chunk empty');
  const hdr = alph[0]!;
  const method = hdr & 3;
  const filter = (hdr >> 2) & 3;
  if (method > 1) throw new Error('ALPH: unknown compression');
  const unfilter = (y: number) => {
    const row = y * stride;
    const up = row - stride;
    if (filter === 0) return;
    if (y === 0) {
      for (let x = 1; x < width; x++) out[row + x] = (out[row + x]! + out[row + x - 1]!) & 0xff;
      return;
    }
    if (filter === 2) {
      for (let x = 0; x < width; x++) out[row + x] = (out[row + x]! + out[up + x]!) & 0xff;
      return;
    }
    out[row] = (out[row]! + out[up]!) & 0xff;
    if (filter === 1) for (let x = 1; x < width; x++) out[row + x] = (out[row + x]! + out[row + x - 1]!) & 0xff;
    else
      for (let x = 1; x < width; x++) {
        const g = out[row + x - 1]! + out[up + x]! - out[up + x - 1]!;
        out[row + x] = (out[row + x]! + (g < 0 ? 0 : g > 255 ? 255 : g)) & 0xff;
      }
  };
  if (method === 0) {
    if (alph.length - 1 < width * height) throw new Error('ALPH data truncated');
    for (let y = 0; y < height; y++) {
      out.set(alph.subarray(1 + y * width, 1 + (y + 1) * width), y * stride);
      unfilter(y);
    }
    return;
  }
  decodeVp8lRows(alph.subarray(1), width, height, (y, argb) => {
    const row = y * stride;
    for (let x = 0; x < width; x++) out[row + x] = (argb[x]! >>> 8) & 0xff;
    unfilter(y);
  });
}
