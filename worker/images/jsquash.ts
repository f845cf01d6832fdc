// WASM codecs, loaded explicitly: workerd cannot fetch .wasm files at runtime, so every module is
// imported (compiled at deploy time) and handed to the codec's glue. Each codec has ONE instance per
// isolate, reused for every image: its memory stays at the high-water mark of the largest image it has
// seen (bounded by the budget in budget.ts) instead of growing. Measured: a fresh instance per call left
// dead WASM heaps that V8 did not collect between requests (117 MB then 236 MB RSS for the same 4 MP
// JPEG at two levels, 734 MB on a 14.7 MP one). An instance that threw is dropped (its state is unknown).
import mozjpegDecFactory from '@jsquash/jpeg/codec/dec/mozjpeg_dec.js';
import mozjpegDecWasm from '@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm';
import mozjpegEncFactory from '@jsquash/jpeg/codec/enc/mozjpeg_enc.js';
import mozjpegEncWasm from '@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm';
import { defaultOptions as mozjpegDefaults } from '@jsquash/jpeg/meta.js';
import webpDecFactory from '@jsquash/webp/codec/dec/webp_dec.js';
import webpDecWasm from '@jsquash/webp/codec/dec/webp_dec.wasm';
import webpEncFactory from '@jsquash/webp/codec/enc/webp_enc.js';
import webpEncWasm from '@jsquash/webp/codec/enc/webp_enc.wasm';
import { defaultOptions as webpDefaults } from '@jsquash/webp/meta.js';
import {
  decode as pngDecodeRaw,
  decode_rgba16 as pngDecode16Raw,
  encode as pngEncodeRaw,
  initSync as pngInit,
} from '@jsquash/png/codec/pkg/squoosh_png.js';
// @ts-expect-error the package's .wasm.d.ts describes the instance exports; the bundler gives the Module.
import pngWasm from '@jsquash/png/codec/pkg/squoosh_png_bg.wasm';
import {
  optimise as oxiOptimise,
  optimise_raw as oxiOptimiseRaw,
  initSync as oxiInit,
} from '@jsquash/oxipng/codec/pkg/squoosh_oxipng.js';
// @ts-expect-error as above: default import is the compiled WebAssembly.Module.
import oxiWasm from '@jsquash/oxipng/codec/pkg/squoosh_oxipng_bg.wasm';
import { ImageDecodeError } from './errors';
import { mozjpegHeapBytes, releaseMozjpeg } from './jpeg/mozjpeg';
import { libwebpHeapBytes, releaseLibwebp } from './webp/libwebp';
import { stripPngMetadata } from './png/chunks';
import type { Rgba } from './types';

type EmscriptenFactory<T> = (opts: Record<string, unknown>) => Promise<T>;

/** Current heap size of each emscripten codec instance (memories only grow). */
const heapBytes = new Map<WebAssembly.Module, number>();

const instances = new Map<WebAssembly.Module, Promise<unknown>>();

function instantiate<T>(factory: EmscriptenFactory<T>, wasm: WebAssembly.Module): Promise<T> {
  let known = instances.get(wasm);
  if (!known) {
    known = create(factory, wasm);
    instances.set(wasm, known);
  }
  return known as Promise<T>;
}

/** Runs one codec call; on failure the instance is discarded so the next call starts clean. */
async function using<T, R>(factory: EmscriptenFactory<T>, wasm: WebAssembly.Module, run: (mod: T) => R): Promise<R> {
  const mod = await instantiate(factory, wasm);
  try {
    const out = run(mod);
    heapBytes.set(wasm, (mod as { HEAP8?: Int8Array }).HEAP8?.buffer.byteLength ?? 0);
    return out;
  } catch (e) {
    instances.delete(wasm);
    heapBytes.delete(wasm);
    throw e;
  }
}

function create<T>(factory: EmscriptenFactory<T>, wasm: WebAssembly.Module): Promise<T> {
  return factory({
    noInitialRun: true,
    instantiateWasm(imports: WebAssembly.Imports, done: (i: WebAssembly.Instance) => void) {
      const instance = new WebAssembly.Instance(wasm, imports);
      done(instance);
      return instance.exports;
    },
  });
}

type MozDec = { decode(data: BufferSource, preserveOrientation: boolean): Rgba | null };
type MozEnc = { encode(data: BufferSource, w: number, h: number, o: typeof mozjpegDefaults): Uint8Array };
type WebpDec = { decode(data: BufferSource): Rgba | null };
type WebpEnc = { encode(data: BufferSource, w: number, h: number, o: typeof webpDefaults): Uint8Array | null };

/** Raw decode: EXIF orientation is NOT applied (the caller keeps or applies it explicitly). */
export async function decodeJpeg(bytes: Uint8Array): Promise<Rgba> {
  let out: Rgba | null;
  try {
    out = await using(mozjpegDecFactory as unknown as EmscriptenFactory<MozDec>, mozjpegDecWasm, (m) => m.decode(bytes, false));
  } catch (e) {
    throw new ImageDecodeError(`JPEG decode failed: ${String(e)}`);
  }
  if (!out || !out.width) throw new ImageDecodeError('JPEG decode failed');
  return { data: out.data, width: out.width, height: out.height };
}

export type JpegEncodeOptions = { quality: number; grayscale?: boolean };

