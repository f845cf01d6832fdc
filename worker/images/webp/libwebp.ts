// libwebp 1.2.4 built from source (worker/images/codecs: `npm run build:codecs`), instantiated here
// without emscripten's JS glue: the bounded WebP path for WebPs too large for jSquash (which holds the
// image as RGBA several times, ~30 B/px). Here the image lives in the heap once, as the encoder's own
// YUV 4:2:0 picture (1.5 B/px, 2.5 with alpha): the original is decoded straight into its planes, the
// lossy encoder reads it there and pushes its output out in 64 KB chunks, and the guard has the
// candidate's VP8 data decoded band by band and compares its Y rows with the picture's strip by strip
// (guard/strip-guard.ts): no second picture. Real transparency: libwebp encodes the colour only (VP8),
// the alpha plane is written by our own bounded VP8L encoder (webp/alph.ts) from the plane in place,
// and the file is assembled here (webp/container.ts); the alpha is lossless, so the guard takes the
// picture's alpha plane for both sides.
//
// Why Y planes suffice for the guard: its metric is block SSIM on luma (0.299 R + 0.587 G + 0.114 B);
// for BT.601 YUV -> RGB that sum is 255/219 (Y - 16) (the chroma terms cancel), so expanding Y to full
// range gives the luma the whole-image guard computes on the decoded RGB, without RGB anywhere.
//
// One instance per isolate; a libwebp failure discards it.
import wasmModule from '../codecs/libwebp.wasm';
import { GUARD_MAX_QUALITY, GUARD_MAX_RAISE, GUARD_STEP, type GuardMode, type GuardedOutput } from '../guard/policy';
import { GUARD_SSIM_FLOOR } from '../guard/perceptual';
import { createStripGuard } from '../guard/strip-guard';
import { RowResizer } from '../pixels/resize';
import { alphEncoderBytes, encodeAlph, type AlphEncodeStats } from './alph';
import { hold } from '../ledger';
import { assembleWithAlpha, vp8Payload, webpChunks } from './container';
import { decodeAlphInto, decodeVp8lRows, VP8L_WINDOW_BYTES } from './vp8l-dec';

const PAGE = 65536;
const STRIP = 16;

type Exports = {
  memory: WebAssembly.Memory;
  _initialize(): void;
  wb_malloc(n: number): number;
  wb_free(p: number): void;
  wb_features(data: number, size: number): number;
  wb_pic_new(w: number, h: number, alpha: number): number;
  wb_pic_free(pic: number): void;
  wb_pic_planes(pic: number): number;
  wb_decode_into(data: number, size: number, pic: number): number;
  wb_encode(pic: number, quality: number, method: number, exact: number, stream: number, colourOnly: number): number;
  wb_decode_rows(data: number, size: number, stream: number): number;
};

/** Rows [y0, y0 + n) of a decoded luma plane at `ptr` in the heap, `stride` apart. */
type RowsHandler = (heap: Uint8Array, ptr: number, stride: number, y0: number, n: number) => void;

export class LibwebpError extends Error {
  override name = 'LibwebpError';
}

type State = { ex: Exports; outputs: Map<number, Uint8Array[]>; rows: Map<number, RowsHandler>; nextStream: number };
let current: State | null = null;
let peakHeap = 0;

function instance(): State {
  if (current) return current;
  const state: State = { ex: null as unknown as Exports, outputs: new Map(), rows: new Map(), nextStream: 1 };
  const imports = {
    env: {
      js_emit(stream: number, buf: number, len: number): void {
        state.outputs.get(stream)?.push(new Uint8Array(state.ex.memory.buffer).slice(buf, buf + len));
      },
      js_rows(stream: number, y: number, stride: number, y0: number, n: number): void {
        state.rows.get(stream)?.(new Uint8Array(state.ex.memory.buffer), y, stride, y0, n);
      },
      emscripten_notify_memory_growth() {},
    },
  };
  state.ex = new WebAssembly.Instance(wasmModule, imports).exports as unknown as Exports;
  state.ex._initialize();
  current = state;
  return state;
}

