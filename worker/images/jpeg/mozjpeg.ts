// MozJPEG 3.2 built from source (worker/images/codecs: `npm run build:codecs`), instantiated here without
// emscripten's JS glue. Streaming: decoders hand out strips of RGB rows, the encoder takes strips of
// RGB rows, input bytes are pulled in 64 KB chunks and output bytes pushed out in 64 KB chunks, so the
// wasm heap holds only libjpeg's working state plus the whole-image DCT coefficient arrays the format
// needs (progressive input; progressive/optimised output): about 3 B/px at 4:2:0.
//
// One instance per isolate, shared by every decoder/encoder (a lockstep guard runs two decoders in the
// same heap). Before each job the heap is grown ONCE to the job's estimate (`reserve`), so no
// geometric-growth slack; malloc grows it exactly if the estimate was short. A libjpeg fatal error
// throws out of the wasm; that instance is then discarded (its stack and heap state are unknown).
import wasmModule from '../codecs/mozjpeg.wasm';

const PAGE = 65536;
/** Rows per strip handed over by decoders and taken by the encoder (a multiple of libjpeg's 8/16). */
export const STRIP_ROWS = 16;

type Exports = {
  memory: WebAssembly.Memory;
  _initialize(): void;
  dec_open(stream: number): number;
  dec_header(h: number): number;
  dec_start(h: number, strip: number, scaleNum: number, scaleDenom: number, luma: number): number;
  dec_rows(h: number): number;
  dec_read(h: number, max: number): number;
  dec_finish(h: number): number;
  dec_close(h: number): void;
  dec_start_buffered(h: number, strip: number, ycc: number): number;
  dec_output_begin(h: number): void;
  dec_output_end(h: number): void;
  dec_luma(h: number, scale: number): number;
  mem_free(p: number): void;
  enc_open(stream: number, width: number, height: number, quality: number, grey: number, strip: number, flags: number): number;
  enc_rows(h: number): number;
  enc_write(h: number, n: number): number;
  enc_finish(h: number): void;
  enc_want_luma(h: number, scale: number): number;
  enc_luma(h: number): number;
  enc_close(h: number): void;
  transcode(inStream: number, outStream: number, progressive: number): number;
  transcode_tile(inStream: number, outStream: number, first: number, rows: number): number;
};

type Input = { kind: 'in'; bytes: Uint8Array; pos: number };
type Output = { kind: 'out'; chunks: Uint8Array[]; length: number; limit: number };

class MozJpegError extends Error {
  override name = 'MozJpegError';
}

/**
 * An output grew past the bytes the job allowed it (`maxOutputBytes`): the codec stopped there, so the
 * JS side never holds more than the budget left for it. The instance is discarded like after any throw.
 */
export class JpegOutputTooLarge extends MozJpegError {
  override name = 'JpegOutputTooLarge';
}

let current: { ex: Exports; streams: Map<number, Input | Output>; nextStream: number; broken: boolean } | null = null;

function instance() {
  if (current && !current.broken) return current;
  if (current) peakHeap = Math.max(peakHeap, current.ex.memory.buffer.byteLength);
  const streams = new Map<number, Input | Output>();
  const state = { ex: null as unknown as Exports, streams, nextStream: 1, broken: false };
  const mem = () => new Uint8Array(state.ex.memory.buffer);
  const cString = (ptr: number) => {
    const m = mem();
    let end = ptr;
    while (m[end] !== 0 && end < m.length) end++;
    return new TextDecoder().decode(m.subarray(ptr, end));
  };
  const wasi = (name: string) => () => {
    throw new MozJpegError(`mozjpeg.wasm called ${name}`);
  };
  const imports = {
    env: {
      js_fill(stream: number, buf: number, cap: number): number {
        const s = streams.get(stream);
        if (!s || s.kind !== 'in') return 0;
        const n = Math.min(cap, s.bytes.length - s.pos);
        if (n <= 0) return 0;
        mem().set(s.bytes.subarray(s.pos, s.pos + n), buf);
        s.pos += n;
        return n;
      },
      js_emit(stream: number, buf: number, len: number): void {
        const s = streams.get(stream);
        if (!s || s.kind !== 'out') return;
        if (s.length + len > s.limit) {
          state.broken = true;
          throw new JpegOutputTooLarge(`output above ${s.limit} bytes`);
        }
        s.chunks.push(mem().slice(buf, buf + len));
        s.length += len;
      },
      js_error(msg: number): never {
        state.broken = true;
        throw new MozJpegError(cString(msg));
      },
      emscripten_notify_memory_growth() {},
    },
    wasi_snapshot_preview1: {
      proc_exit: wasi('proc_exit'),
      fd_close: wasi('fd_close'),
      fd_write: wasi('fd_write'),
      fd_seek: wasi('fd_seek'),
      // getenv("JPEGMEM") in libjpeg's memory manager: an empty environment.
      environ_sizes_get(countPtr: number, sizePtr: number): number {
        const v = new DataView(state.ex.memory.buffer);
        v.setUint32(countPtr, 0, true);
        v.setUint32(sizePtr, 0, true);
        return 0;
      },
      environ_get(): number {
        return 0;
      },
    },
  };
  const inst = new WebAssembly.Instance(wasmModule, imports);
  state.ex = inst.exports as unknown as Exports;
  state.ex._initialize();
  current = state;
  return state;
}

