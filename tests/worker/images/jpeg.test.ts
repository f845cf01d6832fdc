import { describe, expect, it } from 'vitest';
import { optimiseImage, sniffFormat } from '../../../worker/images';
import { decodeJpeg } from '../../../worker/images/jsquash';
import { decodeJpegRgb, JpegEncoder, readJpegHeader, transcodeJpeg } from '../../../worker/images/jpeg/mozjpeg';
import { attachMetadata, iccSegments, jpegOrientation, stripJpegMetadata } from '../../../worker/images/jpeg/markers';
import { fixture } from './fixtures';
import { jpegComponents, lossless, lossy, maxChannelDiff, optimised, text } from './helpers';

describe('JPEG originals', () => {
  it('Medium re-encodes with MozJPEG: smaller, decodes, same size, progressive', async () => {
    const input = fixture('rocket-baseline.jpg');
    const r = optimised(await optimiseImage(input, { ...lossy(75), perceptualGuard: false } as never));
    expect(r.format).toBe('jpeg');
    expect(r.mime).toBe('image/jpeg');
    expect(r.bytesOut).toBeLessThan(r.bytesIn * 0.7);
    expect(r.qualityUsed).toBe(75);
    // With the guard (default) the quality may rise, never the size above the original.
    const guarded = optimised(await optimiseImage(input, lossy(75)));
    expect(guarded.bytesOut).toBeLessThan(guarded.bytesIn);
    const out = await decodeJpeg(r.bytes);
    expect([out.width, out.height, r.width, r.height]).toEqual([320, 214, 320, 214]);
    expect(Array.from(r.bytes).some((_, i) => r.bytes[i] === 0xff && r.bytes[i + 1] === 0xc2)).toBe(true); // SOF2 progressive
    // Lossy, but the picture is the same picture.
    expect(maxChannelDiff(await decodeJpeg(input), out)).toBeLessThan(128);
  });

  it('higher quality levels give larger files (High < Medium < Low)', async () => {
    const input = fixture('rocket-progressive.jpg');
    const sizes = [];
    for (const q of [70, 75, 90]) {
      const r = await optimiseImage(input, { ...lossy(q), perceptualGuard: false } as never);
      sizes.push(r.kind === 'optimised' ? r.bytesOut : input.length);
    }
    expect(sizes[0]).toBeLessThan(sizes[1]!);
    expect(sizes[1]).toBeLessThan(sizes[2]!);
  });

  it('lossless is a jpegtran-class transcode: pixel-identical, progressive, smaller than metadata removal alone, orientation kept', async () => {
    const input = fixture('rocket-baseline.jpg');
    expect(text(input)).toContain('metadata that lossless mode removes');
    const r = optimised(await optimiseImage(input, lossless()));
    expect(r.bytesOut).toBeLessThan(stripJpegMetadata(input).length); // Huffman + scans, not only metadata
    expect(readJpegHeader(r.bytes).progressive).toBe(true);
    expect(text(r.bytes)).not.toContain('metadata that lossless mode removes');
    // Identical pixels by two independent decoders (jSquash's and ours).
    const [a, b] = [await decodeJpeg(input), await decodeJpeg(r.bytes)];
    expect(maxChannelDiff(a, b)).toBe(0);
    expect(decodeJpegRgb(r.bytes).data).toEqual(decodeJpegRgb(input).data);
    const prog = fixture('rocket-progressive.jpg');
    const rp = optimised(await optimiseImage(prog, lossless()));
    expect(decodeJpegRgb(rp.bytes).data).toEqual(decodeJpegRgb(prog).data);

    const rotated = fixture('rocket-orient6.jpg');
    expect(jpegOrientation(rotated)).toBe(6);
    const rr = optimised(await optimiseImage(rotated, lossless()));
    expect(jpegOrientation(rr.bytes)).toBe(6);
    expect(text(rr.bytes)).not.toContain('stripped');
  });

  it(
    'above 2 MP (standard progressive script) lossless stays pixel-identical and lossy keeps Cr detail',
    { timeout: 60_000 },
    async () => {
      // Colour detail in Cr (red/green stripes, 3 px period): MozJPEG 3.2's script dropped Cr's AC 9-63 scan.
      const W = 2400,
        H = 1000;
      const enc = new JpegEncoder({ width: W, height: H, quality: 95, trellis: false, optimizeScans: true }); // the searched script is complete
      const rows = new Uint8Array(W * 3 * 16);
      for (let y0 = 0; y0 < H; y0 += 16) {
        const n = Math.min(16, H - y0);
        for (let r = 0; r < n; r++)
          for (let x = 0; x < W; x++) {
            const i = (r * W + x) * 3;
            const on = ((x + y0 + r) % 3 === 0) !== ((x >> 5) % 2 === 0);
            rows[i] = on ? 220 : 60;
            rows[i + 1] = on ? 60 : 200;
            rows[i + 2] = 90 + ((x * 7 + (y0 + r) * 3) & 63);
          }
        enc.write(rows, n);
      }
      const input = transcodeJpeg(enc.finish(), { progressive: false }).bytes; // baseline, as cameras write
      const l = optimised(await optimiseImage(input, lossless()));
      expect(decodeJpegRgb(l.bytes).data).toEqual(decodeJpegRgb(input).data);
      expect(scanCount(l.bytes)).toBe(11); // lossless transcodes keep two luma refinement steps
      const m = optimised(await optimiseImage(input, { ...lossy(75), perceptualGuard: false } as never));
      expect(scanCount(m.bytes)).toBe(10); // one luma refinement step; every component's AC 1-63 is coded
    },
  );

  it('lossy keeps EXIF orientation on the stored pixels', async () => {
    const r = optimised(await optimiseImage(fixture('rocket-orient6.jpg'), lossy(75)));
    expect(jpegOrientation(r.bytes)).toBe(6);
    expect([r.width, r.height]).toEqual([240, 160]);
  });

  it('greyscale stays a one-component JPEG', async () => {
    const input = fixture('rocket-grey.jpg');
    expect(jpegComponents(input)).toBe(1);
    const r = optimised(await optimiseImage(input, lossy(70)));
    expect(jpegComponents(r.bytes)).toBe(1);
  });

  it('CMYK (Adobe, inverted) is decoded and optimised: lossy becomes a smaller RGB JPEG with the right colours', async () => {
    const input = fixture('rocket-cmyk.jpg');
    expect(readJpegHeader(input).components).toBe(4);
    const r = optimised(await optimiseImage(input, lossy(75)));
    expect(r.bytesOut).toBeLessThan(r.bytesIn * 0.6);
    expect(readJpegHeader(r.bytes)).toMatchObject({ components: 3, progressive: true, width: 160, height: 107 });
    expect(iccSegments(r.bytes)).toHaveLength(0); // a CMYK profile would misdescribe RGB pixels
    expect(r.ssim).toBeGreaterThan(0.9);
    // Same colours as the RGB original (half size by DCT scaling), not a negative.
    const ref = decodeJpegRgb(fixture('rocket-baseline.jpg'), 2).data;
    const out = decodeJpegRgb(r.bytes).data;
    let diff = 0;
    for (let i = 0; i < out.length; i++) diff += Math.abs(out[i]! - ref[i]!);
    expect(diff / out.length).toBeLessThan(20);
  });

  it('CMYK lossless stays CMYK, pixel-identical and smaller; CMYK can be watermarked', async () => {
    const input = fixture('rocket-cmyk.jpg');
    const r = optimised(await optimiseImage(input, lossless()));
    expect(r.bytesOut).toBeLessThan(r.bytesIn);
    expect(readJpegHeader(r.bytes)).toMatchObject({ components: 4, adobe: true });
    expect(decodeJpegRgb(r.bytes).data).toEqual(decodeJpegRgb(input).data);
    const logo = fixture('horse-alpha.png');
    const w = optimised(
      await optimiseImage(input, lossy(75, { watermark: { bytes: logo, position: 'c', heightFraction: 0.5, opacity: 1 } })),
    );
    expect(w.watermarked).toBe(true);
    expect(readJpegHeader(w.bytes).components).toBe(3);
  });

  it('re-attaches the ICC profile to a re-encoded JPEG', () => {
    const icc = new Uint8Array([0xff, 0xe2, 0x00, 0x10, ...new TextEncoder().encode('ICC_PROFILE\0'), 1, 1]);
    const bare = new Uint8Array([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xda, 0, 2, 0xff, 0xd9,
    ]);
    const withIcc = attachMetadata(bare, { orientation: 3, icc: [icc] });
    expect(iccSegments(withIcc)).toHaveLength(1);
    expect(jpegOrientation(withIcc)).toBe(3);
    expect(sniffFormat(withIcc)).toBe('jpeg');
  });

  it('an already-compressed JPEG at lossless is already optimal (original kept)', async () => {
    const once = optimised(await optimiseImage(fixture('rocket-baseline.jpg'), lossless()));
    const again = await optimiseImage(once.bytes, lossless());
    expect(again).toEqual({
      kind: 'already-optimal',
      reason: expect.stringMatching(/not smaller/),
      inputFormat: 'jpeg',
      bytesIn: once.bytesOut,
    });
  });
});

/** Number of SOS markers (progressive scans) in a JPEG. */
function scanCount(b: Uint8Array): number {
  let n = 0;
  for (let i = 2; i < b.length - 3;) {
    if (b[i] !== 0xff) return n;
    const m = b[i + 1]!;
    const len = (b[i + 2]! << 8) | b[i + 3]!;
    if (m === 0xda) {
      n++;
      // Skip the entropy-coded data: up to the next marker that is not a stuffed byte or a restart.
      let j = i + 2 + len;
      while (j < b.length - 1 && !(b[j] === 0xff && b[j + 1] !== 0 && (b[j + 1]! < 0xd0 || b[j + 1]! > 0xd7))) j++;
      i = j;
      continue;
    }
    if (m === 0xd9) return n;
    i += 2 + len;
  }
  return n;
}
