// JPEG pixels row by row for the callers outside the JPEG pipeline: watermark logos (decode, DCT-scaled),
// the PNG -> JPG path of large PNGs (encode from rows, and read the result back for the guard). A thin
// RGBA face on the streaming MozJPEG build (jpeg/mozjpeg.ts): rows are copied out of the wasm heap at once,
// because its views detach whenever the codec's memory grows.
import { encoderCoefBytes, JpegDecoder, JpegEncoder, reserveMozjpegHeap, STRIP_ROWS } from './mozjpeg';

/** Pulls decoded rows as straight RGBA (opaque), top to bottom. */
export type JpegRowReader = { width: number; height: number; read(rows: number): Uint8Array; close(): void };

export function openJpegRows(bytes: Uint8Array, scaleDenom: 1 | 2 | 4 | 8 = 1): JpegRowReader {
  const dec = new JpegDecoder(bytes, { scaleDenom });
  const w = dec.width;
  let out = new Uint8Array(0);
  return {
    width: w,
    height: dec.height,
    read(rows) {
      if (out.length < rows * w * 4) out = new Uint8Array(rows * w * 4);
      let done = 0;
      while (done < rows) {
        const n = dec.read(rows - done);
        if (n <= 0) throw new RangeError(`JPEG ended after ${done} of ${rows} requested rows`);
        rgbToRgba(dec.rows(n), out, done * w, n * w);
        done += n;
      }
      return out.subarray(0, rows * w * 4);
    },
    close() {
      dec.close();
    },
  };
}

export async function forEachJpegRgbaStrip(
  bytes: Uint8Array,
  onStrip: (rgba: Uint8Array, y: number, rows: number) => void | Promise<void>,
  scaleDenom: 1 | 2 | 4 | 8 = 1,
): Promise<{ width: number; height: number }> {
  const r = openJpegRows(bytes, scaleDenom);
  try {
    for (let y = 0; y < r.height; y += STRIP_ROWS) {
      const n = Math.min(STRIP_ROWS, r.height - y);
      await onStrip(r.read(n), y, n);
    }
    return { width: r.width, height: r.height };
  } finally {
    r.close();
  }
}

function rgbToRgba(rgb: Uint8Array, out: Uint8Array, firstPixel: number, pixels: number): void {
  for (let p = 0, i = 0, o = firstPixel * 4; p < pixels; p++, i += 3, o += 4) {
    out[o] = rgb[i]!;
    out[o + 1] = rgb[i + 1]!;
    out[o + 2] = rgb[i + 2]!;
    out[o + 3] = 255;
  }
}

/** Takes straight RGBA rows (already opaque) top to bottom; `finish` returns the JPEG file. */
export type JpegRowWriter = { write(rgba: Uint8Array, rows: number): void; finish(): Uint8Array };

/**
 * Heap the encoder needs: progressive/optimised output keeps every coefficient (x2 with trellis),
 * plus its output and buffers.
 */
export function jpegWriterBytes(width: number, height: number, trellis: boolean): number {
  return encoderCoefBytes(width, height, false, trellis) + (4 << 20);
}

export function createJpegRowWriter(o: { width: number; height: number; quality: number; trellis?: boolean }): JpegRowWriter {
  const trellis = o.trellis !== false;
  reserveMozjpegHeap(jpegWriterBytes(o.width, o.height, trellis));
  // As the JPEG path: no scan search (no gain with trellis, +35-45 % CPU, ~9x the output in trial
  // buffers); where full trellis does not fit, trellis per block row (same 3 B/px as none, 13-29 % smaller).
  const enc = new JpegEncoder({
    width: o.width,
    height: o.height,
    quality: o.quality,
    trellis,
    rowTrellis: !trellis,
    optimizeScans: false,
  });
  let rgb = new Uint8Array(0);
  return {
    write(rgba, rows) {
      const px = rows * o.width;
      if (rgb.length < px * 3) rgb = new Uint8Array(px * 3);
      for (let p = 0, i = 0, j = 0; p < px; p++, i += 4, j += 3) {
        rgb[j] = rgba[i]!;
        rgb[j + 1] = rgba[i + 1]!;
        rgb[j + 2] = rgba[i + 2]!;
      }
      enc.write(rgb.subarray(0, px * 3), rows);
    },
    finish() {
      return enc.finish();
    },
  };
}
