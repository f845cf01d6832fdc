// Resize on request for PNG and WebP originals (issue 24, item 4): the same streaming gamma-aware
// Lanczos-3 filter as JPEG, with straight alpha filtered premultiplied (a transparent pixel lends no
// colour); the whole-image paths (small PNG / WebP) and the row-wise PNG path (every pass reads the
// original resized); the logo is placed on the resized image; the result has the new size.
import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { encodeWebp } from '../../../worker/images/jsquash';
import { resizeRgbaImage, RowResizer } from '../../../worker/images/pixels/resize';
import { decodeAny, lossless, lossy, makeImage, optimised, pixel, pngOf } from './helpers';

const photoLike = (x: number, y: number): [number, number, number, number] => {
  const t = ((Math.imul(x * 7919 + y, 0x9e3779b1) >>> 28) & 3) - 1;
  return [40 + ((x >> 4) & 127) + t, 30 + ((y >> 4) & 127) - t, 60 + (((x + y) >> 5) & 127) + t, 255];
};

describe('RGBA resize', () => {
  it('transparent pixels lend no colour; flat colour and alpha stay exact', () => {
    // Left half fully transparent red, right half opaque blue.
    const img = makeImage(400, 40, (x) => (x < 200 ? [255, 0, 0, 0] : [0, 0, 255, 255]));
    const out = resizeRgbaImage(img, { width: 100, height: 10 });
    for (let x = 0; x < 100; x++) {
      const [r, g, b, a] = pixel(out, x, 5);
      if (a! > 0) {
        expect(r).toBe(0); // no red bleeds into the visible edge
        expect(g).toBe(0);
        expect(b).toBe(255);
      }
    }
    expect(pixel(out, 10, 5)[3]).toBe(0);
    expect(pixel(out, 90, 5)).toEqual([0, 0, 255, 255]);
    const half = resizeRgbaImage(
      makeImage(300, 300, () => [120, 200, 40, 128]),
      { width: 97, height: 97 },
    );
    expect(pixel(half, 50, 50)).toEqual([120, 200, 40, 128]);
  });

  it('RGBA rows stream like RGB: strips in, strips out, every output row once', () => {
    const rows: number[] = [];
    const rs = new RowResizer(300, 200, 150, 100, (_r, n, y) => rows.push(y, n), 16, 4);
    const strip = new Uint8Array(300 * 7 * 4).fill(200);
    for (let y = 0; y < 200; y += 7) rs.push(strip, Math.min(7, 200 - y));
    rs.finish();
    let next = 0;
    for (let i = 0; i < rows.length; i += 2) {
      expect(rows[i]).toBe(next);
      next += rows[i + 1]!;
    }
    expect(next).toBe(100);
  });
});

describe('PNG and WebP originals are resized on request', () => {
  it('small PNG (whole image): the long side at the limit, lossy and lossless', { timeout: 120_000 }, async () => {
    const input = pngOf(makeImage(2600, 300, photoLike));
    for (const s of [lossy(75, { resizeLongSide: 2048 }), lossless({ resizeLongSide: 2048 })]) {
      const r = optimised(await optimiseImage(input, s));
      expect(r).toMatchObject({ format: 'png', width: 2048, height: 236, path: 'wasm', widthIn: 2600, heightIn: 300 });
      const d = await decodeAny(r.bytes, 'png');
      expect([d.width, d.height]).toEqual([2048, 236]);
    }
  });

  it(
    'large PNG (row by row): resized in every pass; PNG to JPG at the new size; the logo on the resized image',
    { timeout: 120_000 },
    async () => {
      const input = pngOf(makeImage(2600, 400, photoLike));
      const rows = { budgetBytes: 45 * 2 ** 20 }; // above the whole-image budget: the row-wise path
      const png = optimised(await optimiseImage(input, lossless({ resizeLongSide: 2048 }), rows));
      expect(png).toMatchObject({ format: 'png', width: 2048, height: 315, path: 'wasm-rows' });
      const d = await decodeAny(png.bytes, 'png');
      expect([d.width, d.height]).toEqual([2048, 315]);
      // The same pixels as the whole-image path (one filter), within rounding.
      const whole = optimised(await optimiseImage(input, lossless({ resizeLongSide: 2048 })));
      const w = await decodeAny(whole.bytes, 'png');
      let worst = 0;
      for (let i = 0; i < d.data.length; i++) worst = Math.max(worst, Math.abs(d.data[i]! - w.data[i]!));
      expect(worst).toBeLessThanOrEqual(1);

      const jpg = optimised(await optimiseImage(input, lossy(75, { resizeLongSide: 2048, pngToJpg: true }), rows));
      expect(jpg).toMatchObject({ format: 'jpeg', convertedToJpg: true, width: 2048, height: 315 });

      const logo = pngOf(makeImage(100, 100, () => [255, 0, 0, 255]));
      const wm = optimised(
        await optimiseImage(
          input,
          lossless({ resizeLongSide: 2048, watermark: { bytes: logo, position: 'b_r', heightFraction: 0.1, opacity: 1 } }),
          rows,
        ),
      );
      expect(wm).toMatchObject({ format: 'png', width: 2048, height: 315, watermarked: true });
      const m = await decodeAny(wm.bytes, 'png');
      // 10 % of the resized height (31 px), bottom right inside a 9 px margin: solid red at its centre.
      expect(pixel(m, 2023, 290)).toEqual([255, 0, 0, 255]);
    },
  );

  it('WebP (whole image): lossy and lossless originals at the limit', { timeout: 120_000 }, async () => {
    const img = makeImage(2600, 900, photoLike);
    const lossyWebp = await encodeWebp(img, { quality: 90, lossless: false });
    const r = optimised(await optimiseImage(lossyWebp, lossy(75, { resizeLongSide: 2048 })));
    expect(r).toMatchObject({ format: 'webp', width: 2048, height: 709 });
    const d = await decodeAny(r.bytes, 'webp');
    expect([d.width, d.height]).toEqual([2048, 709]);
    // Lossless mode, lossy original: resized and encoded at the Low level (as JPEG).
    const l = optimised(await optimiseImage(lossyWebp, lossless({ resizeLongSide: 2048 })));
    expect(l).toMatchObject({ format: 'webp', width: 2048, height: 709 });
  });

  it(
    'large WebP (bounded libwebp path): the picture is resized before encoding, with its transparency',
    { timeout: 120_000 },
    async () => {
      // Transparent left margin: the alpha plane is real, and it is resized with the colours.
      const img = makeImage(2600, 800, (x, y) => (x < 100 ? [255, 0, 0, 0] : photoLike(x, y)));
      const input = await encodeWebp(img, { quality: 90, lossless: false });
      const r = optimised(await optimiseImage(input, lossy(75, { resizeLongSide: 2048 }), { budgetBytes: 45 * 2 ** 20 }));
      expect(r).toMatchObject({ format: 'webp', width: 2048, height: 630, path: 'wasm-rows' });
      const d = await decodeAny(r.bytes, 'webp');
      expect([d.width, d.height]).toEqual([2048, 630]);
      expect(pixel(d, 20, 300)[3]).toBe(0);
      expect(pixel(d, 1000, 300)[3]).toBe(255);
    },
  );
});