function openInput(bytes: Uint8Array): number {
  const s = instance();
  const id = s.nextStream++;
  s.streams.set(id, { kind: 'in', bytes, pos: 0 });
  return id;
}

function openOutput(limit = Infinity): number {
  const s = instance();
  const id = s.nextStream++;
  s.streams.set(id, { kind: 'out', chunks: [], length: 0, limit });
  return id;
}

function takeOutput(id: number): Uint8Array {
  const s = instance().streams.get(id) as Output;
  instance().streams.delete(id);
  const out = new Uint8Array(s.length);
  let off = 0;
  for (const c of s.chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

/** Runs `fn`; a wasm-side failure marks the instance for replacement and rethrows. */
function guarded<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (current) current.broken = true;
    throw e instanceof MozJpegError ? e : new MozJpegError(String(e));
  }
}

/** Bytes of WebAssembly memory the MozJPEG instance holds (memories only grow). */
export function mozjpegHeapBytes(): number {
  return current && !current.broken ? current.ex.memory.buffer.byteLength : 0;
}

let peakHeap = 0;
/** Largest heap an instance reached since the last reset (instances dropped meanwhile included). */
export function mozjpegPeakHeapBytes(reset = false): number {
  const peak = Math.max(peakHeap, mozjpegHeapBytes());
  if (reset) peakHeap = 0;
  return peak;
}

/**
 * Grows the heap once to at least `bytes` (the job's estimate), so the codec never grows in small steps
 * or with geometric slack. Free malloc space left by earlier jobs counts towards it.
 */
export function reserveMozjpegHeap(bytes: number): void {
  const mem = instance().ex.memory;
  const want = Math.ceil(bytes / PAGE);
  const have = mem.buffer.byteLength / PAGE;
  if (want > have) mem.grow(want - have);
}

/** Drops the instance (and with it its heap) when it holds more than `capBytes`; the next call makes a new one. */
export function releaseMozjpeg(capBytes = 0): void {
  peakHeap = Math.max(peakHeap, mozjpegHeapBytes());
  if (current && current.ex.memory.buffer.byteLength > capBytes) current = null;
}

export type JpegHeader = {
  width: number;
  height: number;
  components: number;
  /** libjpeg J_COLOR_SPACE: 1 grey, 2 RGB, 3 YCbCr, 4 CMYK, 5 YCCK */
  colorSpace: number;
  progressive: boolean;
  adobe: boolean;
  maxH: number;
  maxV: number;
  /** Bytes of the whole-image coefficient arrays of this file (2 B per coefficient). */
  coefBytes: number;
};

export const JCS_YCBCR = 3;
export const JCS_CMYK = 4;
export const JCS_YCCK = 5;

function header(
  ex: Exports,
  infoPtr: number,
): JpegHeader & { outWidth: number; outHeight: number; outChannels: number; warnings: number; truncated: boolean } {
  const i = new Int32Array(ex.memory.buffer, infoPtr, 15);
  return {
    width: i[0]!,
    height: i[1]!,
    components: i[2]!,
    colorSpace: i[3]!,
    progressive: i[4] === 1,
    adobe: i[5] === 1,
    maxH: i[7]!,
    maxV: i[8]!,
    coefBytes: i[9]!,
    warnings: i[10]!,
    truncated: i[11] === 1,
    outWidth: i[12]!,
    outHeight: i[13]!,
    outChannels: i[14]!,
  };
}

