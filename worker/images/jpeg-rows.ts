// JPEG pixels row by row for the callers outside the JPEG pipeline: watermark logos (decode), the PNG
// -> JPG path of large PNGs (encode from rows, and read the result back for the guard). Backed by the
// streaming MozJPEG build (mozjpeg.ts, issue 16a) when present; until then the jSquash whole-image
// codecs stand in behind the same row interface.
import { decodeJpeg, encodeJpeg } from './codecs';

/** Pulls decoded rows as straight RGBA, top to bottom. */
export type JpegRowReader = { width: number; height: number; read(rows: number): Promise<Uint8Array>; close(): void };

export async function openJpegRows(bytes: Uint8Array): Promise<JpegRowReader> {
  const img = await decodeJpeg(bytes);
  let y = 0;
  return {
    width: img.width,
    height: img.height,
    async read(rows) {
      const n = Math.min(rows, img.height - y);
      const out = new Uint8Array(img.data.buffer, img.data.byteOffset + y * img.width * 4, n * img.width * 4);
      y += n;
      return out;
    },
    close() { /* nothing held outside the codec instance */ },
  };
}

export async function forEachJpegRgbaStrip(bytes: Uint8Array, onStrip: (rgba: Uint8Array, y: number, rows: number) => void | Promise<void>, stripRows = 64): Promise<void> {
  const r = await openJpegRows(bytes);
  try {
    for (let y = 0; y < r.height; y += stripRows) {
      const n = Math.min(stripRows, r.height - y);
      await onStrip(await r.read(n), y, n);
    }
  } finally {
    r.close();
  }
}

/** Takes straight RGBA rows (opaque) top to bottom; `finish` returns the JPEG file. */
export type JpegRowWriter = { write(rgba: Uint8Array, rows: number): Promise<void>; finish(): Promise<Uint8Array> };

export async function createJpegRowWriter(o: { width: number; height: number; quality: number }): Promise<JpegRowWriter> {
  const data = new Uint8ClampedArray(o.width * o.height * 4);
  let y = 0;
  return {
    async write(rgba, rows) {
      data.set(rgba.subarray(0, rows * o.width * 4), y * o.width * 4);
      y += rows;
    },
    async finish() {
      if (y !== o.height) throw new RangeError(`JPEG writer: ${y} of ${o.height} rows written`);
      return encodeJpeg({ data, width: o.width, height: o.height }, { quality: o.quality });
    },
  };
}
