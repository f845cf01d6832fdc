// Issue 24's CPU work on the JPEG lossy path. (1) The guard's look at the candidate comes from its encoder:
// the Y plane at the guard's DCT scale computed from the final coefficients (JpegEncoder.wantLuma) must be
// exactly what decoding the written file gives, at every scale, for colour and grey, with full and row
// trellis, at sizes that are not multiples of a block. (2) Rows of a YCbCr original go into the encoder as
// YCbCr (no colour round trip): the result is a normal 4:2:0 JPEG whose pixels stay within the round
// trip's rounding of the RGB path's.
import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import {
  BufferedJpegDecoder,
  JpegDecoder,
  JpegEncoder,
  readJpegHeader,
  releaseMozjpeg,
  transcodeJpeg,
} from '../../../worker/images/jpeg/mozjpeg';
import { grainyUpscaleStrips } from './helpers';

function photo(width: number, height: number, sampling: '420' | '422' | '444' = '422'): Uint8Array {
  const enc = new JpegEncoder({ width, height, quality: 92, sampling, trellis: false, optimizeScans: false });
  grainyUpscaleStrips(width, height, 3, (_y, rows, n) => enc.write(rows, n));
  return enc.finish();
}

function encode(
  src: Uint8Array,
  o: { scale: number; grayscale?: boolean; trellis?: boolean; ycc?: boolean },
): { bytes: Uint8Array; luma: JpegEncoder['luma'] } {
  const d = new JpegDecoder(src, { ycc: o.ycc });
  const e = new JpegEncoder({
    width: d.width,
    height: d.height,
    quality: 75,
    grayscale: o.grayscale,
    trellis: o.trellis ?? true,
    rowTrellis: o.trellis === false,
    optimizeScans: false,
    yccInput: d.outputYcc,
  });
  expect(e.wantLuma(o.scale)).toBe(true);
  for (let n = d.read(); n > 0; n = d.read()) {
    e.buffer().set(d.rows(n));
    e.commit(n);
  }
  d.close();
  const bytes = e.finish();
  return { bytes, luma: e.luma };
}

function decodeLuma(bytes: Uint8Array, scaleNum: number): { data: Uint8Array; width: number; height: number } {
  const d = new JpegDecoder(bytes, { scaleNum, scaleDenom: 8, luma: true });
  const data = new Uint8Array(d.width * d.height);
  let y = 0;
  for (let n = d.read(); n > 0; n = d.read()) {
    data.set(d.rows(n), y * d.width);
    y += n;
  }
  d.close();
  return { data, width: d.width, height: d.height };
}

function decodeRgb(bytes: Uint8Array): Uint8Array {
  const d = new JpegDecoder(bytes);
  const out = new Uint8Array(d.width * d.height * 3);
  let y = 0;
  for (let n = d.read(); n > 0; n = d.read()) {
    out.set(d.rows(n), y * d.width * 3);
    y += n;
  }
  d.close();
  return out;
}

describe("the guard's candidate luma from the encoder", () => {
  // 1003 x 755: neither a multiple of 8 nor of 16, so edge blocks and partial MCUs are cropped.
  const src = photo(1003, 755);
  const cases: { scale: number; grayscale?: boolean; trellis?: boolean; ycc?: boolean }[] = [
    { scale: 4 },
    { scale: 4, ycc: true },
    { scale: 3 },
    { scale: 8 },
    { scale: 1 },
    { scale: 2, grayscale: true },
    { scale: 5, trellis: false },
    { scale: 6 },
    { scale: 7, grayscale: true, trellis: false },
  ];
  for (const c of cases) {
    it(`equals the decoded file at ${c.scale}/8${c.grayscale ? ', grey' : ''}${c.trellis === false ? ', row trellis' : ''}${c.ycc ? ', YCbCr rows' : ''}`, () => {
      try {
        const { bytes, luma } = encode(src, c);
        const decoded = decodeLuma(bytes, c.scale);
        expect(luma).not.toBeNull();
        expect([luma!.width, luma!.height]).toEqual([decoded.width, decoded.height]);
        expect(Buffer.from(luma!.data).equals(Buffer.from(decoded.data))).toBe(true);
      } finally {
        releaseMozjpeg(0);
      }
    });
  }
});

