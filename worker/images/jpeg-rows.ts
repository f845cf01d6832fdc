// JPEG pixels as strips of straight RGBA rows, for the callers outside the JPEG pipeline that need
// JPEG pixels row by row (watermark logos; the guard of PNG -> JPG). Backed by the streaming MozJPEG
// decoder (mozjpeg.ts, issue 16a) when present.
import { decodeJpeg } from './codecs';

export async function forEachJpegRgbaStrip(bytes: Uint8Array, onStrip: (rgba: Uint8Array, y: number, rows: number) => void | Promise<void>): Promise<void> {
  const img = await decodeJpeg(bytes);
  await onStrip(new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength), 0, img.height);
}