function guarded<T>(fn: (ex: Exports) => T): T {
  const s = instance();
  try {
    return fn(s.ex);
  } catch (e) {
    releaseLibwebp(0); // state unknown after a trap: the next call makes a new instance
    throw e instanceof LibwebpError ? e : new LibwebpError(String(e));
  }
}

/** Bytes of WebAssembly memory the libwebp instance holds. */
export function libwebpHeapBytes(): number {
  return current ? current.ex.memory.buffer.byteLength : 0;
}

/** Largest heap an instance reached since the last reset (dropped instances included). */
export function libwebpPeakHeapBytes(reset = false): number {
  const peak = Math.max(peakHeap, libwebpHeapBytes());
  if (reset) peakHeap = 0;
  return peak;
}

/** Drops the instance (and its heap) when it holds more than `capBytes`. */
export function releaseLibwebp(capBytes = 0): void {
  peakHeap = Math.max(peakHeap, libwebpHeapBytes());
  if (current && current.ex.memory.buffer.byteLength > capBytes) current = null;
}

/** Grows the heap once to `bytes` (the job's estimate): no geometric-growth slack. */
function reserve(bytes: number): void {
  const mem = instance().ex.memory;
  const want = Math.ceil(bytes / PAGE);
  const have = mem.buffer.byteLength / PAGE;
  if (want > have) mem.grow(want - have);
}

/** Copies bytes into the heap; the caller frees the pointer. */
function toHeap(ex: Exports, bytes: Uint8Array): number {
  const p = ex.wb_malloc(bytes.length);
  if (!p) throw new LibwebpError('out of memory');
  new Uint8Array(ex.memory.buffer, p, bytes.length).set(bytes);
  return p;
}

export type WebpFeatures = { width: number; height: number; hasAlpha: boolean; lossless: boolean; animated: boolean };

export function readWebpFeatures(bytes: Uint8Array): WebpFeatures {
  return guarded((ex) => {
    // The RIFF header and first chunks are enough (VP8X/VP8/VP8L headers sit in the first bytes).
    const head = bytes.subarray(0, Math.min(bytes.length, 4096));
    const p = toHeap(ex, head);
    try {
      const f = ex.wb_features(p, head.length);
      if (!f) throw new LibwebpError('WebP header is invalid');
      const i = new Int32Array(ex.memory.buffer, f, 5);
      return { width: i[0]!, height: i[1]!, hasAlpha: i[2] === 1, lossless: i[3] === 2, animated: i[4] === 1 };
    } finally {
      ex.wb_free(p);
    }
  });
}

/** A YUV 4:2:0 (+A) picture in the wasm heap, the encoder's input. */
export class WebpPicture {
  readonly width: number;
  readonly height: number;
  readonly alpha: boolean;
  private pic: number;

  constructor(width: number, height: number, alpha: boolean) {
    this.width = width;
    this.height = height;
    this.alpha = alpha;
    this.pic = guarded((ex) => ex.wb_pic_new(width, height, alpha ? 1 : 0));
    if (!this.pic) throw new LibwebpError(`out of memory for a ${width}x${height} picture`);
  }

  /** Views of the planes (valid until the next codec call that may grow the heap). */
  planes(): {
    y: Uint8Array;
    yStride: number;
    u: Uint8Array;
    v: Uint8Array;
    uvStride: number;
    a: Uint8Array | null;
    aStride: number;
  } {
    const { ex } = instance();
    const i = new Int32Array(ex.memory.buffer, ex.wb_pic_planes(this.pic), 7);
    const buf = ex.memory.buffer;
    const uvH = (this.height + 1) >> 1;
    return {
      y: new Uint8Array(buf, i[0], i[1]! * this.height),
      yStride: i[1]!,
      u: new Uint8Array(buf, i[2], i[4]! * uvH),
      v: new Uint8Array(buf, i[3], i[4]! * uvH),
      uvStride: i[4]!,
      a: this.alpha ? new Uint8Array(buf, i[5], i[6]! * this.height) : null,
      aStride: i[6]!,
    };
  }

