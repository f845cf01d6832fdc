import { describe, expect, it } from 'vitest';
import { GUARD_SSIM_FLOOR, optimiseImage } from '../../../worker/images';
import { decodeJpeg, encodeJpeg } from '../../../worker/images/jsquash';
import { ssimScore } from '../../../worker/images/guard/perceptual';
import { JpegDecoder } from '../../../worker/images/jpeg/mozjpeg';
import type { Rgba } from '../../../worker/images/types';
import { makeImage, optimised } from './helpers';

/** A JPEG's Y plane as grey RGBA: what the JPEG guard compares (the luma of the RGB decode before its rounding). */
function lumaOf(bytes: Uint8Array): Rgba {
  const d = new JpegDecoder(bytes, { luma: true });
  try {
    expect(d.channels).toBe(1);
    const data = new Uint8ClampedArray(d.width * d.height * 4);
    let y = 0;
    for (let n = d.read(); n > 0; n = d.read()) {
      const rows = d.rows(n);
      for (let i = 0; i < rows.length; i++) data.fill(rows[i]!, (y * d.width + i) * 4, (y * d.width + i) * 4 + 3);
      for (let i = 0; i < rows.length; i++) data[(y * d.width + i) * 4 + 3] = 255;
      y += n;
    }
    return { data, width: d.width, height: d.height };
  } finally {
    d.close();
  }
}

// Fine texture (1-2 px detail) is what low JPEG qualities smear first: a worst case for q55.
const texture = makeImage(192, 128, (x, y) => {
  const v = ((x * 37) ^ (y * 91) ^ ((x * y) >> 3)) & 0xff;
  return [v, (v * 3 + x) & 0xff, (255 - v + y) & 0xff, 255];
});

describe('perceptual guard', () => {
  it('raises the quality of an output that falls below the floor', async () => {
    const original = await encodeJpeg(texture, { quality: 98 });
    const source = await decodeJpeg(original);
    const plain = await encodeJpeg(source, { quality: 55 });
    expect(ssimScore(source, await decodeJpeg(plain), false)).toBeLessThan(GUARD_SSIM_FLOOR);

    const unguarded = optimised(
      await optimiseImage(original, {
        mode: 'lossy',
        quality: 55,
        pngToJpg: false,
        pngToJpgSizeControl: true,
        perceptualGuard: false,
      } as never),
    );
    const guarded = optimised(
      await optimiseImage(original, { mode: 'lossy', quality: 55, pngToJpg: false, pngToJpgSizeControl: true }),
    );
    expect(unguarded.qualityUsed).toBe(55);
    expect(guarded.qualityUsed).toBeGreaterThan(55);
    expect(guarded.bytesOut).toBeGreaterThan(unguarded.bytesOut);
    // The score is the guard's own: block SSIM of the Y planes (within 1e-3 of the RGB decodes' luma).
    expect(guarded.ssim).toBeCloseTo(ssimScore(lumaOf(original), lumaOf(guarded.bytes), false), 6);
    expect(guarded.ssim).toBeCloseTo(ssimScore(source, await decodeJpeg(guarded.bytes), false), 3);
    expect(guarded.qualityUsed).toBe(60); // one step of 5, never more
  });

  it('leaves an output above the floor at the requested quality', async () => {
    const smooth = makeImage(192, 128, (x, y) => [x, y * 2, 128, 255]);
    const original = await encodeJpeg(smooth, { quality: 98 });
    const r = optimised(
      await optimiseImage(original, { mode: 'lossy', quality: 75, pngToJpg: false, pngToJpgSizeControl: true }),
    );
    expect(r.qualityUsed).toBe(75);
    expect(r.ssim).toBeGreaterThanOrEqual(GUARD_SSIM_FLOOR);
  });
});