describe('YCbCr rows into the encoder', () => {
  it('gives a 4:2:0 JPEG within the colour round trip of the RGB path', () => {
    try {
      const src = photo(640, 480, '422');
      const ycc = encode(src, { scale: 4, ycc: true }).bytes;
      const rgb = encode(src, { scale: 4 }).bytes;
      const h = readJpegHeader(ycc);
      expect([h.width, h.height, h.components, h.maxH, h.maxV]).toEqual([640, 480, 3, 2, 2]);
      expect(ycc.length / rgb.length).toBeGreaterThan(0.98);
      expect(ycc.length / rgb.length).toBeLessThan(1.02);
      const a = decodeRgb(ycc);
      const b = decodeRgb(rgb);
      let sum = 0;
      for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
      expect(sum / a.length).toBeLessThan(1.5); // mean absolute difference per channel value
    } finally {
      releaseMozjpeg(0);
    }
  });

  it('is what the engine does for a YCbCr original: a 4:2:0 output the guard passed', async () => {
    const src = photo(2400, 1800, '422');
    const out = await optimiseImage(src, { mode: 'lossy', quality: 75, pngToJpg: false, pngToJpgSizeControl: true });
    expect(out.kind).toBe('optimised');
    if (out.kind !== 'optimised') return;
    expect(out.path).toBe('wasm');
    const h = readJpegHeader(out.bytes);
    expect([h.width, h.height, h.maxH, h.maxV]).toEqual([2400, 1800, 2, 2]);
    expect(out.ssim).toBeGreaterThan(0.97);
  });
});

describe('a progressive original decoded from its coefficients in the heap', () => {
  it('gives the pixels of its baseline stand-in, pass after pass, and the luma planes of a scaled decode', () => {
    try {
      const src = photo(1003, 755, '422');
      // A progressive original: the same coefficients, written by the lossless transcode.
      const progressive = transcodeJpeg(src, { progressive: true, optimizeScans: false }).bytes;
      const standIn = transcodeJpeg(progressive, { progressive: false }).bytes;
      expect(readJpegHeader(progressive).progressive).toBe(true);
      const ref = new JpegDecoder(standIn, { ycc: true });
      const want = new Uint8Array(ref.width * ref.height * 3);
      let y = 0;
      for (let n = ref.read(); n > 0; n = ref.read()) {
        want.set(ref.rows(n), y * ref.width * 3);
        y += n;
      }
      ref.close();
      const b = BufferedJpegDecoder.open(progressive, { ycc: true });
      expect(b).not.toBeNull();
      for (let pass = 0; pass < 2; pass++) {
        const rows = b!.pass();
        const got = new Uint8Array(want.length);
        let yy = 0;
        for (let n = rows.read(); n > 0; n = rows.read()) {
          got.set(rows.rows(n), yy * rows.width * 3);
          yy += n;
        }
        rows.close();
        expect(yy).toBe(755);
        expect(Buffer.from(got).equals(Buffer.from(want))).toBe(true);
      }
      for (const scale of [3, 4, 8]) {
        const plane = b!.luma(scale);
        const decoded = decodeLuma(standIn, scale);
        expect([plane.width, plane.height]).toEqual([decoded.width, decoded.height]);
        expect(Buffer.from(plane.data).equals(Buffer.from(decoded.data))).toBe(true);
      }
      b!.close();
      // Not for a baseline file (the stand-in path's own input) nor a grey one.
      expect(BufferedJpegDecoder.open(standIn)).toBeNull();
    } finally {
      releaseMozjpeg(0);
    }
  });

  it('is what the engine uses for a progressive original that fits: the same bytes as its stand-in gives', async () => {
    const src = photo(2400, 1800, '422');
    const progressive = transcodeJpeg(src, { progressive: true, optimizeScans: false }).bytes;
    const standIn = transcodeJpeg(progressive, { progressive: false }).bytes;
    const settings = { mode: 'lossy', quality: 75, pngToJpg: false, pngToJpgSizeControl: true } as const;
    const a = await optimiseImage(progressive, settings);
    const b = await optimiseImage(standIn, settings);
    expect(a.kind).toBe('optimised');
    expect(b.kind).toBe('optimised');
    if (a.kind !== 'optimised' || b.kind !== 'optimised') return;
    expect(a.qualityUsed).toBe(b.qualityUsed);
    expect(a.ssim).toBe(b.ssim);
    // The baseline stand-in is encoded from the same pixels: only the container may differ (none here).
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  });
});
