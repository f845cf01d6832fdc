// The MozJPEG wasm built from source (worker/images/codecs) and its streaming wrapper, inside workerd.
import { describe, expect, it } from 'vitest';
import wasmModule from '../../../worker/images/codecs/mozjpeg.wasm';
import recordedHash from '../../../worker/images/codecs/mozjpeg.wasm.sha256?raw';
import { JpegDecoder, JpegEncoder, decodeJpegRgb, readJpegHeader, transcodeJpeg } from '../../../worker/images/jpeg/mozjpeg';
import { fixture } from './fixtures';

const wasmBytes = import.meta.glob<string>('../../../worker/images/codecs/mozjpeg.wasm', {
  query: '?url&inline',
  import: 'default',
  eager: true,
});

function fromDataUrl(url: string): Uint8Array {
  return Uint8Array.from(atob(url.slice(url.indexOf(',') + 1)), (c) => c.charCodeAt(0));
}

async function sha256(b: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', b));
  return Array.from(d, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** Mean absolute difference per channel of two RGB buffers. */
function meanDiff(a: Uint8Array, b: Uint8Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return s / a.length;
}

describe('mozjpeg.wasm', () => {
  it('is the binary npm run build:codecs records (sha256 in mozjpeg.wasm.sha256)', async () => {
    const bytes = fromDataUrl(Object.values(wasmBytes)[0]!);
    expect(await sha256(bytes)).toBe(recordedHash.trim());
    expect(WebAssembly.Module.exports(wasmModule).map((e) => e.name)).toEqual(
      expect.arrayContaining(['dec_read', 'enc_write', 'transcode']),
    );
    // Standalone: only our three callbacks plus inert WASI stubs, no emscripten JS glue.
    expect(
      WebAssembly.Module.imports(wasmModule)
        .filter((i) => i.module === 'env')
        .map((i) => i.name)
        .sort(),
    ).toEqual(['emscripten_notify_memory_growth', 'js_emit', 'js_error', 'js_fill']);
  });
});

describe('streaming MozJPEG', () => {
  it('decodes baseline and progressive files in strips to the same pixels', () => {
    const base = decodeJpegRgb(fixture('rocket-baseline.jpg'));
    expect([base.width, base.height, base.header.progressive]).toEqual([320, 214, false]);
    const dec = new JpegDecoder(fixture('rocket-progressive.jpg'));
    expect(dec.header.progressive).toBe(true);
    let rows = 0;
    for (let n = dec.read(); n > 0; n = dec.read()) {
      expect(n).toBeLessThanOrEqual(16);
      rows += n;
    }
    dec.close();
    expect(rows).toBe(dec.height);
  });

  it('encodes RGB rows progressively at MozJPEG defaults; the result decodes close to the source', () => {
    const src = decodeJpegRgb(fixture('rocket-baseline.jpg'));
    const enc = new JpegEncoder({ width: src.width, height: src.height, quality: 75 });
    enc.write(src.data, src.height);
    const out = enc.finish();
    expect(readJpegHeader(out)).toMatchObject({ width: 320, height: 214, progressive: true, components: 3, maxH: 2, maxV: 2 });
    const back = decodeJpegRgb(out);
    expect(meanDiff(src.data, back.data)).toBeLessThan(4);
    const q90 = new JpegEncoder({ width: src.width, height: src.height, quality: 90 });
    q90.write(src.data, src.height);
    expect(q90.finish().length).toBeGreaterThan(out.length);
  });

  it('without trellis the output is larger; row trellis (large images) nearly matches trellis', () => {
    const src = decodeJpegRgb(fixture('rocket-baseline.jpg'));
    const sizes = [true, false].map((trellis) => {
      const enc = new JpegEncoder({ width: src.width, height: src.height, quality: 75, trellis });
      enc.write(src.data, src.height);
      const out = enc.finish();
      expect(meanDiff(src.data, decodeJpegRgb(out).data)).toBeLessThan(4);
      return out.length;
    });
    expect(sizes[1]).toBeGreaterThan(sizes[0]!);
    expect(sizes[1]).toBeLessThan(sizes[0]! * 1.3);
    // Row trellis (our patch: one coefficient array) gets back nearly all of trellis's saving.
    const row = new JpegEncoder({ width: src.width, height: src.height, quality: 75, trellis: false, rowTrellis: true });
    row.write(src.data, src.height);
    const rowOut = row.finish();
    expect(meanDiff(src.data, decodeJpegRgb(rowOut).data)).toBeLessThan(4);
    expect(rowOut.length).toBeLessThan(sizes[1]! * 0.97);
    expect(rowOut.length).toBeLessThan(sizes[0]! * 1.05);
  });

  it('greyscale output has one component', () => {
    const src = decodeJpegRgb(fixture('rocket-grey.jpg'));
    const enc = new JpegEncoder({ width: src.width, height: src.height, quality: 75, grayscale: true });
    enc.write(src.data, src.height);
    expect(readJpegHeader(enc.finish()).components).toBe(1);
  });

  it('CMYK (Adobe, inverted) decodes to the right colours, not a negative', () => {
    const cmyk = decodeJpegRgb(fixture('rocket-cmyk.jpg'));
    expect(cmyk.header.components).toBe(4);
    expect(cmyk.header.adobe).toBe(true);
    // The same photo, half size by DCT scaling.
    const rgb = decodeJpegRgb(fixture('rocket-baseline.jpg'), 2);
    expect([rgb.width, rgb.height]).toEqual([cmyk.width, cmyk.height]);
    expect(meanDiff(rgb.data, cmyk.data)).toBeLessThan(20);
    // An inverted reading would be far off.
    expect(
      meanDiff(
        rgb.data,
        cmyk.data.map((v) => 255 - v),
      ),
    ).toBeGreaterThan(60);
  });

  it('lossless transcode: identical pixels, smaller, progressive', () => {
    for (const name of ['rocket-baseline.jpg', 'rocket-progressive.jpg', 'rocket-cmyk.jpg', 'rocket-grey.jpg']) {
      const input = fixture(name);
      const { bytes } = transcodeJpeg(input);
      expect(bytes.length, name).toBeLessThan(input.length);
      expect(readJpegHeader(bytes).progressive, name).toBe(true);
      expect(decodeJpegRgb(bytes).data, name).toEqual(decodeJpegRgb(input).data);
      const baseline = transcodeJpeg(input, { progressive: false }).bytes;
      expect(readJpegHeader(baseline).progressive, name).toBe(false);
      expect(decodeJpegRgb(baseline).data, name).toEqual(decodeJpegRgb(input).data);
    }
  });

  it('a corrupt file throws and the next call works on a fresh instance', () => {
    const input = fixture('rocket-baseline.jpg');
    expect(() => decodeJpegRgb(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).toThrow(/JPEG datastream contains no image/);
    expect(() => decodeJpegRgb(fixture('chelsea-rgb.png'))).toThrow(/Not a JPEG file/);
    expect(() => transcodeJpeg(input.subarray(0, input.length >> 1))).toThrow(/truncated/);
    expect(decodeJpegRgb(input).width).toBe(320);
  });

  it('refuses rows past the image height instead of hanging', () => {
    const enc = new JpegEncoder({ width: 8, height: 20, quality: 75 });
    enc.write(new Uint8Array(8 * 3 * 16), 16);
    expect(() => enc.write(new Uint8Array(8 * 3 * 16), 16)).toThrow(/20/);
    enc.close();
  });
  it('luma decode: the Y plane of a YCbCr or grey file (the luma of its RGB before rounding); CMYK stays RGB', () => {
    for (const [name, scaleNum] of [
      ['rocket-progressive.jpg', 8],
      ['rocket-baseline.jpg', 4],
      ['rocket-grey.jpg', 8],
    ] as const) {
      const rgb = new JpegDecoder(fixture(name), { scaleNum, scaleDenom: 8 });
      const y = new JpegDecoder(fixture(name), { scaleNum, scaleDenom: 8, luma: true });
      try {
        expect([rgb.channels, y.channels]).toEqual([3, 1]);
        expect([y.width, y.height]).toEqual([rgb.width, rgb.height]);
        let worst = 0;
        let sum = 0;
        let count = 0;
        for (;;) {
          const n = rgb.read();
          expect(y.read()).toBe(n);
          if (n === 0) break;
          const a = rgb.rows(n);
          const b = y.rows(n);
          expect(b.length).toBe(n * y.width);
          for (let i = 0; i < b.length; i++) {
            const luma = 0.299 * a[i * 3]! + 0.587 * a[i * 3 + 1]! + 0.114 * a[i * 3 + 2]!;
            worst = Math.max(worst, Math.abs(luma - b[i]!));
            sum += Math.abs(luma - b[i]!);
            count++;
          }
        }
        // RGB's rounding moves the luma by about half a level on average (more only where a channel clips).
        if (name === 'rocket-grey.jpg') expect(worst).toBeLessThan(1e-9);
        else expect(sum / count).toBeLessThan(0.6);
      } finally {
        rgb.close();
        y.close();
      }
    }
    const cmyk = new JpegDecoder(fixture('rocket-cmyk.jpg'), { luma: true });
    expect(cmyk.channels).toBe(3);
    cmyk.close();
  });
});
