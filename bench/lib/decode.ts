// Node-side decoding for the ssim.js fallback score: the same jSquash decoders, WASM read from disk.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import jpegDecode, { init as jpegInit } from '@jsquash/jpeg/decode.js';
import { decode as pngDecode, init as pngInit } from '@jsquash/png/decode.js';
import pngEncode from '@jsquash/png/encode.js';
import webpDecode, { init as webpInit } from '@jsquash/webp/decode.js';

const require = createRequire(import.meta.url);
const wasm = (spec: string) => new WebAssembly.Module(readFileSync(require.resolve(spec)));
let ready: Promise<unknown> | undefined;

function init() {
  ready ??= Promise.all([
    jpegInit(wasm('@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm') as never),
    pngInit(wasm('@jsquash/png/codec/pkg/squoosh_png_bg.wasm')),
    webpInit(wasm('@jsquash/webp/codec/dec/webp_dec.wasm') as never),
  ]);
  return ready;
}

export type Pixels = { data: Uint8ClampedArray; width: number; height: number };

export async function decodeAny(bytes: Uint8Array, format: string): Promise<Pixels> {
  await init();
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  if (format === 'jpeg') return jpegDecode(buf);
  if (format === 'png') return pngDecode(buf);
  return webpDecode(buf);
}

export async function encodePng(p: Pixels): Promise<Uint8Array> {
  await init();
  return new Uint8Array(await pngEncode(p as ImageData));
}
