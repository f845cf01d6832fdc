// The alpha plane of a lossy WebP (the ALPH chunk) written in bounded memory: our own encoder of the WebP
// lossless bitstream (VP8L, RFC 9649 section 3) for an image of implicit size whose values sit in the
// green channel, written from the specifications (RFC 9649, and the container's VP8X/ALPH chunks).
//
// Why our own: libwebp's alpha encoder copies the plane into an ARGB image and runs its hash chain over
// all of it (~20 B/px). VP8L needs its prefix codes before the data, which takes two passes over the same
// tokens, not the plane in extra memory: pass 1 tokenises the plane into the same deterministic LZ77
// tokens pass 2 writes, counting them into histograms; the canonical prefix codes (at most 15 bits) are
// built from the counts; pass 2 writes the codes and then the tokens. The plane is read where it lies (the
// encoder's picture); what is held besides is a 1 MiB ring of the values being matched, a 64 K-entry hash
// of recent positions and the output.
//
// Stream layout (all of it in the spec's terms):
// - ALPH header byte: compression 1 (lossless), filtering method (0 none, 1 horizontal, 2 vertical,
//   3 gradient: the decoder adds the predictor back), no pre-processing;
// - one colour-indexing transform (palette of the filtered values present; <= 16 values are bundled 2, 4
//   or 8 per pixel). With the palette as the only transform, no colour cache, and red/blue/alpha codes of
//   one symbol, libwebp's decoder takes its 1 B/px alpha path instead of a whole ARGB image;
// - one prefix-code group (no meta prefix codes, no colour cache), LZ77 with the distance 1, the row above
//   (the spec's 2-D distance code 1) and a hash match per position, greedy, lengths up to 4096.

/** The filtering methods of the ALPH chunk (container spec). */
export const ALPHA_FILTERS = ['none', 'horizontal', 'vertical', 'gradient'] as const;
export type AlphaFilter = (typeof ALPHA_FILTERS)[number];

export type AlphaPlaneView = { data: Uint8Array; stride: number; width: number; height: number };

const CODE_LENGTH_ORDER = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
/** The 2-D distance map (RFC 9649, 4.2.2): code i + 1 is (xi, yi), distance xi + yi * width. */
// prettier-ignore
export const DISTANCE_MAP = [
  0, 1, 1, 0, 1, 1, -1, 1, 0, 2, 2, 0, 1, 2, -1, 2, 2, 1, -2, 1, 2, 2, -2, 2, 0, 3, 3, 0, 1, 3, -1, 3,
  3, 1, -3, 1, 2, 3, -2, 3, 3, 2, -3, 2, 0, 4, 4, 0, 1, 4, -1, 4, 4, 1, -4, 1, 3, 3, -3, 3, 2, 4, -2, 4,
  4, 2, -4, 2, 0, 5, 3, 4, -3, 4, 4, 3, -4, 3, 5, 0, 1, 5, -1, 5, 5, 1, -5, 1, 2, 5, -2, 5, 5, 2, -5, 2,
  4, 4, -4, 4, 3, 5, -3, 5, 5, 3, -5, 3, 0, 6, 6, 0, 1, 6, -1, 6, 6, 1, -6, 1, 2, 6, -2, 6, 6, 2, -6, 2,
  4, 5, -4, 5, 5, 4, -5, 4, 3, 6, -3, 6, 6, 3, -6, 3, 0, 7, 7, 0, 1, 7, -1, 7, 5, 5, -5, 5, 7, 1, -7, 1,
  4, 6, -4, 6, 6, 4, -6, 4, 2, 7, -2, 7, 7, 2, -7, 2, 3, 7, -3, 7, 7, 3, -7, 3, 5, 6, -5, 6, 6, 5, -6, 5,
  8, 0, 4, 7, -4, 7, 7, 4, -7, 4, 8, 1, 8, 2, 6, 6, -6, 6, 8, 3, 5, 7, -5, 7, 7, 5, -7, 5, 8, 4, 6, 7,
  -6, 7, 7, 6, -7, 6, 8, 5, 7, 7, -7, 7, 8, 6, 8, 7,
];