/** MozJPEG: progressive, optimised Huffman tables, trellis quantisation (jSquash defaults). */
export async function encodeJpeg(img: Rgba, opts: JpegEncodeOptions): Promise<Uint8Array> {
  const options = {
    ...mozjpegDefaults,
    quality: opts.quality,
    progressive: true,
    optimize_coding: true,
    color_space: opts.grayscale ? 1 : 3,
  };
  const out = await using(mozjpegEncFactory as unknown as EmscriptenFactory<MozEnc>, mozjpegEncWasm, (m) =>
    m.encode(img.data, img.width, img.height, options),
  );
  return out.slice();
}

export async function decodeWebp(bytes: Uint8Array): Promise<Rgba> {
  let out: Rgba | null;
  try {
    out = await using(webpDecFactory as unknown as EmscriptenFactory<WebpDec>, webpDecWasm, (m) => m.decode(bytes));
  } catch (e) {
    throw new ImageDecodeError(`WebP decode failed: ${String(e)}`);
  }
  if (!out || !out.width) throw new ImageDecodeError('WebP decode failed');
  return { data: out.data, width: out.width, height: out.height };
}

export async function encodeWebp(img: Rgba, opts: { quality: number; lossless: boolean }): Promise<Uint8Array> {
  // exact keeps RGB under fully transparent pixels, so lossless stays pixel-identical.
  const options = {
    ...webpDefaults,
    quality: opts.lossless ? 100 : opts.quality,
    lossless: opts.lossless ? 1 : 0,
    exact: opts.lossless ? 1 : 0,
    method: 4,
  };
  const out = await using(webpEncFactory as unknown as EmscriptenFactory<WebpEnc>, webpEncWasm, (m) =>
    m.encode(img.data, img.width, img.height, options),
  );
  if (!out) throw new Error('WebP encode failed');
  return out.slice();
}

let pngReady = false;
let oxiReady = false;
let pngMemory: WebAssembly.Memory | undefined;
let oxiMemory: WebAssembly.Memory | undefined;
function png() {
  if (!pngReady) {
    pngMemory = pngInit(pngWasm as WebAssembly.Module).memory;
    pngReady = true;
  }
}
function oxi() {
  if (!oxiReady) {
    oxiMemory = oxiInit(oxiWasm as WebAssembly.Module).memory;
    oxiReady = true;
  }
}
/** Above this, emscripten instances are dropped after an image (the PNG/OxiPNG glue cannot be). */
export const RETAINED_HEAP_CAP_BYTES = 64 * 1024 * 1024;

/**
 * Called after each image: when the codecs together hold more than the cap, the MozJPEG and WebP
 * instances are released so V8 can reclaim their heaps; the next image instantiates fresh ones (~ms).
 */
export function trimCodecs(): void {
  releaseMozjpeg(RETAINED_HEAP_CAP_BYTES);
  // The bounded WebP heap is sized per image (up to ~80 MB): never kept for the next job, whose codec
  // could not use it (the compiled module is instantiated again, a fresh 1 MB heap).
  releaseLibwebp(0);
  if (wasmHeapBytes() <= RETAINED_HEAP_CAP_BYTES) return;
  instances.clear();
  heapBytes.clear();
}

/** WebAssembly memory held by all codec instances of this isolate (for the memory report). */
export function wasmHeapBytes(): number {
  let sum = (pngMemory?.buffer.byteLength ?? 0) + (oxiMemory?.buffer.byteLength ?? 0) + mozjpegHeapBytes() + libwebpHeapBytes();
  for (const n of heapBytes.values()) sum += n;
  return sum;
}

/** 8-bit RGBA (16-bit PNGs are reduced; use decodePng16 where every bit matters). */
export function decodePng(bytes: Uint8Array): Rgba {
  png();
  try {
    // The package's .d.ts names DOM's ImageData, which the Worker's types lack: the object is an Rgba.
    const out = (pngDecodeRaw as (data: Uint8Array) => Rgba)(bytes);
    return { data: out.data, width: out.width, height: out.height };
  } catch (e) {
    throw new ImageDecodeError(`PNG decode failed: ${String(e)}`);
  }
}

export function decodePng16(bytes: Uint8Array): { data: Uint16Array; width: number; height: number } {
  png();
  try {
    const out = pngDecode16Raw(bytes);
    // `data` is a view into the PNG module's memory: copy it before anything can grow that memory, then
    // free the Rust-side buffer (this instance lives as long as the isolate).
    const img = { data: out.data.slice(), width: out.width, height: out.height };
    out.free();
    return img;
  } catch (e) {
    throw new ImageDecodeError(`PNG decode failed: ${String(e)}`);
  }
}

export function encodePng(img: Rgba): Uint8Array {
  png();
  return pngEncodeRaw(new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength), img.width, img.height, 8);
}

/** OxiPNG level 2 (the level that fits the CPU budget: ~1 s/MP in WASM on the reference machine). */
export const OXIPNG_LEVEL = 2;

export function oxipngFile(bytes: Uint8Array, level = OXIPNG_LEVEL): Uint8Array {
  oxi();
  try {
    return stripPngMetadata(oxiOptimise(bytes, level, false, false));
  } catch (e) {
    // OxiPNG parses the file itself: a truncated or corrupt PNG surfaces here as `unwrap_throw`.
    throw new ImageDecodeError(`PNG data is corrupt: ${String(e)}`);
  }
}

/** From pixels: OxiPNG picks the smallest colour type itself (palette when <= 256 colours, grey, no alpha). */
export function oxipngPixels(img: Rgba, level = OXIPNG_LEVEL): Uint8Array {
  oxi();
  return oxiOptimiseRaw(img.data, img.width, img.height, level, false, false);
}
