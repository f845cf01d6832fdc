// Row-wise PNG encoding: each row gets the filter with the smallest sum of absolute values (the libpng
// heuristic), and the filtered rows stream through the runtime's native zlib
// (CompressionStream('deflate')). Memory: two rows plus the compressed output. Used where the whole
// image cannot be handed to OxiPNG inside the isolate (large PNGs, palette output of large PNGs).
import { concat } from '../jpeg/markers';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(parts: Uint8Array[]): number {
  let c = 0xffffffff;
  for (const p of parts) for (let i = 0; i < p.length; i++) c = CRC_TABLE[(c ^ p[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const head = new Uint8Array(8);
  const dv = new DataView(head.buffer);
  dv.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) head[4 + i] = type.charCodeAt(i);
  const tail = new Uint8Array(4);
  new DataView(tail.buffer).setUint32(0, crc32([head.subarray(4), data]));
  return concat([head, data, tail]);
}

export type PngWriterOptions = {
  width: number;
  height: number;
  bitDepth: 1 | 2 | 4 | 8 | 16;
  colourType: 0 | 2 | 3 | 4 | 6;
  palette?: Uint8Array;
  trns?: Uint8Array;
  /** Raw chunks (with length and CRC) placed after IHDR: colour chunks of the original. */
  extraChunks?: Uint8Array[];
};

export type PngWriter = {
  /** One unfiltered row in the output format (packed samples); the buffer may be reused after the call. */
  writeRow(raw: Uint8Array): Promise<void>;
  finish(): Promise<Uint8Array>;
  /** Stops early (a candidate that can no longer win): releases the compressed output. */
  abort(): Promise<void>;
  /** Compressed bytes so far (for the memory account). */
  readonly compressedBytes: number;
};

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

export function createPngWriter(o: PngWriterOptions): PngWriter {
  const bits = CHANNELS[o.colourType]! * o.bitDepth;
  const bpp = Math.max(1, bits >> 3);
  const rowBytes = Math.ceil((o.width * bits) / 8);
  // Palette and sub-byte images compress best unfiltered (PNG spec recommendation).
  const adaptive = o.colourType !== 3 && o.bitDepth >= 8;
  const cs = new CompressionStream('deflate');
  const writer = cs.writable.getWriter();
  const reader = cs.readable.getReader();
  const out: Uint8Array[] = [];
  let compressed = 0;
  const draining = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      out.push(value);
      compressed += value.length;
    }
  })();
  let prev = new Uint8Array(rowBytes);
  let written = 0;
  const cand = Array.from({ length: 5 }, () => new Uint8Array(1 + rowBytes));

  // Filtered rows are batched into one reused buffer: a write resolves once the compressor has
  // consumed it (no copy per row left for the GC).
  const batch = new Uint8Array(Math.max(1 + rowBytes, 256 << 10));
  let used = 0;
  const flush = async () => {
    if (used === 0) return;
    await writer.ready;
    await writer.write(batch.subarray(0, used));
    used = 0;
  };

  function filterRow(cur: Uint8Array): Uint8Array {
    if (!adaptive) {
      const r = cand[0]!;
      r[0] = 0;
      r.set(cur, 1);
      return r;
    }
    let best = 0;
    let bestSum = Infinity;
    for (let f = 0; f < 5; f++) {
      const t = cand[f]!;
      t[0] = f;
      let sum = 0;
      for (let i = 0; i < rowBytes; i++) {
        const x = cur[i]!;
        const a = i >= bpp ? cur[i - bpp]! : 0;
        const b = prev[i]!;
        const c = i >= bpp ? prev[i - bpp]! : 0;
        let v: number;
        if (f === 0) v = x;
        else if (f === 1) v = x - a;
        else if (f === 2) v = x - b;
        else if (f === 3) v = x - ((a + b) >> 1);
        else {
          const p = a + b - c;
          const pa = Math.abs(p - a),
            pb = Math.abs(p - b),
            pc = Math.abs(p - c);
          v = x - (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
        }
        v &= 255;
        t[1 + i] = v;
        sum += v < 128 ? v : 256 - v;
        if (sum >= bestSum) break;
      }
      if (sum < bestSum) {
        bestSum = sum;
        best = f;
      }
    }
    // The winner's buffer is complete (its loop never broke early).
    return cand[best]!;
  }

  return {
    get compressedBytes() {
      return compressed;
    },
    async writeRow(raw) {
      if (written >= o.height) throw new RangeError('PNG writer: more rows than the height');
      const row = raw.subarray(0, rowBytes);
      const filtered = filterRow(row);
      prev.set(row);
      written++;
      if (used + filtered.length > batch.length) await flush();
      batch.set(filtered, used);
      used += filtered.length;
    },
    async abort() {
      out.length = 0;
      await writer.abort().catch(() => undefined);
      await draining.catch(() => undefined);
    },
    async finish() {
      if (written !== o.height) throw new RangeError(`PNG writer: ${written} of ${o.height} rows written`);
      await flush();
      await writer.close();
      await draining;
      const ihdr = new Uint8Array(13);
      const dv = new DataView(ihdr.buffer);
      dv.setUint32(0, o.width);
      dv.setUint32(4, o.height);
      ihdr[8] = o.bitDepth;
      ihdr[9] = o.colourType;
      const head = [
        new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        pngChunk('IHDR', ihdr),
        ...(o.extraChunks ?? []),
      ];
      if (o.palette) head.push(pngChunk('PLTE', o.palette));
      if (o.trns && o.trns.length) head.push(pngChunk('tRNS', o.trns));
      // The file is written once, in place: IDAT chunks of about 1 MB straight from the compressed pieces
      // (each piece released as it is copied), so the output exists at most twice, never three times.
      const IDAT_MAX = 1 << 20;
      const idatCount = Math.max(1, Math.ceil(compressed / IDAT_MAX));
      const headBytes = head.reduce((n, h) => n + h.length, 0);
      const file = new Uint8Array(headBytes + compressed + idatCount * 12 + 12);
      const dvf = new DataView(file.buffer);
      let at = 0;
      for (const h of head) {
        file.set(h, at);
        at += h.length;
      }
      let piece = 0;
      let pieceOff = 0;
      for (let left = compressed; left > 0 || at === headBytes;) {
        const len = Math.min(IDAT_MAX, left);
        dvf.setUint32(at, len);
        file.set([0x49, 0x44, 0x41, 0x54], at + 4);
        let w = at + 8;
        while (w < at + 8 + len) {
          const p = out[piece]!;
          const take = Math.min(p.length - pieceOff, at + 8 + len - w);
          file.set(p.subarray(pieceOff, pieceOff + take), w);
          w += take;
          pieceOff += take;
          if (pieceOff === p.length) {
            out[piece++] = new Uint8Array(0);
            pieceOff = 0;
          }
        }
        dvf.setUint32(at + 8 + len, crc32([file.subarray(at + 4, at + 8 + len)]));
        at += 12 + len;
        left -= len;
      }
      file.set(pngChunk('IEND', new Uint8Array(0)), at);
      out.length = 0;
      prev = new Uint8Array(0);
      return file;
    },
  };
}