const NUM_LENGTH_CODES = 24;
const GREEN_ALPHABET = 256 + NUM_LENGTH_CODES;
const DIST_ALPHABET = 40;
const MAX_LENGTH = 4096;
const MIN_MATCH = 3;
const RING_BITS = 20;
const RING = 1 << RING_BITS;
const RING_MASK = RING - 1;
const HASH_BITS = 15;
const HASH_WAYS = 4;
/** Near 2-D distance codes tried at every position (the spec's map, cheapest first). */
const NEAR_CODES = 8;
/** Matches shorter than this are checked against a match one position later (lazy matching). */
const LAZY_BELOW = 64;
const HASH_MUL = 0x9e3779b1;

/** JS bytes the encoder holds besides its output: the ring, the hash, a filtered row per 16 Kpx of width. */
export function alphEncoderBytes(width: number): number {
  return RING + (1 << HASH_BITS) * HASH_WAYS * 4 + 2 * width + 64 * 1024;
}

/** Prefix symbol and extra bits of a length or distance code value v >= 1 (RFC 9649, 4.2.2). */
function prefixOf(v: number): { sym: number; nbits: number; extra: number } {
  const d = v - 1;
  if (d < 4) return { sym: d, nbits: 0, extra: 0 };
  const h = 31 - Math.clz32(d);
  const second = (d >>> (h - 1)) & 1;
  return { sym: 2 * h + second, nbits: h - 1, extra: d & ((1 << (h - 1)) - 1) };
}

// Small tables for the common values (lengths up to 4096), computed once.
const LEN_SYM = new Uint8Array(MAX_LENGTH + 1);
const LEN_NBITS = new Uint8Array(MAX_LENGTH + 1);
const LEN_EXTRA = new Uint16Array(MAX_LENGTH + 1);
for (let v = 1; v <= MAX_LENGTH; v++) {
  const p = prefixOf(v);
  LEN_SYM[v] = p.sym;
  LEN_NBITS[v] = p.nbits;
  LEN_EXTRA[v] = p.extra;
}

/** LSB-first bit writer into a buffer of known size (pass 1 computes it exactly) or growing. */
class BitWriter {
  buf: Uint8Array;
  pos = 0;
  private acc = 0;
  private n = 0;
  constructor(size: number) {
    this.buf = new Uint8Array(Math.max(16, size));
  }
  write(value: number, nbits: number): void {
    // nbits <= 24 per call keeps acc within 32 bits.
    this.acc |= value << this.n;
    this.n += nbits;
    while (this.n >= 8) {
      if (this.pos === this.buf.length) {
        const b = new Uint8Array(this.buf.length * 2);
        b.set(this.buf);
        this.buf = b;
      }
      this.buf[this.pos++] = this.acc & 0xff;
      this.acc >>>= 8;
      this.n -= 8;
    }
  }
  get bits(): number {
    return this.pos * 8 + this.n;
  }
  finish(): Uint8Array {
    if (this.n > 0) this.write(0, 8 - this.n);
    return this.buf.subarray(0, this.pos);
  }
}

/**
 * Code lengths (at most `maxLen` bits) of a Huffman code for `freq`; symbols with no count get 0. Length
 * limiting: the counts are halved (kept >= 1 where used) until the tree fits, which keeps the code complete.
 */
export function huffmanLengths(freq: ArrayLike<number>, maxLen: number): Uint8Array {
  const n = freq.length;
  const lengths = new Uint8Array(n);
  const used: number[] = [];
  for (let i = 0; i < n; i++) if (freq[i]! > 0) used.push(i);
  if (used.length === 0) return lengths;
  if (used.length === 1) {
    lengths[used[0]!] = 1;
    return lengths;
  }
  const counts = used.map((i) => freq[i]!);
  for (;;) {
    // Two-queue Huffman over the leaves sorted by count (ties by symbol: deterministic).
    const m = used.length;
    const order = used.map((_, k) => k).sort((a, b) => counts[a]! - counts[b]! || a - b);
    const weight = new Float64Array(2 * m);
    const parent = new Int32Array(2 * m).fill(-1);
    for (let k = 0; k < m; k++) weight[k] = counts[order[k]!]!;
    let leaf = 0;
    let inner = m;
    let next = m;
    const pick = (): number => {
      if (leaf < m && (inner >= next || weight[leaf]! <= weight[inner]!)) return leaf++;
      return inner++;
    };
    while (next < 2 * m - 1) {
      const a = pick();
      const b = pick();
      weight[next] = weight[a]! + weight[b]!;
      parent[a] = next;
      parent[b] = next;
      next++;
    }
    const depth = new Uint8Array(2 * m);
    for (let k = 2 * m - 3; k >= 0; k--) depth[k] = depth[parent[k]!]! + 1;
    let max = 0;
    for (let k = 0; k < m; k++) max = Math.max(max, depth[k]!);
    if (max <= maxLen) {
      for (let k = 0; k < m; k++) lengths[used[order[k]!]!] = depth[k]!;
      return lengths;
    }
    for (let k = 0; k < m; k++) counts[k] = Math.max(1, counts[k]! >>> 1);
  }
}

