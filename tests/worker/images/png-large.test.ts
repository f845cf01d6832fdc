import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { decodeJpeg } from '../../../worker/images/codecs';
import { forEachRgbaStrip, readPngInfo } from '../../../worker/images/png-stream';
import { createPngWriter } from '../../../worker/images/png-writer';
import { GUARD_SSIM_FLOOR } from '../../../worker/images/perceptual';
import { lossless, lossy, optimised } from './helpers';

// 9 MP PNGs made at test time (nothing big is committed), written row by row like the engine reads them.
const SIDE = 3000;

type Fill = (x: number, y: number, out: Uint8Array, o: number) => void;

/** A flat graphic: four colour fields with +-1 noise (> 256 colours, yet a palette loses nothing visible). */
const graphic: Fill = (x, y, out, o) => {
  const n = ((x * 7 + y * 13) % 3) - 1;
  const [r, g, b] = x < 1500 ? (y < 1500 ? [200, 40, 40] : [30, 30, 160]) : y < 1000 ? [250, 250, 245] : [20, 140, 60];
  out[o] = r + n; out[o + 1] = g + n; out[o + 2] = b - n; out[o + 3] = 255;
};
/** Photo-like: smooth light with sensor-like noise, which neither a palette nor deflate can hold well. */
const photo: Fill = (x, y, out, o) => {
  const t = ((Math.imul(x * 7919 + y, 0x9e3779b1) >>> 28) & 3) - 1;
  out[o] = 40 + (x >> 4) + t; out[o + 1] = 30 + (y >> 4) - t; out[o + 2] = 60 + ((x + y) >> 5) + t; out[o + 3] = 255;
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