/**
 * A streaming decoder to packed RGB rows (grey, YCbCr, RGB, CMYK and YCCK files; Adobe-inverted CMYK
 * handled), or with `luma` to the Y plane alone (one channel; YCbCr and grey files only, others stay RGB:
 * see `channels`). `read()` decodes the next strip; `rows()` is a view into the wasm heap valid until the next
 * call into the codec (read of this or any other decoder/encoder), so take both decoders' strips first,
 * then their views.
 */
export class JpegDecoder {
  readonly header: JpegHeader;
  readonly width: number;
  readonly height: number;
  /** 3 (RGB), or 1 (Y) when `luma` was asked for a YCbCr or grey file. */
  readonly channels: 1 | 3;
  /** The rows are YCbCr (`ycc` asked, YCbCr file). */
  readonly outputYcc: boolean = false;
  private h: number;
  private stream: number;
  private rowsPtr = 0;
  private lastCount = 0;
  private readonly strip: number;

  /** `scaleDenom` (and `scaleNum`, default 1): libjpeg's DCT scaling to scaleNum/scaleDenom (M/8 steps). */
  /**
   * `ycc`: a YCbCr file's rows stay YCbCr (upsampled, no colour conversion; `outputYcc` says whether they
   * did), for an encoder with `yccInput`; other files stay RGB.
   */
  constructor(
    bytes: Uint8Array,
    opts: { strip?: number; scaleDenom?: 1 | 2 | 4 | 8; scaleNum?: number; luma?: boolean; ycc?: boolean } = {},
  ) {
    const { ex } = instance();
    this.stream = openInput(bytes);
    this.h = guarded(() => ex.dec_open(this.stream));
    if (!this.h) throw new MozJpegError('out of memory');
    try {
      const infoPtr = guarded(() => ex.dec_header(this.h));
      this.header = header(ex, infoPtr);
      this.strip = guarded(() =>
        ex.dec_start(
          this.h,
          opts.strip ?? STRIP_ROWS,
          opts.scaleNum ?? 1,
          opts.scaleDenom ?? 1,
          opts.luma ? 1 : opts.ycc ? 2 : 0,
        ),
      );
      const after = header(ex, infoPtr); // the same info array, now with the output size
      this.width = after.outWidth;
      this.height = after.outHeight;
      this.channels = after.outChannels === 1 ? 1 : 3;
      this.outputYcc = Boolean(opts.ycc) && !opts.luma && this.header.colorSpace === JCS_YCBCR;
      this.rowsPtr = ex.dec_rows(this.h);
    } catch (e) {
      this.close();
      throw e;
    }
  }

  /** Decodes up to `max` (default: the strip) rows; returns how many (0 at the end). */
  read(max = this.strip): number {
    const { ex } = instance();
    this.lastCount = guarded(() => ex.dec_read(this.h, Math.min(max, this.strip)));
    return this.lastCount;
  }

  /** The rows of the last read() as a view into the wasm heap (see the class comment). */
  rows(count = this.lastCount): Uint8Array {
    return new Uint8Array(instance().ex.memory.buffer, this.rowsPtr, count * this.width * this.channels);
  }

  /** Reads to the end of the file; returns libjpeg's warning count (corrupt data) and truncation. */
  finish(): { warnings: number; truncated: boolean } {
    const { ex } = instance();
    const h = header(
      ex,
      guarded(() => ex.dec_finish(this.h)),
    );
    return { warnings: h.warnings, truncated: h.truncated };
  }

  close(): void {
    const s = current;
    if (!s || s.broken || !this.h) {
      this.h = 0;
      return;
    }
    s.ex.dec_close(this.h);
    s.streams.delete(this.stream);
    this.h = 0;
  }
}

/**
 * A progressive YCbCr original decoded from its coefficients held in the heap (libjpeg's buffered-image
 * mode): every scan is parsed once, by the constructor; then each `pass()` gives its full-size rows
 * (YCbCr with `ycc`, else RGB) from the arrays, as often as needed, and `luma(scaleNum)` the Y plane a
 * `JpegDecoder(bytes, { scaleNum, scaleDenom: 8, luma: true })` would give. The same pixels as decoding the
 * file or its baseline stand-in. Heap: the file's coefficient arrays (`header.coefBytes`) until close().
 * `open()` answers null for other files (baseline, not YCbCr, Y not at the largest sampling factors).
 */