/** Canonical codes (RFC 9649, 3.7.2.2: as deflate), bit-reversed for the LSB-first writer. */
function canonicalCodes(lengths: Uint8Array): Uint16Array {
  const maxLen = 15;
  const blCount = new Uint16Array(maxLen + 1);
  for (const l of lengths) if (l) blCount[l]!++;
  const nextCode = new Uint16Array(maxLen + 2);
  let code = 0;
  for (let bits = 1; bits <= maxLen; bits++) {
    code = (code + blCount[bits - 1]!) << 1;
    nextCode[bits] = code;
  }
  const codes = new Uint16Array(lengths.length);
  for (let s = 0; s < lengths.length; s++) {
    const l = lengths[s]!;
    if (!l) continue;
    let c = nextCode[l]!++;
    let r = 0;
    for (let b = 0; b < l; b++) {
      r = (r << 1) | (c & 1);
      c >>>= 1;
    }
    codes[s] = r;
  }
  return codes;
}

/** A prefix code ready to write: lengths and reversed codes; `single` when it reads zero bits. */
type PrefixCode = { lengths: Uint8Array; codes: Uint16Array };

/**
 * Writes the description of a prefix code for `freq` (alphabet `freq.length`) and returns the code. One
 * used symbol (or none) below 256: a simple code of one symbol, read as zero bits. Otherwise a normal
 * code: code lengths run-length coded with 16/17/18 under a code-length code of at most 7 bits.
 */
function writePrefixCode(w: BitWriter, freq: ArrayLike<number>): PrefixCode {
  const n = freq.length;
  let usedCount = 0;
  let only = 0;
  for (let i = 0; i < n; i++)
    if (freq[i]! > 0) {
      usedCount++;
      only = i;
    }
  if (usedCount <= 1 && only < 256) {
    // Simple code: 1 (simple), 0 (one symbol), is_first_8bits, the symbol.
    w.write(1, 1);
    w.write(0, 1);
    if (only < 2) {
      w.write(0, 1);
      w.write(only, 1);
    } else {
      w.write(1, 1);
      w.write(only, 8);
    }
    return { lengths: new Uint8Array(n), codes: new Uint16Array(n) };
  }
  const lengths = huffmanLengths(freq, 15);
  // One used symbol at or above 256 (a normal code of one length): the decoder reads it as zero bits.
  const zeroBits = usedCount === 1;
  // Run-length tokens of the lengths: [symbol, extra bits value].
  const toks: number[] = [];
  for (let i = 0; i < n;) {
    const l = lengths[i]!;
    let run = 1;
    while (i + run < n && lengths[i + run] === l) run++;
    if (l === 0) {
      let left = run;
      while (left >= 11) {
        const k = Math.min(138, left);
        toks.push(18, k - 11);
        left -= k;
      }
      if (left >= 3) {
        toks.push(17, left - 3);
        left = 0;
      }
      while (left-- > 0) toks.push(0, 0);
    } else {
      toks.push(l, 0);
      let left = run - 1;
      while (left >= 3) {
        const k = Math.min(6, left);
        toks.push(16, k - 3);
        left -= k;
      }
      while (left-- > 0) toks.push(l, 0);
    }
    i += run;
  }
  const clFreq = new Uint32Array(19);
  for (let t = 0; t < toks.length; t += 2) clFreq[toks[t]!]!++;
  let clLengths = huffmanLengths(clFreq, 7);
  let clUsed = 0;
  for (const l of clLengths) if (l) clUsed++;
  if (clUsed === 1) {
    // One code-length symbol: give it a partner so the code has two 1-bit codes (a complete code).
    const s = clLengths.findIndex((l) => l > 0);
    clLengths = new Uint8Array(19);
    clLengths[s] = 1;
    clLengths[s === 0 ? 1 : 0] = 1;
  }
  const clCodes = canonicalCodes(clLengths);
  let numCl = 19;
  while (numCl > 4 && clLengths[CODE_LENGTH_ORDER[numCl - 1]!] === 0) numCl--;
  w.write(0, 1); // normal code
  w.write(numCl - 4, 4);
  for (let i = 0; i < numCl; i++) w.write(clLengths[CODE_LENGTH_ORDER[i]!]!, 3);
  w.write(0, 1); // max_symbol = alphabet size
  for (let t = 0; t < toks.length; t += 2) {
    const s = toks[t]!;
    w.write(clCodes[s]!, clLengths[s]!);
    if (s === 16) w.write(toks[t + 1]!, 2);
    else if (s === 17) w.write(toks[t + 1]!, 3);
    else if (s === 18) w.write(toks[t + 1]!, 7);
  }
  if (zeroBits) return { lengths: new Uint8Array(n), codes: new Uint16Array(n) };
  return { lengths, codes: canonicalCodes(lengths) };
}

