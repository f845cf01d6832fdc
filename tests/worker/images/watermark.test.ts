import { describe, expect, it } from 'vitest';
import { optimiseImage, type WatermarkPosition } from '../../../worker/images';
import { decodeJpeg, decodePng } from '../../../worker/images/jsquash';
import { placeWatermark } from '../../../worker/images/pixels/watermark';
import { fixture } from './fixtures';
import { lossless, lossy, makeImage, optimised, pixel, pngOf } from './helpers';

// A 200x100 white canvas with a little texture (so OxiPNG has work) and a 20x10 logo: left half opaque
// red, right half 50 % transparent blue.
const canvas = () => pngOf(makeImage(200, 100, (x, y) => [255, 255, 255 - ((x * y) % 3), 255]));
const logo = () => pngOf(makeImage(20, 10, (x) => (x < 10 ? [255, 0, 0, 255] : [0, 0, 255, 128])));

/** Bounding box of pixels that are clearly not white. */
function bbox(img: { data: Uint8ClampedArray; width: number; height: number }) {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const p = pixel(img, x, y);
      if (p[0]! < 200 || p[1]! < 200) {
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
    }
  return { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

describe('watermark', () => {
  const positions: WatermarkPosition[] = ['t_l', 't_c', 't_r', 'c', 'b_l', 'b_c', 'b_r'];
  it.each(positions)('%s: the logo lands where the position says, scaled to the height fraction', async (position) => {
    const r = optimised(
      await optimiseImage(canvas(), lossless({ watermark: { bytes: logo(), position, heightFraction: 0.2, opacity: 1 } })),
    );
    expect(r.watermarked).toBe(true);
    const out = decodePng(r.bytes);
    const box = bbox(out);
    expect(box).toEqual({ ...placeWatermark(200, 100, 20, 10, position, 0.2), width: 40, height: 20 });
    const margin = 4; // 3 % of 100 px is 3, at least 4
    const expectX = { l: margin, c: 80, r: 200 - 40 - margin }[position.endsWith('l') ? 'l' : position.endsWith('r') ? 'r' : 'c'];
    const expectY = position.startsWith('t') ? margin : position.startsWith('b') ? 100 - 20 - margin : 40;
    expect([box.x, box.y]).toEqual([expectX, expectY]);
  });

  it('blends at the given opacity, alpha-correct', async () => {
    const r = optimised(
      await optimiseImage(canvas(), lossless({ watermark: { bytes: logo(), position: 'c', heightFraction: 0.2, opacity: 0.5 } })),
    );
    const out = decodePng(r.bytes);
    // Opaque red at opacity 0.5 over white: (255, 128, 128).
    const red = pixel(out, 90, 50);
    expect(red[0]).toBeGreaterThanOrEqual(254);
    expect(Math.abs(red[1]! - 128)).toBeLessThanOrEqual(1);
    // Blue at alpha 128/255 times opacity 0.5 = 0.251 over white: (191, 191, 255).
    const blue = pixel(out, 110, 50);
    expect(Math.abs(blue[0]! - 191)).toBeLessThanOrEqual(1);
    expect(blue[2]).toBeGreaterThanOrEqual(254);
    // Outside the logo nothing changed.
    expect(pixel(out, 10, 50).slice(0, 2)).toEqual([255, 255]);
  });

  it('watermarks a JPEG on its upright pixels (EXIF orientation applied)', async () => {
    const r = optimised(
      await optimiseImage(
        fixture('rocket-orient6.jpg'),
        lossy(90, { watermark: { bytes: logo(), position: 'b_r', heightFraction: 0.1, opacity: 1 } }),
      ),
    );
    expect([r.width, r.height]).toEqual([160, 240]); // stored 240x160 with orientation 6
    const out = await decodeJpeg(r.bytes);
    const at = placeWatermark(160, 240, 20, 10, 'b_r', 0.1);
    const p = pixel(out, at.x + 4, at.y + at.height / 2);
    expect(p[0]).toBeGreaterThan(200);
    expect(p[1]).toBeLessThan(70);
  });

  it('a watermark may make the file larger: it is still delivered (the merchant asked for it)', async () => {
    const tiny = optimised(await optimiseImage(canvas(), lossless())).bytes;
    const noisyLogo = pngOf(
      makeImage(64, 64, (x, y) => [(x * 73 + y * 151) % 256, (x * y * 31) % 256, (x * 17 + y * 7) % 256, 255]),
    );
    const r = optimised(
      await optimiseImage(tiny, lossless({ watermark: { bytes: noisyLogo, position: 'c', heightFraction: 0.9, opacity: 1 } })),
    );
    expect(r.watermarked).toBe(true);
    expect(r.bytesOut).toBeGreaterThan(r.bytesIn);
  });

  it('never on GIF; a bad logo is a typed error', async () => {
    const gif = new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00;');
    expect(
      await optimiseImage(gif, lossy(75, { watermark: { bytes: logo(), position: 'c', heightFraction: 0.5, opacity: 1 } })),
    ).toMatchObject({ kind: 'unsupported', inputFormat: 'gif' });
    await expect(
      optimiseImage(
        canvas(),
        lossy(75, { watermark: { bytes: new Uint8Array(10), position: 'c', heightFraction: 0.5, opacity: 1 } }),
      ),
    ).rejects.toMatchObject({ name: 'WatermarkError' });
    await expect(
      optimiseImage(
        canvas(),
        lossy(75, { watermark: { bytes: new Uint8Array(512001), position: 'c', heightFraction: 0.5, opacity: 1 } }),
      ),
    ).rejects.toThrow('watermark picture maximum size 500kb');
  });
});