export class BufferedJpegDecoder {
  private constructor(
    private h: number,
    private readonly stream: number,
    readonly header: JpegHeader,
    readonly width: number,
    readonly height: number,
    readonly outputYcc: boolean,
    private readonly strip: number,
  ) {}

  static open(bytes: Uint8Array, opts: { ycc?: boolean } = {}): BufferedJpegDecoder | null {
    const { ex } = instance();
    const stream = openInput(bytes);
    const h = guarded(() => ex.dec_open(stream));
    if (!h) throw new MozJpegError('out of memory');
    let ok = false;
    try {
      const infoPtr = guarded(() => ex.dec_header(h));
      const head = header(ex, infoPtr);
      const strip = guarded(() => ex.dec_start_buffered(h, STRIP_ROWS, opts.ycc ? 1 : 0));
      if (!strip) return null;
      const after = header(ex, infoPtr);
      if (after.truncated) throw new MozJpegError('JPEG data ends early (truncated file)');
      ok = true;
      return new BufferedJpegDecoder(h, stream, head, after.outWidth, after.outHeight, Boolean(opts.ycc), strip);
    } finally {
      if (!ok && current && !current.broken) {
        ex.dec_close(h);
        current.streams.delete(stream);
      }
    }
  }

  /** One output pass: full-size rows from the arrays, strip by strip (close() ends the pass). */
  pass(): RowStrips {
    const { ex } = instance();
    guarded(() => ex.dec_output_begin(this.h));
    const rowsPtr = ex.dec_rows(this.h);
    let last = 0;
    let y = 0;
    const h = this.h;
    const strip = this.strip;
    return {
      width: this.width,
      height: this.height,
      channels: 3,
      outputYcc: this.outputYcc,
      read(max = strip) {
        last = guarded(() => instance().ex.dec_read(h, Math.min(max, strip)));
        y += last;
        return last;
      },
      rows: (count = last) => new Uint8Array(instance().ex.memory.buffer, rowsPtr, count * this.width * 3),
      finish: () => ({ warnings: 0, truncated: false }),
      close: () => {
        // Once per pass (a caller may close twice); a pass left unfinished is not ended (the next pass
        // cannot start then: the caller stops using this decoder after a throw anyway).
        if (current && !current.broken && this.h && y >= this.height) current.ex.dec_output_end(this.h);
        y = -1;
      },
    };
  }

  /** The Y plane at DCT scale scaleNum/8 (a copy; ceil(width * scaleNum / 8) x ceil(height * scaleNum / 8)). */
  luma(scaleNum: number): { data: Uint8Array; width: number; height: number; scaleNum: number } {
    const { ex } = instance();
    const ptr = guarded(() => ex.dec_luma(this.h, scaleNum));
    if (!ptr) throw new MozJpegError('out of memory for the luma plane');
    const width = Math.ceil((this.width * scaleNum) / 8);
    const height = Math.ceil((this.height * scaleNum) / 8);
    const data = new Uint8Array(ex.memory.buffer, ptr, width * height).slice();
    ex.mem_free(ptr);
    return { data, width, height, scaleNum };
  }

  close(): void {
    const s = current;
    if (s && !s.broken && this.h) {
      s.ex.dec_close(this.h);
      s.streams.delete(this.stream);
    }
    this.h = 0;
  }
}

/** Rows strip by strip: what the lossy path reads its source from (jpeg/tiles.ts RowSource). */
export type RowStrips = {
  readonly width: number;
  readonly height: number;
  /** 3 (RGB rows), or 1 (the Y plane: decoders opened with `luma` on a YCbCr or grey file). */
  readonly channels: 1 | 3;
  /** The rows are YCbCr, not RGB (decoders opened with `ycc` on a YCbCr file). */
  readonly outputYcc?: boolean;
  read(max?: number): number;
  rows(count?: number): Uint8Array;
  finish(): { warnings: number; truncated: boolean };
  close(): void;
};

/** Reads a JPEG's header only. */
export function readJpegHeader(bytes: Uint8Array): JpegHeader {
  const { ex } = instance();
  const stream = openInput(bytes);
  const h = guarded(() => ex.dec_open(stream));
  try {
    return header(
      ex,
      guarded(() => ex.dec_header(h)),
    );
  } finally {
    if (current && !current.broken) {
      ex.dec_close(h);
      current.streams.delete(stream);
    }
  }
}