/** Receives the tokens of the main image: pass 1 counts them, pass 2 writes them. */
interface TokenSink {
  literal(v: number): void;
  copy(length: number, distCode: number): void;
}

class Counter implements TokenSink {
  green = new Float64Array(GREEN_ALPHABET);
  dist = new Float64Array(DIST_ALPHABET);
  extraBits = 0;
  literal(v: number): void {
    this.green[v]!++;
  }
  copy(length: number, distCode: number): void {
    this.green[256 + LEN_SYM[length]!]!++;
    this.extraBits += LEN_NBITS[length]!;
    const p = distCode <= MAX_LENGTH ? null : prefixOf(distCode);
    if (p) {
      this.dist[p.sym]!++;
      this.extraBits += p.nbits;
    } else {
      this.dist[LEN_SYM[distCode]!]!++;
      this.extraBits += LEN_NBITS[distCode]!;
    }
  }
  /** Bits of the token data under the given codes. */
  dataBits(green: PrefixCode, dist: PrefixCode): number {
    let bits = this.extraBits;
    for (let s = 0; s < GREEN_ALPHABET; s++) bits += this.green[s]! * green.lengths[s]!;
    for (let s = 0; s < DIST_ALPHABET; s++) bits += this.dist[s]! * dist.lengths[s]!;
    return bits;
  }
}

class Writer implements TokenSink {
  constructor(
    private w: BitWriter,
    private green: PrefixCode,
    private dist: PrefixCode,
  ) {}
  literal(v: number): void {
    this.w.write(this.green.codes[v]!, this.green.lengths[v]!);
  }
  copy(length: number, distCode: number): void {
    const g = 256 + LEN_SYM[length]!;
    this.w.write(this.green.codes[g]!, this.green.lengths[g]!);
    if (LEN_NBITS[length]) this.w.write(LEN_EXTRA[length]!, LEN_NBITS[length]);
    let sym, nbits, extra;
    if (distCode <= MAX_LENGTH) {
      sym = LEN_SYM[distCode]!;
      nbits = LEN_NBITS[distCode]!;
      extra = LEN_EXTRA[distCode]!;
    } else ({ sym, nbits, extra } = prefixOf(distCode));
    this.w.write(this.dist.codes[sym]!, this.dist.lengths[sym]!);
    if (nbits) this.w.write(extra, nbits);
  }
}

