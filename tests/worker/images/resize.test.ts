// Resize on request (pixels/resize.ts): a streaming gamma-aware Lanczos-3 downscale, and the JPEG path that
// encodes (and guards) at the merchant's long-side limit.
import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { JpegDecoder, JpegEncoder, readJpegHeader } from '../../../worker/images/jpeg/mozjpeg';
import { resizedSize, RowResizer } from '../../../worker/images/pixels/resize';
import { jpegOrientation } from '../../../worker/images/jpeg/markers';
import { fixture } from './fixtures';
import { grainyUpscaleStrips, lossless, lossy, optimised } from './helpers';

function resizeAll(rgb: Uint8Array, w: number, h: number, tw: number, th: number, strip = 7): Uint8Array {
  const out = new Uint8Array(tw * th * 3);
  let rows = 0;
  const rs = new RowResizer(w, h, tw, th, (r, n, y) => {
    expect(y).toBe(rows);
    out.set(r.subarray(0, n * tw * 3), y * tw * 3);
    rows += n;
  });
  for (let y = 0; y < h; y += strip) {
    const n = Math.min(strip, h - y);
    rs.push(rgb.subarray(y * w * 3, (y + n) * w * 3), n);
  }
  rs.finish();
  expect(rows).toBe(th);
  return out;
}

describe('resize', () => {
  it('names the output size only when the long side is above the limit', () => {
    expect(resizedSize(6000, 4000, 2048)).toEqual({ width: 2048, height: 1365 });
    expect(resizedSize(3000, 4500, 2880)).toEqual({ width: 1920, height: 2880 });
    expect(resizedSize(2048, 1000, 2048)).toBeNull();
    expect(resizedSize(5000, 5000, undefined)).toBeNull();
    expect(resizedSize(5000, 5000, 0)).toBeNull();
  });

  it('keeps flat colours exact and averages in linear light', () => {
    // A flat colour stays that colour (weights sum to 1, sRGB round trip exact).
    const flat = new Uint8Array(300 * 200 * 3).map((_, i) => [200, 90, 17][i % 3]!);
    const f = resizeAll(flat, 300, 200, 97, 65);
    for (let i = 0; i < f.length; i++) expect(f[i]).toBe([200, 90, 17][i % 3]);
    // 1-px black/white stripes halved: gamma-aware gives the linear mean (sRGB 188), a naive average 128.
    const w = 400,
      h = 40;
    const stripes = new Uint8Array(w * h * 3);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) stripes.fill(x % 2 ? 255 : 0, (y * w + x) * 3, (y * w + x) * 3 + 3);
    const s = resizeAll(stripes, w, h, 100, 10);
    const mid = s[(5 * 100 + 50) * 3]!;
    expect(mid).toBeGreaterThanOrEqual(186);
    expect(mid).toBeLessThanOrEqual(190);
  });

  it('a JPEG larger than the limit is encoded at the limit, guarded, orientation kept', { timeout: 120_000 }, async () => {
    const w = 3000,
      h = 2000;
    const enc = new JpegEncoder({ width: w, height: h, quality: 92 });
    grainyUpscaleStrips(w, h, 3, (_y, rows, n) => enc.write(rows, n));
    const input = enc.finish();
    const r = optimised(await optimiseImage(input, lossy(75, { resizeLongSide: 2048 })));
    expect([r.width, r.height]).toEqual([2048, 1365]);
    expect(readJpegHeader(r.bytes)).toMatchObject({ width: 2048, height: 1365 });
    // The guard compared it with the source resized the same way (grainy test photo: raised once).
    expect(r.ssim).toBeGreaterThan(0.95);
    expect(r.qualityUsed).toBeGreaterThanOrEqual(75);
    expect(r.bytesOut).toBeLessThan(r.bytesIn * 0.5);
    // Within the limit: untouched size.
    const same = optimised(await optimiseImage(input, lossy(75, { resizeLongSide: 4096 })));
    expect([same.width, same.height]).toEqual([w, h]);
    // Lossless mode still resizes (the merchant asked for it), at the Low level.
    const l = optimised(await optimiseImage(input, lossless({ resizeLongSide: 2880 })));
    expect([l.width, l.height]).toEqual([2880, 1920]);
    expect(l.qualityUsed).toBe(90);
    // A watermark is placed on the resized image: a red logo at bottom right of the 2048 px output.
    const logo = new JpegEncoder({ width: 64, height: 64, quality: 95 });
    logo.write(
      new Uint8Array(64 * 64 * 3).map((_, i) => (i % 3 === 0 ? 255 : 0)),
      64,
    );
    const wm = optimised(
      await optimiseImage(
        input,
        lossy(75, {
          resizeLongSide: 2048,
          watermark: { bytes: logo.finish(), position: 'b_r', heightFraction: 0.1, opacity: 1 },
        }),
      ),
    );
    expect([wm.width, wm.height, wm.watermarked]).toEqual([2048, 1365, true]);
    const d = new JpegDecoder(wm.bytes);
    let px: number[] = [];
    for (let y = 0, n = d.read(); n > 0; y += n, n = d.read()) {
      const at = 1365 - 41 - 68; // inside the logo: margin 3 % of 1365, logo 10 % high
      if (at >= y && at < y + n) {
        const i = ((at - y) * 2048 + (2048 - 41 - 68)) * 3;
        px = Array.from(d.rows(n).subarray(i, i + 3));
      }
    }
    d.close();
    expect(px[0]).toBeGreaterThan(200);
    expect(px[1]).toBeLessThan(60);
    // EXIF orientation stays (both sides scale by the same factor).
    const oriented = fixture('rocket-orient6.jpg');
    const info = readJpegHeader(oriented);
    const o = optimised(await optimiseImage(oriented, lossy(75, { resizeLongSide: Math.max(info.width, info.height) - 100 })));
    expect(jpegOrientation(o.bytes)).toBe(6);
    expect(Math.max(o.width, o.height)).toBe(Math.max(info.width, info.height) - 100);
    const dec = new JpegDecoder(o.bytes);
    expect([dec.width, dec.height]).toEqual([o.width, o.height]);
    dec.close();
  });
});
