import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { decodePng, wasmHeapBytes } from '../../../worker/images/jsquash';
import { JpegEncoder } from '../../../worker/images/jpeg/mozjpeg';
import { createPngWriter } from '../../../worker/images/png/writer';
import { decodeLogo, LOGO_MAX_PIXELS, LOGO_MAX_SIDE, placeWatermark } from '../../../worker/images/pixels/watermark';
import { lossless, makeImage, optimised, pixel, pngOf } from './helpers';

/** A 5000 x 5000 two-colour logo (left half red, right half blue) as a 1-bit palette PNG of a few KB. */
async function hugeLogo(): Promise<Uint8Array> {
  const w = createPngWriter({
    width: 5000,
    height: 5000,
    bitDepth: 1,
    colourType: 3,
    palette: new Uint8Array([255, 0, 0, 0, 0, 255]),
  });
  const row = new Uint8Array(Math.ceil(5000 / 8));
  for (let x = 2500; x < 5000; x++) row[x >> 3] = row[x >> 3]! | (0x80 >> (x & 7));
  for (let y = 0; y < 5000; y++) await w.writeRow(row);
  return w.finish();
}

describe('oversized watermark picture', () => {
  it('a 5000 x 5000 logo of a few KB is decoded row by row to at most the logo limit, once', async () => {
    const bytes = await hugeLogo();
    expect(bytes.length).toBeLessThan(100_000);
    const heapBefore = wasmHeapBytes();
    const logo = await decodeLogo(bytes);
    expect([logo.width, logo.height]).toEqual([5000, 5000]); // the declared size drives placement
    expect(logo.pixels.width * logo.pixels.height).toBeLessThanOrEqual(LOGO_MAX_PIXELS);
    expect(Math.max(logo.pixels.width, logo.pixels.height)).toBeLessThanOrEqual(LOGO_MAX_SIDE);
    // 25 M pixels (100 MB as RGBA) never existed: no codec heap grew to hold them.
    expect(wasmHeapBytes() - heapBefore).toBeLessThan(4 << 20);
    // Box-averaged, not sampled: left is red, right is blue.
    expect(pixel(logo.pixels, 10, 10)).toEqual([255, 0, 0, 255]);
    expect(pixel(logo.pixels, logo.pixels.width - 10, 10)).toEqual([0, 0, 255, 255]);
    // Decoded once per job: the same bytes (read again from R2 for the next image) hit the cache.
    expect(await decodeLogo(bytes.slice())).toBe(logo);
  });

  it('is drawn at the placement of its declared size', async () => {
    const canvas = pngOf(makeImage(300, 200, () => [255, 255, 255, 255]));
    const r = optimised(
      await optimiseImage(
        canvas,
        lossless({ watermark: { bytes: await hugeLogo(), position: 'b_r', heightFraction: 0.5, opacity: 1 } }),
      ),
    );
    const out = decodePng(r.bytes);
    const at = placeWatermark(300, 200, 5000, 5000, 'b_r', 0.5);
    expect(at.width).toBe(100);
    expect(pixel(out, at.x + 10, at.y + 50)).toEqual([255, 0, 0, 255]);
    expect(pixel(out, at.x + at.width - 10, at.y + 50)).toEqual([0, 0, 255, 255]);
    expect(pixel(out, at.x - 3, at.y + 50)).toEqual([255, 255, 255, 255]);
  });

  it('a large JPEG logo is DCT-scaled while decoding, then box-averaged', async () => {
    const side = 4000;
    const enc = new JpegEncoder({ width: side, height: side, quality: 50, trellis: false });
    const row = new Uint8Array(side * 3 * 16);
    for (let x = 0; x < side * 16; x++) row.set(x % side < side / 2 ? [250, 10, 10] : [10, 10, 250], x * 3);
    for (let y = 0; y < side; y += 16) enc.write(row, 16);
    const bytes = enc.finish();
    expect(bytes.length).toBeLessThan(512000);
    const logo = await decodeLogo(bytes);
    expect([logo.width, logo.height]).toEqual([side, side]);
    expect(logo.pixels.width * logo.pixels.height).toBeLessThanOrEqual(LOGO_MAX_PIXELS);
    const left = pixel(logo.pixels, 20, 20);
    expect(left[0]).toBeGreaterThan(230);
    expect(left[2]).toBeLessThan(30);
    expect(pixel(logo.pixels, logo.pixels.width - 20, 20)[2]).toBeGreaterThan(230);
  }, 60_000); // encodes a 16 MP JPEG first: seconds on a loaded 2-CPU machine
});