/** Filtered value of pixel (x, y) (container spec: residual = alpha - predictor, mod 256). */
function filteredRow(p: AlphaPlaneView, y: number, filter: number, out: Uint8Array): void {
  const { data, stride, width } = p;
  const row = y * stride;
  const up = row - stride;
  if (filter === 0 || (y === 0 && filter === 0)) {
    out.set(data.subarray(row, row + width));
    return;
  }
  if (y === 0) {
    // First row: every method predicts from the left (0 for the first pixel).
    out[0] = data[row]!;
    for (let x = 1; x < width; x++) out[x] = (data[row + x]! - data[row + x - 1]!) & 0xff;
    return;
  }
  if (filter === 1) {
    out[0] = (data[row]! - data[up]!) & 0xff;
    for (let x = 1; x < width; x++) out[x] = (data[row + x]! - data[row + x - 1]!) & 0xff;
  } else if (filter === 2) {
    for (let x = 0; x < width; x++) out[x] = (data[row + x]! - data[up + x]!) & 0xff;
  } else {
    out[0] = (data[row]! - data[up]!) & 0xff;
    for (let x = 1; x < width; x++) {
      const g = data[row + x - 1]! + data[up + x]! - data[up + x - 1]!;
      out[x] = (data[row + x]! - (g < 0 ? 0 : g > 255 ? 255 : g)) & 0xff;
    }
  }
}

/** Histograms of the filtered values for the four methods, in one pass (palettes and entropy). */
function filterHistograms(p: AlphaPlaneView): Float64Array[] {
  const h = [0, 1, 2, 3].map(() => new Float64Array(256));
  const row = new Uint8Array(p.width);
  for (let y = 0; y < p.height; y++)
    for (let f = 0; f < 4; f++) {
      filteredRow(p, y, f, row);
      const hf = h[f]!;
      for (let x = 0; x < p.width; x++) hf[row[x]!]!++;
    }
  return h;
}

function entropyBits(h: Float64Array): number {
  let total = 0;
  for (const c of h) total += c;
  let bits = 0;
  for (const c of h) if (c > 0) bits -= c * Math.log2(c / total);
  return bits;
}

/** The symbol image: filtered values mapped to palette indices, bundled `1 << xbits` per pixel. */
type Layout = { filter: number; palette: number[]; index: Uint8Array; xbits: number; pw: number };

function layoutFor(p: AlphaPlaneView, filter: number, hist: Float64Array): Layout {
  const palette: number[] = [];
  for (let v = 0; v < 256; v++) if (hist[v]! > 0) palette.push(v);
  const index = new Uint8Array(256);
  palette.forEach((v, i) => (index[v] = i));
  const n = palette.length;
  const xbits = n <= 2 ? 3 : n <= 4 ? 2 : n <= 16 ? 1 : 0;
  return { filter, palette, index, xbits, pw: (p.width + (1 << xbits) - 1) >> xbits };
}

/**
 * The deterministic LZ77 tokeniser over the symbol image (row by row into a ring; a match never reaches
 * past the data computed so far or further back than the ring holds). Pass 1 and pass 2 call it with the
 * same plane and layout, so they see the same tokens.
 */