  /**
   * Decodes a WebP of the same size into the planes, holding nothing whole besides them: a lossy file's
   * VP8 data by libwebp (exact YUV), its ALPH chunk by our windowed VP8L decoder (webp/vp8l-dec.ts)
   * straight into the A plane, where libwebp's alpha decoder would hold a whole plane and a whole index
   * buffer of its own first (2 B/px). A lossless (VP8L) file is decoded by our windowed decoder too, its
   * ARGB rows converted into the planes 16 at a time (setRgbRows), where libwebp's VP8L decoder holds
   * the whole image as ARGB (4 B/px).
   */
  decodeBounded(bytes: Uint8Array): void {
    let chunks;
    try {
      chunks = webpChunks(bytes);
    } catch {
      chunks = null; // not a RIFF file, or truncated: libwebp reports it
    }
    const vp8l = chunks?.find((c) => c.id === 'VP8L');
    if (vp8l) return this.decodeLossless(bytes.subarray(vp8l.offset, vp8l.offset + vp8l.size));
    const alph = chunks?.find((c) => c.id === 'ALPH');
    const vp8 = chunks?.find((c) => c.id === 'VP8 ');
    if (!this.alpha || !alph || !vp8) return this.decode(bytes);
    this.decode(bytes.subarray(vp8.offset, vp8.offset + vp8.size)); // the raw VP8 bitstream: A = 255
    const { a, aStride } = this.planes();
    const window = hold(VP8L_WINDOW_BYTES + 16 * this.width); // the ring and the rows (ledger.ts)
    try {
      decodeAlphInto(bytes.subarray(alph.offset, alph.offset + alph.size), this.width, this.height, a!, aStride);
    } catch (e) {
      throw new LibwebpError(`WebP alpha decode failed (corrupt ALPH data: ${e instanceof Error ? e.message : String(e)})`);
    } finally {
      window();
    }
  }

  /** A VP8L chunk's payload (signature, 14-bit sizes, then the image stream) into the planes, row by row. */
  private decodeLossless(vp8l: Uint8Array): void {
    if (vp8l.length < 5 || vp8l[0] !== 0x2f) throw new LibwebpError('WebP decode failed (invalid VP8L header)');
    const h = vp8l[1]! | (vp8l[2]! << 8) | (vp8l[3]! << 16) | (vp8l[4]! << 24);
    const width = (h & 0x3fff) + 1;
    const height = ((h >>> 14) & 0x3fff) + 1;
    if (width !== this.width || height !== this.height || h >>> 29 !== 0)
      throw new LibwebpError('WebP decode failed (invalid VP8L header)');
    const W = this.width;
    const strip = new Uint8Array(STRIP * W * 4);
    const window = hold(VP8L_WINDOW_BYTES + strip.length + 16 * W); // the ring, the strip, the rows (ledger.ts)
    let y0 = 0;
    let n = 0;
    try {
      decodeVp8lRows(vp8l.subarray(5), W, this.height, (y, argb) => {
        const o = n * W * 4;
        for (let x = 0; x < W; x++) {
          const p = argb[x]!;
          const i = o + x * 4;
          strip[i] = (p >>> 16) & 0xff;
          strip[i + 1] = (p >>> 8) & 0xff;
          strip[i + 2] = p & 0xff;
          strip[i + 3] = p >>> 24;
        }
        if (++n === STRIP) {
          this.setRgbRows(y0, strip, n, 4);
          y0 = y + 1;
          n = 0;
        }
      });
      if (n > 0) this.setRgbRows(y0, strip, n, 4);
    } catch (e) {
      if (e instanceof LibwebpError) throw e;
      throw new LibwebpError(`WebP decode failed (corrupt VP8L data: ${e instanceof Error ? e.message : String(e)})`);
    } finally {
      window();
    }
  }