/**
 * Streaming MozJPEG encoder from packed RGB rows at MozJPEG's defaults (cjpeg: progressive with
 * optimised scans, trellis quantisation, quantisation table 3, 4:2:0), or greyscale. Heap: the
 * whole-image coefficients twice with trellis (quantised + unquantised: 6 B/px at 4:2:0), once with
 * `trellis: false` (3 B/px; a few % larger output): `encoderCoefBytes()`. MozJPEG's scan optimisation
 * trial-encodes every candidate scan into memory (a few times the output size); `optimizeScans: false`
 * uses the standard progressive script instead. `trellis: false, rowTrellis: true`: trellis per block row
 * in the first pass (our patch), 3 B/px, output within 0.1-0.3 % of full trellis (8 MP photos).
 */
export class JpegEncoder {
  readonly width: number;
  readonly height: number;
  private h: number;
  private stream: number;
  private rowsPtr: number;
  private written = 0;

  constructor(opts: {
    width: number;
    height: number;
    quality: number;
    grayscale?: boolean;
    trellis?: boolean;
    optimizeScans?: boolean;
    rowTrellis?: boolean;
    /** Chroma sampling of the output (default 4:2:0, as cjpeg); 4:4:4 and 4:2:2 make test originals. */
    sampling?: '420' | '444' | '422';
    /** The encoder throws JpegOutputTooLarge once its output passes this many bytes. */
    maxOutputBytes?: number;
    /** The rows are YCbCr from a decoder with `ycc` (`outputYcc`), not RGB: no colour conversion. */
    yccInput?: boolean;
  }) {
    const { ex } = instance();
    this.width = opts.width;
    this.height = opts.height;
    this.stream = openOutput(opts.maxOutputBytes);
    this.h = guarded(() =>
      ex.enc_open(
        this.stream,
        opts.width,
        opts.height,
        Math.round(opts.quality),
        opts.grayscale ? 1 : 0,
        STRIP_ROWS,
        (opts.trellis === false ? 0 : 1) |
          (opts.optimizeScans === false ? 0 : 2) |
          (opts.rowTrellis ? 4 : 0) |
          (opts.sampling === '444' ? 8 : opts.sampling === '422' ? 16 : 0) |
          (opts.yccInput ? 32 : 0),
      ),
    );
    if (!this.h) throw new MozJpegError('out of memory');
    this.rowsPtr = ex.enc_rows(this.h);
  }

  /** The encoder's strip buffer (STRIP_ROWS rows): fill it, then call commit(n). View valid until the next codec call. */
  buffer(): Uint8Array {
    return new Uint8Array(instance().ex.memory.buffer, this.rowsPtr, STRIP_ROWS * this.width * 3);
  }

  commit(count: number): void {
    const { ex } = instance();
    // libjpeg accepts no row past the height (jpeg_write_scanlines returns 0 and the glue would spin).
    if (this.written + count > this.height) throw new MozJpegError(`encoder got ${this.written + count} rows of ${this.height}`);
    guarded(() => ex.enc_write(this.h, count));
    this.written += count;
  }

  /** Packed RGB rows (any count, top to bottom). */
  write(rows: Uint8Array, count: number): void {
    const stride = this.width * 3;
    for (let r = 0; r < count; r += STRIP_ROWS) {
      const n = Math.min(STRIP_ROWS, count - r);
      this.buffer().set(rows.subarray(r * stride, (r + n) * stride));
      this.commit(n);
    }
  }

  private lumaScale = 0;
  /** The guard's luma plane of the written file (`wantLuma`), set by finish(). */
  luma: { data: Uint8Array; width: number; height: number; scaleNum: number } | null = null;

  /**
   * Asks finish() for the Y plane a decoder of the written file would output at DCT scale `scaleNum`/8
   * with `luma` (`JpegDecoder(bytes, { scaleNum, scaleDenom: 8, luma: true })`: the same pixels), computed
   * from the encoder's final coefficients instead of parsing the file; ceil(width * scaleNum / 8) x
   * ceil(height * scaleNum / 8) bytes, in the heap until finish() copies them out. False when not available.
   */
  wantLuma(scaleNum: number): boolean {
    const { ex } = instance();
    this.lumaScale = guarded(() => ex.enc_want_luma(this.h, scaleNum)) ? scaleNum : 0;
    return this.lumaScale > 0;
  }

