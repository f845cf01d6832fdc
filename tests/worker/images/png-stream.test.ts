import { describe, expect, it } from 'vitest';
import { decodePng } from '../../../worker/images/jsquash';
import { forEachRawRow, forEachRgbaStrip, readPngInfo } from '../../../worker/images/png/stream';
import { createPngWriter } from '../../../worker/images/png/writer';
import type { Rgba } from '../../../worker/images/types';
import { fixture } from './fixtures';
import { makeImage, maxChannelDiff, pngOf } from './helpers';

async function streamDecode(png: Uint8Array, stripRows = 7, bandBytes?: number): Promise<Rgba> {
  const info = readPngInfo(png);
  const data = new Uint8ClampedArray(info.width * info.height * 4);
  if (bandBytes) {
    // Interlaced band sweeps: collect through the raw-row API with a tiny band to force several sweeps.
    const { rawToRgba } = await import('../../../worker/images/png/stream');
    await forEachRawRow(info, (raw, y) => rawToRgba(info, raw, data, y * info.width * 4), bandBytes);
  } else {
    await forEachRgbaStrip(info, stripRows, (rgba, y) => {
      data.set(rgba, y * info.width * 4);
    });
  }
  return { data, width: info.width, height: info.height };
}

describe('row-wise PNG decoding', () => {
  for (const name of [
    'chelsea-rgb.png',
    'chelsea-grey.png',
    'chelsea-palette.png',
    'horse-alpha.png',
    'logo-alpha.png',
    'ria-alpha.png',
    'gradient-interlaced.png',
    'palette4-interlaced.png',
  ]) {
    it(`decodes ${name} to the same pixels as the whole-image decoder`, async () => {
      const png = fixture(name);
      const whole = decodePng(png);
      const rows = await streamDecode(png);
      expect([rows.width, rows.height]).toEqual([whole.width, whole.height]);
      expect(maxChannelDiff(rows, whole)).toBe(0);
    });
  }

  it('decodes 16-bit samples to within one level of the whole-image decoder', async () => {
    const png = fixture('chelsea-16bit.png');
    expect(readPngInfo(png).bitDepth).toBe(16);
    expect(maxChannelDiff(await streamDecode(png), decodePng(png))).toBeLessThanOrEqual(1);
  });

  it('decodes interlaced images in several bands identically', async () => {
    for (const name of ['gradient-interlaced.png', 'palette4-interlaced.png']) {
      const png = fixture(name);
      expect(readPngInfo(png).interlaced).toBe(true);
      expect(maxChannelDiff(await streamDecode(png, 0, 300), decodePng(png))).toBe(0);
    }
  });

  it('reports truncated and corrupt data as decode errors', async () => {
    const png = fixture('chelsea-rgb.png');
    await expect(streamDecode(png.subarray(0, Math.floor(png.length / 2)))).rejects.toThrow(/truncated|corrupt/);
    const bad = png.slice();
    const info = readPngInfo(bad);
    const at = info.idat[0]!.byteOffset + 50;
    for (let i = 0; i < 64; i++) bad[at + i] = 0xff;
    await expect(streamDecode(bad)).rejects.toThrow(/corrupt|filter|truncated/);
  });
});

describe('row-wise PNG encoding', () => {
  it('writes a PNG that decodes to exactly the rows it was given (RGBA, RGB, 2-bit palette)', async () => {
    const img = makeImage(61, 37, (x, y) => [x * 4, y * 6, (x ^ y) & 255, (x * 7) & 255]);
    const w = createPngWriter({ width: 61, height: 37, bitDepth: 8, colourType: 6 });
    for (let y = 0; y < 37; y++) await w.writeRow(new Uint8Array(img.data.buffer, y * 61 * 4, 61 * 4));
    const out = await w.finish();
    expect(maxChannelDiff(decodePng(out), img)).toBe(0);

    const rgb = createPngWriter({ width: 61, height: 37, bitDepth: 8, colourType: 2 });
    for (let y = 0; y < 37; y++) {
      const row = new Uint8Array(61 * 3);
      for (let x = 0; x < 61; x++) for (let c = 0; c < 3; c++) row[x * 3 + c] = img.data[(y * 61 + x) * 4 + c]!;
      await rgb.writeRow(row);
    }
    const opaque = makeImage(61, 37, (x, y) => {
      const i = (y * 61 + x) * 4;
      return [img.data[i]!, img.data[i + 1]!, img.data[i + 2]!, 255];
    });
    expect(maxChannelDiff(decodePng(await rgb.finish()), opaque)).toBe(0);

    const pal = createPngWriter({
      width: 61,
      height: 37,
      bitDepth: 2,
      colourType: 3,
      palette: new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]),
      trns: new Uint8Array([255, 128]),
    });
    for (let y = 0; y < 37; y++) {
      const row = new Uint8Array(Math.ceil(61 / 4));
      for (let x = 0; x < 61; x++) row[x >> 2] = row[x >> 2]! | (((x + y) % 4) << (6 - 2 * (x & 3)));
      await pal.writeRow(row);
    }
    const back = decodePng(await pal.finish());
    expect(Array.from(back.data.subarray(0, 8))).toEqual([255, 0, 0, 255, 0, 255, 0, 128]);
    expect(Array.from(back.data.subarray(12, 16))).toEqual([9, 9, 9, 255]);
  });

  it('round-trips a photo through decode rows -> encode rows losslessly', async () => {
    const png = fixture('chelsea-rgb.png');
    const info = readPngInfo(png);
    const w = createPngWriter({ width: info.width, height: info.height, bitDepth: 8, colourType: info.colourType as 2 });
    await forEachRawRow(info, (raw) => w.writeRow(raw));
    const out = await w.finish();
    expect(maxChannelDiff(decodePng(out), decodePng(png))).toBe(0);
    expect(out.length).toBeLessThan(png.length * 1.2);
  });

  it('a PNG made by the whole-image encoder decodes row-wise', async () => {
    const img = makeImage(33, 20, (x, y) => [x, y, 200, 255]);
    expect(maxChannelDiff(await streamDecode(pngOf(img)), img)).toBe(0);
  });
});