  /** Decodes a WebP of the same size into the planes (lossy files keep their exact YUV). */
  decode(bytes: Uint8Array): void {
    guarded((ex) => {
      const p = toHeap(ex, bytes);
      try {
        const st = ex.wb_decode_into(p, bytes.length, this.pic);
        if (st !== 0)
          throw new LibwebpError(
            `WebP decode failed (VP8 status ${st}: ${st === 7 ? 'truncated data' : st === 3 ? 'corrupt bitstream' : 'invalid'})`,
          );
      } finally {
        ex.wb_free(p);
      }
    });
  }

  /**
   * Fills rows [y0, y0 + n) from packed RGB(A) rows (BT.601 limited range, as libwebp's RGB import;
   * chroma is the 2x2 average). `y0` and `n` must be even except for the picture's last row.
   */
  setRgbRows(y0: number, rows: Uint8Array, n: number, channels: 3 | 4): void {
    const { y, yStride, u, v, uvStride, a, aStride } = this.planes();
    const w = this.width;
    for (let r = 0; r < n; r++) {
      const yy = y0 + r;
      for (let x = 0; x < w; x++) {
        const s = (r * w + x) * channels;
        const R = rows[s]!,
          G = rows[s + 1]!,
          B = rows[s + 2]!;
        y[yy * yStride + x] = (16839 * R + 33059 * G + 6420 * B + (16 << 16) + 32768) >> 16;
        if (a) a[yy * aStride + x] = channels === 4 ? rows[s + 3]! : 255;
      }
    }
    for (let r = 0; r < n; r += 2) {
      const r2 = Math.min(r + 1, n - 1);
      const cy = (y0 + r) >> 1;
      for (let cx = 0; cx < (w + 1) >> 1; cx++) {
        const x0 = cx * 2,
          x1 = Math.min(x0 + 1, w - 1);
        let R = 0,
          G = 0,
          B = 0;
        for (const [rr, xx] of [
          [r, x0],
          [r, x1],
          [r2, x0],
          [r2, x1],
        ] as const) {
          const s = (rr * w + xx) * channels;
          R += rows[s]!;
          G += rows[s + 1]!;
          B += rows[s + 2]!;
        }
        u[cy * uvStride + cx] = Math.max(0, Math.min(255, (-9719 * R - 19081 * G + 28800 * B + (128 << 18) + (1 << 17)) >> 18));
        v[cy * uvStride + cx] = Math.max(0, Math.min(255, (28800 * R - 24116 * G - 4684 * B + (128 << 18) + (1 << 17)) >> 18));
      }
    }
  }

  /**
   * Rows [y0, y0 + n) as straight RGBA (BT.601, chroma nearest; A = 255 without an alpha plane), for
   * drawing on the picture (watermark) and writing back with setRgbRows.
   */
  getRgbaRows(y0: number, n: number, out: Uint8Array): void {
    const { y, yStride, u, v, uvStride, a, aStride } = this.planes();
    const w = this.width;
    for (let r = 0; r < n; r++) {
      const yy = y0 + r;
      const cRow = (yy >> 1) * uvStride;
      for (let x = 0; x < w; x++) {
        const l = 1.164 * (y[yy * yStride + x]! - 16);
        const cu = u[cRow + (x >> 1)]! - 128,
          cv = v[cRow + (x >> 1)]! - 128;
        const o = (r * w + x) * 4;
        out[o] = Math.max(0, Math.min(255, Math.round(l + 1.596 * cv)));
        out[o + 1] = Math.max(0, Math.min(255, Math.round(l - 0.813 * cv - 0.391 * cu)));
        out[o + 2] = Math.max(0, Math.min(255, Math.round(l + 2.018 * cu)));
        out[o + 3] = a ? a[yy * aStride + x]! : 255;
      }
    }
  }