function tokenise(p: AlphaPlaneView, L: Layout, sink: TokenSink): void {
  const { pw, xbits } = L;
  const h = p.height;
  const total = pw * h;
  const ring = new Uint8Array(RING);
  const hash = new Int32Array((1 << HASH_BITS) * HASH_WAYS).fill(-1);
  const fRow = new Uint8Array(p.width);
  const bpp = 8 >> xbits;
  const per = 1 << xbits;
  let filledRows = 0;
  const fill = () => {
    filteredRow(p, filledRows, L.filter, fRow);
    const base = filledRows * pw;
    if (xbits === 0) {
      for (let x = 0; x < pw; x++) ring[(base + x) & RING_MASK] = L.index[fRow[x]!]!;
    } else {
      for (let x = 0; x < pw; x++) {
        let g = 0;
        const x0 = x << xbits;
        const end = Math.min(per, p.width - x0);
        for (let k = 0; k < end; k++) g |= L.index[fRow[x0 + k]!]! << (k * bpp);
        ring[(base + x) & RING_MASK] = g;
      }
    }
    filledRows++;
  };
  // The distance codes of the near neighbours for this width (first code wins, as in the map).
  const nearCode = new Map<number, number>();
  for (let k = 0; k < 120; k++) {
    const d = DISTANCE_MAP[2 * k]! + DISTANCE_MAP[2 * k + 1]! * pw;
    if (d >= 1 && !nearCode.has(d)) nearCode.set(d, k + 1);
  }
  const distCode = (d: number) => nearCode.get(d) ?? d + 120;
  // Positions a match may reach back to: the ring minus one row and one longest match of lookahead.
  const maxDist = Math.min(RING - pw - MAX_LENGTH - 8, (1 << 20) - 120);
  const hashAt = (i: number) =>
    (Math.imul(
      ring[i & RING_MASK]! |
        (ring[(i + 1) & RING_MASK]! << 8) |
        (ring[(i + 2) & RING_MASK]! << 16) |
        (ring[(i + 3) & RING_MASK]! << 24),
      HASH_MUL,
    ) >>>
      (32 - HASH_BITS)) |
    0;
  const matchLen = (i: number, d: number, limit: number): number => {
    let n = 0;
    while (n < limit && ring[(i + n) & RING_MASK] === ring[(i + n - d) & RING_MASK]) n++;
    return n;
  };
  // Near candidates: the first 2-D codes (row above, left, the diagonals, two rows/pixels back), each
  // written with a short distance code; cheapest first, so a tie keeps the cheaper one.
  const near: number[] = [];
  for (let k = 0; k < NEAR_CODES; k++) {
    const d = DISTANCE_MAP[2 * k]! + DISTANCE_MAP[2 * k + 1]! * pw;
    if (d >= 1 && !near.includes(d)) near.push(d);
  }
  const insert = (j: number) => {
    const b = hashAt(j) * HASH_WAYS;
    for (let k = HASH_WAYS - 1; k > 0; k--) hash[b + k] = hash[b + k - 1]!;
    hash[b] = j;
  };
  // The longest match at i (ties: the cheaper distance); a far (hashed) one must be 2 longer to win.
  let mLen = 0;
  let mDist = 0;
  const findMatch = (i: number) => {
    const limit = Math.min(MAX_LENGTH, total - i);
    mLen = 0;
    mDist = 0;
    for (const d of near) {
      if (d > i) continue;
      const n = matchLen(i, d, limit);
      if (n > mLen) {
        mLen = n;
        mDist = d;
        if (n === limit) return;
      }
    }
    if (i + 4 > total) return;
    const b = hashAt(i) * HASH_WAYS;
    for (let k = 0; k < HASH_WAYS; k++) {
      const cand = hash[b + k]!;
      if (cand < 0) break;
      const d = i - cand;
      if (d > maxDist || d <= 0) continue;
      const n = matchLen(i, d, limit);
      if (n >= 4 && n > mLen + 1) {
        mLen = n;
        mDist = d;
      }
    }
  };
  let i = 0;
  // One step of lazy matching: a match found at i + 1 that is clearly longer makes i a literal.
  let pendLen = -1;
  let pendDist = 0;
  while (i < total) {
    // Data up to the longest match ahead (or the end) must be in the ring.
    const want = Math.min(total, i + MAX_LENGTH + 8);
    while (filledRows * pw < want) fill();
    let len: number;
    let dist: number;
    if (pendLen >= 0) {
      len = pendLen;
      dist = pendDist;
      pendLen = -1;
    } else {
      findMatch(i);
      len = mLen;
      dist = mDist;
    }
    if (len >= MIN_MATCH && len < LAZY_BELOW && i + 1 < total) {
      if (i + 4 <= total) insert(i);
      findMatch(i + 1);
      if (mLen > len + 1) {
        sink.literal(ring[i & RING_MASK]!);
        i++;
        pendLen = mLen;
        pendDist = mDist;
        continue;
      }
      if (len >= MIN_MATCH) {
        sink.copy(len, distCode(dist));
        const end = i + len;
        for (let j = i + 1; j < end && j + 4 <= total; j++) insert(j);
        i = end;
        continue;
      }
    }
    if (len >= MIN_MATCH) {
      sink.copy(len, distCode(dist));
      // Long runs enter the hash at their start only (speed).
      if (i + 4 <= total) insert(i);
      i += len;
    } else {
      if (i + 4 <= total) insert(i);
      sink.literal(ring[i & RING_MASK]!);
      i++;
    }
  }
}