  /** Entropy-codes the file (progressive output is written here) and frees the encoder. */
  finish(): Uint8Array {
    const { ex } = instance();
    if (this.written !== this.height) throw new MozJpegError(`encoder got ${this.written} of ${this.height} rows`);
    guarded(() => ex.enc_finish(this.h));
    const out = takeOutput(this.stream);
    const ptr = this.lumaScale ? ex.enc_luma(this.h) : 0;
    if (ptr) {
      const width = Math.ceil((this.width * this.lumaScale) / 8);
      const height = Math.ceil((this.height * this.lumaScale) / 8);
      const data = new Uint8Array(ex.memory.buffer, ptr, width * height).slice();
      this.luma = { data, width, height, scaleNum: this.lumaScale };
    }
    this.close();
    return out;
  }

  close(): void {
    const s = current;
    if (s && !s.broken && this.h) {
      s.ex.enc_close(this.h);
      s.streams.delete(this.stream);
    }
    this.h = 0;
  }
}

/**
 * Lossless transcode (jpegtran -copy none -optimize -progressive with MozJPEG's scan optimisation):
 * the DCT coefficients are unchanged, so the pixels are identical. No metadata is copied (the caller
 * re-attaches orientation and ICC). `progressive: false` gives a fast baseline copy with standard
 * tables (the lossy path's stand-in for a progressive original); `optimizeScans: false` the standard
 * progressive script (MozJPEG's scan search buffers every trial scan: about 2x the output). Throws on
 * truncated input.
 */
export function transcodeJpeg(
  bytes: Uint8Array,
  opts: { progressive: boolean; optimizeScans?: boolean; maxBytes?: number } = { progressive: true },
): { bytes: Uint8Array; warnings: number } {
  const { ex } = instance();
  const inId = openInput(bytes);
  const outId = openOutput(opts.maxBytes);
  const mode = !opts.progressive ? 0 : opts.optimizeScans === false ? 2 : 1;
  const warnings = guarded(() => ex.transcode(inId, outId, mode));
  instance().streams.delete(inId);
  const out = takeOutput(outId);
  if (warnings >= 1000) throw new MozJpegError('JPEG data ends early (truncated file)');
  return { bytes: out, warnings };
}

/**
 * One tile of a progressive original: the coefficients of iMCU rows [first, first + rows) copied
 * unchanged into a baseline JPEG of that band's height (optimised Huffman tables). The decoder keeps
 * only the band's coefficients plus an 8-byte nonzero mask per block of the whole image (band patch in
 * codecs/build.mjs), so a 4:4:4 progressive original needs a fraction of its 6 B/px. Throws on
 * truncated input.
 */
export function transcodeJpegTile(bytes: Uint8Array, first: number, rows: number, maxBytes = Infinity): Uint8Array {
  const { ex } = instance();
  const inId = openInput(bytes);
  const outId = openOutput(maxBytes);
  const warnings = guarded(() => ex.transcode_tile(inId, outId, first, rows));
  instance().streams.delete(inId);
  const out = takeOutput(outId);
  if (warnings >= 1000) throw new MozJpegError('JPEG data ends early (truncated file)');
  return out;
}

/** Whole-image coefficient bytes of the encoder's output (4:2:0 or grey; x2 with trellis). */
export function encoderCoefBytes(width: number, height: number, grayscale: boolean, trellis: boolean): number {
  const one = grayscale
    ? Math.ceil(width / 8) * Math.ceil(height / 8) * 128
    : Math.ceil(width / 16) * Math.ceil(height / 16) * 6 * 128;
  return trellis ? one * 2 : one;
}

/** Whole-image RGB decode (small images, watermark compositing); memory 3 B/px plus the codec's. */
export function decodeJpegRgb(
  bytes: Uint8Array,
  scaleDenom: 1 | 2 | 4 | 8 = 1,
): { data: Uint8Array; width: number; height: number; header: JpegHeader } {
  const dec = new JpegDecoder(bytes, { scaleDenom });
  try {
    const data = new Uint8Array(dec.width * dec.height * 3);
    let y = 0;
    for (let n = dec.read(); n > 0; n = dec.read()) {
      data.set(dec.rows(n), y * dec.width * 3);
      y += n;
    }
    dec.finish();
    return { data, width: dec.width, height: dec.height, header: dec.header };
  } finally {
    dec.close();
  }
}

export { MozJpegError };