  /** Plane pointers and strides (stable while the picture lives; views must be made from the current buffer). */
  planePointers(): { y: number; yStride: number; a: number; aStride: number } {
    const { ex } = instance();
    const i = new Int32Array(ex.memory.buffer, ex.wb_pic_planes(this.pic), 7);
    return { y: i[0]!, yStride: i[1]!, a: this.alpha ? i[5]! : 0, aStride: i[6]! };
  }

  /**
   * Lossy encode at `quality` (libwebp's defaults, method 4 as the whole-image path). `colourOnly`: the
   * alpha plane is left out (a VP8-only file; the colour under fully transparent areas flattened as
   * libwebp does with alpha, unless `exact`).
   */
  encode(quality: number, opts: { method?: number; exact?: boolean; colourOnly?: boolean } = {}): Uint8Array {
    const s = instance();
    const stream = s.nextStream++;
    s.outputs.set(stream, []);
    try {
      const err = guarded((ex) =>
        ex.wb_encode(this.pic, quality, opts.method ?? 4, opts.exact ? 1 : 0, stream, opts.colourOnly ? 1 : 0),
      );
      if (err !== 0) throw new LibwebpError(`WebP encode failed (error ${err}${err === 1 ? ': out of memory' : ''})`);
      const chunks = s.outputs.get(stream)!;
      const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      hold(out.length)(); // the chunks, then joined: both for a moment (ledger.ts)
      let off = 0;
      for (const c of chunks) {
        out.set(c, off);
        off += c.length;
      }
      return out;
    } finally {
      s.outputs.delete(stream);
    }
  }

  free(): void {
    if (this.pic && current) current.ex.wb_pic_free(this.pic);
    this.pic = 0;
  }
}

/**
 * Decodes a VP8 bitstream (a "VP8 " chunk's payload) band by band: `onRows` gets the luma rows in order
 * (views into the heap, valid during the call). The decoder holds a few macroblock rows, not the image.
 */
export function decodeVp8Rows(vp8: Uint8Array, onRows: RowsHandler): void {
  const s = instance();
  const stream = s.nextStream++;
  s.rows.set(stream, onRows);
  try {
    guarded((ex) => {
      const p = toHeap(ex, vp8);
      try {
        const st = ex.wb_decode_rows(p, vp8.length, stream);
        if (st !== 0) throw new LibwebpError(`VP8 decode failed (status ${st})`);
      } finally {
        ex.wb_free(p);
      }
    });
  } finally {
    s.rows.delete(stream);
  }
}

function hasTransparency(pic: WebpPicture): boolean {
  const { a, aStride } = pic.planes();
  if (!a) return false;
  for (let y = 0; y < pic.height; y++) {
    const row = y * aStride;
    for (let x = 0; x < pic.width; x++) if (a[row + x] !== 255) return true;
  }
  return false;
}

/** Heap bytes of one picture (the planes libwebp allocates). */
export function pictureBytes(width: number, height: number, alpha: boolean): number {
  const uv = ((width + 1) >> 1) * ((height + 1) >> 1);
  return width * height * (alpha ? 2 : 1) + uv * 2;
}

/** Limited-range Y -> full-range luma, as the decoder's RGB would give it. */
const LUMA = Uint8Array.from({ length: 256 }, (_, y) => Math.max(0, Math.min(255, Math.round(((y - 16) * 255) / 219))));

/**
 * Strip-by-strip block-SSIM of a candidate against the picture (luma, + alpha on white when the picture
 * has an alpha plane). The candidate's VP8 data are decoded band by band (decodeVp8Rows) and its Y rows
 * collected into 16-row strips; its alpha is the picture's (the alpha plane is stored losslessly).
 */
