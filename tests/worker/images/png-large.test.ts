import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { decodeJpeg } from '../../../worker/images/jsquash';
import { forEachRgbaStrip, readPngInfo } from '../../../worker/images/png/stream';
import { createPngWriter, pngChunk } from '../../../worker/images/png/writer';
import { GUARD_SSIM_FLOOR } from '../../../worker/images/guard/perceptual';
import { lossless, lossy, optimised } from './helpers';

// 9 MP PNGs made at test time (nothing big is committed), written row by row like the engine reads them.
const SIDE = 3000;

type Fill = (x: number, y: number, out: Uint8Array, o: number) => void;

/** A flat graphic: four colour fields with +-1 noise (> 256 colours, yet a palette loses nothing visible). */
const graphic: Fill = (x, y, out, o) => {
  const n = ((x * 7 + y * 13) % 3) - 1;
  const [r, g, b] = x < 1500 ? (y < 1500 ? [200, 40, 40] : [30, 30, 160]) : y < 1000 ? [250, 250, 245] : [20, 140, 60];
  out[o] = r + n;
  out[o + 1] = g + n;
  out[o + 2] = b - n;
  out[o + 3] = 255;
};
/** Photo-like: smooth light with sensor-like noise, which neither a palette nor deflate can hold well. */
const photo: Fill = (x, y, out, o) => {
  const t = ((Math.imul(x * 7919 + y, 0x9e3779b1) >>> 28) & 3) - 1;
  out[o] = 40 + (x >> 4) + t;
  out[o + 1] = 30 + (y >> 4) - t;
  out[o + 2] = 60 + ((x + y) >> 5) + t;
  out[o + 3] = 255;
};

async function makePng(fill: Fill): Promise<Uint8Array> {
  // RGBA with filters chosen per row; a few text chunks a lossless pass should drop.
  const w = createPngWriter({ width: SIDE, height: SIDE, bitDepth: 8, colourType: 6 });
  const row = new Uint8Array(SIDE * 4);
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++) fill(x, y, row, x * 4);
    await w.writeRow(row);
  }
  return w.finish();
}

/** Checks every decoded pixel of `png` against `fill` (row by row) and returns the largest difference. */
async function maxDiff(png: Uint8Array, fill: Fill): Promise<number> {
  const info = readPngInfo(png);
  const expected = new Uint8Array(SIDE * 4);
  let worst = 0;
  await forEachRgbaStrip(info, 64, (rgba, y, rows) => {
    for (let r = 0; r < rows; r++) {
      for (let x = 0; x < SIDE; x++) fill(x, y + r, expected, x * 4);
      for (let i = 0; i < SIDE * 4; i++) worst = Math.max(worst, Math.abs(rgba[r * SIDE * 4 + i]! - expected[i]!));
    }
  });
  return worst;
}

describe('9 MP PNGs run in the isolate row by row', () => {
  it('lossless: smaller and pixel-identical (RGBA reduced to RGB)', async () => {
    const input = await makePng(photo);
    const r = optimised(await optimiseImage(input, lossless()));
    expect(r).toMatchObject({ path: 'wasm-rows', format: 'png', width: SIDE, height: SIDE });
    expect(r.bytesOut).toBeLessThan(r.bytesIn);
    expect(readPngInfo(r.bytes).colourType).toBe(2);
    expect(await maxDiff(r.bytes, photo)).toBe(0);
  }, 60_000);

  it('lossy: a graphic gets a palette the guard accepts; PNG to JPG converts a photo under the guard', async () => {
    const g = optimised(await optimiseImage(await makePng(graphic), lossy(75)));
    expect(g).toMatchObject({ path: 'wasm-rows', format: 'png' });
    expect(readPngInfo(g.bytes).colourType).toBe(3);
    expect(g.bytesOut).toBeLessThan(g.bytesIn * 0.6);
    expect(await maxDiff(g.bytes, graphic)).toBeLessThanOrEqual(6);

    const input = await makePng(photo);
    const j = optimised(await optimiseImage(input, lossy(75, { pngToJpg: true })));
    expect(j).toMatchObject({ path: 'wasm-rows', format: 'jpeg', convertedToJpg: true, width: SIDE, height: SIDE });
    expect(j.bytesOut).toBeLessThan(j.bytesIn / 3);
    expect(j.ssim).toBeGreaterThanOrEqual(GUARD_SSIM_FLOOR);
    const back = await decodeJpeg(j.bytes);
    expect([back.width, back.height]).toEqual([SIDE, SIDE]);
  }, 60_000);
});