/** Writes the colour-indexing transform: its palette, delta coded, as a one-row image of literals. */
function writePalette(w: BitWriter, L: Layout): void {
  w.write(1, 1); // a transform follows
  w.write(3, 2); // COLOR_INDEXING_TRANSFORM
  w.write(L.palette.length - 1, 8);
  // Palette entries are ARGB with the value in green (alpha, red, blue 0), delta coded.
  const deltas = L.palette.map((v, i) => (i === 0 ? v : (v - L.palette[i - 1]!) & 0xff));
  w.write(0, 1); // no colour cache
  const g = new Float64Array(GREEN_ALPHABET);
  for (const d of deltas) g[d]!++;
  const green = writePrefixCode(w, g);
  const zero = new Float64Array(256);
  zero[0] = 1;
  writePrefixCode(w, zero); // red
  writePrefixCode(w, zero); // blue
  writePrefixCode(w, zero); // alpha
  writePrefixCode(w, new Float64Array(DIST_ALPHABET)); // distance
  for (const d of deltas) w.write(green.codes[d]!, green.lengths[d]!);
}

/** Everything before the token data: ALPH header byte, transform, main image's codes. */
function writeHeaders(w: BitWriter, L: Layout, counts: Counter): { green: PrefixCode; dist: PrefixCode } {
  w.write((L.filter << 2) | 1, 8); // ALPH header: no pre-processing, filter, compression 1
  writePalette(w, L);
  w.write(0, 1); // no more transforms
  w.write(0, 1); // no colour cache
  w.write(0, 1); // no meta prefix codes
  const green = writePrefixCode(w, counts.green);
  const zero = new Float64Array(256);
  zero[0] = 1;
  writePrefixCode(w, zero); // red
  writePrefixCode(w, zero); // blue
  writePrefixCode(w, zero); // alpha
  const dist = writePrefixCode(w, counts.dist);
  return { green, dist };
}

export type AlphEncodeStats = { filter: AlphaFilter; paletteSize: number; tried: { filter: AlphaFilter; bytes: number }[] };

/**
 * The ALPH chunk's payload for an alpha plane: header byte + VP8L stream. Filters: 'auto' tries no
 * filtering and the method whose residuals have the lowest entropy, and keeps the smaller.
 */
export function encodeAlph(
  p: AlphaPlaneView,
  opts: { filter?: AlphaFilter | 'auto'; maxBytes?: number } = {},
): { bytes: Uint8Array | null; size: number; stats: AlphEncodeStats } {
  const hists = filterHistograms(p);
  let tryFilters: number[];
  if (opts.filter && opts.filter !== 'auto') tryFilters = [ALPHA_FILTERS.indexOf(opts.filter)];
  else {
    let best = 1;
    for (let f = 2; f < 4; f++) if (entropyBits(hists[f]!) < entropyBits(hists[best]!)) best = f;
    tryFilters = [0, best];
  }
  const tried: { filter: AlphaFilter; bytes: number }[] = [];
  let chosen: { L: Layout; counts: Counter; bits: number } | null = null;
  for (const f of tryFilters) {
    const L = layoutFor(p, f, hists[f]!);
    const counts = new Counter();
    tokenise(p, L, counts); // pass 1
    const hw = new BitWriter(4096);
    const codes = writeHeaders(hw, L, counts);
    const bits = hw.bits + counts.dataBits(codes.green, codes.dist);
    tried.push({ filter: ALPHA_FILTERS[f]!, bytes: Math.ceil(bits / 8) });
    if (!chosen || bits < chosen.bits) chosen = { L, counts, bits };
  }
  const { L, counts, bits } = chosen!;
  const size = Math.ceil(bits / 8);
  const stats = { filter: ALPHA_FILTERS[L.filter]!, paletteSize: L.palette.length, tried };
  // Known before any output is held: the caller's limit (never larger than the original, memory).
  if (opts.maxBytes !== undefined && size > opts.maxBytes) return { bytes: null, size, stats };
  const w = new BitWriter(Math.ceil(bits / 8) + 8);
  const codes = writeHeaders(w, L, counts);
  tokenise(p, L, new Writer(w, codes.green, codes.dist)); // pass 2
  if (w.bits !== bits) throw new Error(`ALPH writer: ${w.bits} bits written, ${bits} counted`);
  return { bytes: w.finish(), size, stats };
}