function compare(orig: WebpPicture, candVp8: Uint8Array): number {
  const { width, height, alpha } = orig;
  const guard = createStripGuard({ width, height, level: alpha ? 'luma+alpha' : 'luma' });
  const ch = alpha ? 4 : 1;
  const a = new Uint8Array(STRIP * width * ch);
  const b = new Uint8Array(STRIP * width * ch);
  const strips = hold(a.length + b.length);
  const po = orig.planePointers();
  let y0 = 0; // first row of the strip being collected
  let filled = 0; // candidate rows in it
  const flush = (heap: Uint8Array) => {
    for (let r = 0; r < filled; r++) {
      const yRow = po.y + (y0 + r) * po.yStride;
      const o = r * width * ch;
      if (ch === 1) {
        for (let x = 0; x < width; x++) a[o + x] = LUMA[heap[yRow + x]!]!;
      } else {
        const aRow = po.a + (y0 + r) * po.aStride;
        for (let x = 0; x < width; x++) {
          const l = LUMA[heap[yRow + x]!]!;
          const i = o + x * 4;
          a[i] = l;
          a[i + 1] = l;
          a[i + 2] = l;
          a[i + 3] = b[i + 3] = heap[aRow + x]!;
        }
      }
    }
    guard.push(a, b, filled, ch);
    y0 += filled;
    filled = 0;
  };
  decodeVp8Rows(candVp8, (heap, ptr, stride, ry, n) => {
    if (ry !== y0 + filled) throw new LibwebpError(`VP8 rows out of order (${ry}, expected ${y0 + filled})`);
    for (let r = 0; r < n; r++) {
      const src = ptr + r * stride;
      const o = filled * width * ch;
      if (ch === 1) for (let x = 0; x < width; x++) b[o + x] = LUMA[heap[src + x]!]!;
      else
        for (let x = 0; x < width; x++) {
          const l = LUMA[heap[src + x]!]!;
          const i = o + x * 4;
          b[i] = l;
          b[i + 1] = l;
          b[i + 2] = l;
        }
      if (++filled === STRIP) flush(heap);
    }
  });
  if (filled > 0) flush(new Uint8Array(instance().ex.memory.buffer));
  strips();
  if (y0 !== height) throw new LibwebpError(`VP8 decode gave ${y0} of ${height} rows`);
  return guard.result().score;
}

/** Heap estimate of optimiseWebpBounded for a width x height image (see budget.ts WEBP_BOUNDED). */
export function boundedWebpHeapBytes(width: number, height: number, alpha: boolean, inputBytes: number): number {
  // The picture, the file, and libwebp's encoder state (~1 B/px) beside them.
  return pictureBytes(width, height, alpha) + inputBytes + (4 << 20) + width * height;
}

/**
 * Lossy re-encode of a WebP in bounded memory with the perceptual guard (one raise of GUARD_STEP, as
 * guard/policy.ts): original picture + candidate picture + the file being decoded, plus libwebp's encoder state.
 */
function resizedPicture(full: WebpPicture, to: { width: number; height: number }): WebpPicture {
  const small = new WebpPicture(to.width, to.height, full.alpha);
  try {
    const STRIP = 16;
    const rows = new Uint8Array(STRIP * full.width * 4);
    const rs = new RowResizer(
      full.width,
      full.height,
      to.width,
      to.height,
      (out, n, y) => small.setRgbRows(y, out, n, 4),
      STRIP,
      4,
    );
    for (let y0 = 0; y0 < full.height; y0 += STRIP) {
      const n = Math.min(STRIP, full.height - y0);
      full.getRgbaRows(y0, n, rows);
      rs.push(rows, n);
    }
    rs.finish();
    return small;
  } catch (e) {
    small.free();
    throw e;
  }
}

/** The alpha plane alone, written losslessly, is larger than the caller can use (see `alphaMaxBytes`). */
export class AlphaTooLarge extends LibwebpError {
  override name = 'AlphaTooLarge';
  constructor(readonly alphBytes: number) {
    super(`the alpha plane alone compresses to ${alphBytes} bytes`);
  }
}