describe('the row-wise path gives what the whole-image path gives (small images forced onto it)', () => {
  // A budget too small for the whole-image codecs sends small PNGs down the row-wise path.
  const rowsOnly = { budgetBytes: 40 << 20 };

  it('watermarks strip by strip exactly as the whole image is watermarked (lossless PNG)', async () => {
    const { makeImage, pngOf } = await import('./helpers');
    // 300 x 2400: several strips, the logo near the bottom crosses a strip boundary.
    const canvas = pngOf(makeImage(300, 2400, (x, y) => [255 - (y % 7), 250, 240 + (x % 9), 255]));
    const logo = pngOf(makeImage(40, 30, (x) => (x < 20 ? [200, 0, 0, 255] : [0, 0, 200, 120])));
    for (const position of ['b_r', 'c'] as const) {
      const s = lossless({ watermark: { bytes: logo, position, heightFraction: 0.3, opacity: 0.7 } });
      const rows = optimised(await optimiseImage(canvas, s, rowsOnly));
      const whole = optimised(await optimiseImage(canvas, s));
      expect([rows.path, whole.path]).toEqual(['wasm-rows', 'wasm']);
      const { decodePng } = await import('../../../worker/images/jsquash');
      const a = decodePng(rows.bytes);
      const b = decodePng(whole.bytes);
      let diff = 0;
      for (let i = 0; i < a.data.length; i++) diff = Math.max(diff, Math.abs(a.data[i]! - b.data[i]!));
      expect(diff).toBe(0);
    }
  });

  it('keeps 16 bits in lossless mode', async () => {
    const { decodePng16 } = await import('../../../worker/images/jsquash');
    // 1200 x 1200 RGB, 16 bits per sample (a smooth gradient whose low bytes matter).
    const w = createPngWriter({ width: 1200, height: 1200, bitDepth: 16, colourType: 2 });
    const row = new Uint8Array(1200 * 6);
    for (let y = 0; y < 1200; y++) {
      const dv = new DataView(row.buffer);
      for (let x = 0; x < 1200; x++) {
        dv.setUint16(x * 6, x * 50 + y);
        dv.setUint16(x * 6 + 2, y * 50);
        dv.setUint16(x * 6 + 4, (x * y) & 0xffff);
      }
      await w.writeRow(row);
    }
    // A tEXt chunk the lossless pass removes, so the result is smaller.
    const plain = await w.finish();
    const text = pngChunk('tEXt', new TextEncoder().encode(`Comment\0${'x'.repeat(2000)}`));
    const input = new Uint8Array(plain.length + text.length);
    input.set(plain.subarray(0, 33));
    input.set(text, 33);
    input.set(plain.subarray(33), 33 + text.length);
    const r = optimised(await optimiseImage(input, lossless(), { budgetBytes: 45 << 20 }));
    expect(r.path).toBe('wasm-rows');
    expect(readPngInfo(r.bytes).bitDepth).toBe(16);
    const a = decodePng16(r.bytes).data;
    const b = decodePng16(input).data;
    let same = a.length === b.length;
    for (let i = 0; same && i < a.length; i++) same = a[i] === b[i];
    expect(same).toBe(true);
    expect(r.bytesOut).toBeLessThan(r.bytesIn);
  }, 30_000);
});