export function optimiseWebpBounded(
  input: Uint8Array,
  quality: number,
  guard: GuardMode,
  opts: {
    draw?: (pic: WebpPicture) => void;
    /** Resize on request: the picture is resized (pixels/resize.ts, through RGBA rows) before anything else. */
    resize?: { width: number; height: number } | null;
    /**
     * Real transparency: the largest ALPH payload worth writing (known after the first pass, before any
     * output is held); above it AlphaTooLarge is thrown. Default: the input's size (never larger).
     */
    alphaMaxBytes?: number;
    /** Receives how the alpha plane was written (tests, bench). */
    onAlpha?: (stats: AlphEncodeStats & { bytes: number }) => void;
  } = {},
): GuardedOutput & { width: number; height: number } {
  const f0 = readWebpFeatures(input);
  if (f0.animated) throw new LibwebpError('animated WebP');
  // A lossless original is decoded in JS (vp8l-dec.ts): no copy of it in the heap.
  reserve(boundedWebpHeapBytes(f0.width, f0.height, f0.hasAlpha, f0.lossless ? 0 : input.length));
  let orig = new WebpPicture(f0.width, f0.height, f0.hasAlpha);
  try {
    orig.decodeBounded(input);
    if (opts.resize) {
      // The full-size picture is read in strips, resized, written into a picture of the new size, and
      // freed before the encoder runs (its heap is then reused).
      const full = orig;
      orig = resizedPicture(full, opts.resize);
      full.free();
    }
    const f = { ...f0, width: orig.width, height: orig.height };
    // A watermark is drawn into the picture: the guard then compares against the watermarked source.
    opts.draw?.(orig);
    // Real transparency: libwebp writes the colour only, the alpha plane is ours (webp/alph.ts: two passes
    // over the plane in place, ~1.3 MiB besides the output), written once for every quality tried. An
    // all-opaque alpha plane is dropped by libwebp itself.
    let alph: Uint8Array | null = null;
    if (f.hasAlpha && hasTransparency(orig)) {
      const { a, aStride } = orig.planes();
      const state = hold(alphEncoderBytes(f.width));
      const out = encodeAlph(
        { data: a!, stride: aStride, width: f.width, height: f.height },
        { maxBytes: opts.alphaMaxBytes ?? input.length },
      );
      state();
      if (!out.bytes) throw new AlphaTooLarge(out.size);
      alph = out.bytes;
      hold(alph.length);
      opts.onAlpha?.({ ...out.stats, bytes: out.size });
    }
    // The output in JS (ledger.ts): the colour file, and with alpha the assembled one, until the next try.
    let held = () => {};
    const encode = (q: number): { file: Uint8Array; vp8: Uint8Array } => {
      const colour = orig.encode(q, { colourOnly: Boolean(alph) });
      const file = alph ? assembleWithAlpha(vp8Payload(colour), alph, f.width, f.height) : colour;
      const release = hold(colour.length + (alph ? file.length : 0));
      held();
      held = release;
      return { file, vp8: vp8Payload(colour) };
    };
    let q = quality;
    let out = encode(q);
    if (guard === 'off') return { bytes: out.file, qualityUsed: q, score: null, raised: false, width: f.width, height: f.height };
    let s = compare(orig, out.vp8);
    const ceiling = Math.min(GUARD_MAX_QUALITY, quality + GUARD_MAX_RAISE);
    while (guard === 'on' && s < GUARD_SSIM_FLOOR && q < ceiling) {
      q = Math.min(ceiling, q + GUARD_STEP);
      out = encode(q);
      s = compare(orig, out.vp8);
    }
    return { bytes: out.file, qualityUsed: q, score: s, raised: q !== quality, width: f.width, height: f.height };
  } finally {
    orig.free();
  }
}
