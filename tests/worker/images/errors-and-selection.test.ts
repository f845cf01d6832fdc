import { describe, expect, it } from 'vitest';
import { ImageDecodeError, maxPixelsInIsolate, optimiseImage, selectPath, sniffFormat } from '../../../worker/images';
import { readHeader } from '../../../worker/images/sniff';
import { fixture } from './fixtures';
import { lossless, lossy } from './helpers';

describe('format sniffing and bad bytes', () => {
  it('sniffs by magic bytes', () => {
    expect(sniffFormat(fixture('rocket-baseline.jpg'))).toBe('jpeg');
    expect(sniffFormat(fixture('chelsea-rgb.png'))).toBe('png');
    expect(sniffFormat(fixture('chelsea-lossy.webp'))).toBe('webp');
    expect(sniffFormat(new TextEncoder().encode('GIF89a....'))).toBe('gif');
    expect(sniffFormat(new TextEncoder().encode('hello'))).toBe('unknown');
  });

  const jpeg = fixture('rocket-baseline.jpg');
  const png = fixture('chelsea-rgb.png');
  const webp = fixture('chelsea-lossy.webp');
  const corrupt = (b: Uint8Array) => { const c = b.slice(); for (let i = 400; i < c.length - 2; i += 7) c[i] = 0xff ^ c[i]!; return c; };
  it.each([
    ['empty', new Uint8Array(0)],
    ['text', new TextEncoder().encode('<html>not an image</html>')],
    ['JPEG header only', jpeg.slice(0, 200)],
    ['PNG signature only', png.slice(0, 8)],
    ['truncated PNG', png.slice(0, png.length / 2)],
    ['scrambled PNG', corrupt(png)],
    ['truncated WebP', webp.slice(0, 40)],
  ])('%s gives ImageDecodeError, never a crash', async (_name, bytes) => {
    for (const settings of [lossy(75), lossless()]) {
      await expect(optimiseImage(bytes, settings)).rejects.toBeInstanceOf(ImageDecodeError);
    }
  });

  it('a truncated or scrambled JPEG is a typed error or a (still decodable) result, never a crash', async () => {
    for (const bytes of [jpeg.slice(0, jpeg.length / 2), corrupt(jpeg)]) {
      const outcome = await optimiseImage(bytes, lossy(75)).then((r) => r.kind, (e: unknown) => (e instanceof ImageDecodeError ? 'decode-error' : `crash: ${String(e)}`));
      expect(['decode-error', 'optimised', 'already-optimal']).toContain(outcome);
    }
  });

  it('GIF and other image types are left unchanged with a reason', async () => {
    expect(await optimiseImage(new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), lossy(75))).toMatchObject({ kind: 'unsupported', inputFormat: 'gif' });
    const avif = new Uint8Array([0, 0, 0, 28, ...new TextEncoder().encode('ftypavif'), 0, 0, 0, 0]);
    expect(await optimiseImage(avif, lossy(75))).toMatchObject({ kind: 'unsupported', inputFormat: 'avif' });
  });
});

describe('path selection (isolate budget vs Images binding)', () => {
  const settings = lossy(75);
  const header = (w: number, h: number, format: 'jpeg' | 'png' = 'jpeg') => ({ ...readHeader(fixture(format === 'jpeg' ? 'rocket-baseline.jpg' : 'chelsea-rgb.png'), format), width: w, height: h });

  it('small images stay in the isolate (WASM, identical everywhere)', () => {
    expect(selectPath('jpeg', header(1600, 1200), 800_000, settings, true).path).toBe('wasm');
    expect(selectPath('png', header(1000, 1000, 'png'), 800_000, settings, true).path).toBe('wasm');
  });

  it('above the budget: the Images binding when configured, else unsupported with a reason', () => {
    const big = header(8000, 6000);
    expect(selectPath('jpeg', big, 9_000_000, settings, true).path).toBe('images-binding');
    const none = selectPath('jpeg', big, 9_000_000, settings, false);
    expect(none).toMatchObject({ path: 'none', reason: expect.stringMatching(/48\.0 MP .* no Images binding/) });
  });

  it('the limit sits at the measured bytes per pixel', () => {
    const max = maxPixelsInIsolate('jpegLossy');
    const side = Math.floor(Math.sqrt(max));
    expect(selectPath('jpeg', header(side - 10, side - 10), 100_000, settings, true).path).toBe('wasm');
    expect(selectPath('jpeg', header(side + 200, side + 200), 100_000, settings, true).path).toBe('images-binding');
  });

  it('lossless JPEG never decodes, so any size stays in the isolate', () => {
    expect(selectPath('jpeg', header(12000, 9000), 20_000_000, lossless(), false).path).toBe('wasm');
  });

  it('optimiseImage hands a large image to the binding with quality, format and watermark placement', async () => {
    // A real JPEG whose frame header claims 9000x7000: only the headers are read before selection.
    const input = fixture('rocket-baseline.jpg').slice();
    for (let i = 2; i < input.length; ) {
      const m = input[i + 1]!;
      if (m >= 0xc0 && m <= 0xc2) { input.set([0x1b, 0x58, 0x23, 0x28], i + 5); break; } // h=7000, w=9000
      i += 2 + ((input[i + 2]! << 8) | input[i + 3]!);
    }
    const calls: { draw?: unknown; output?: unknown; transforms: unknown[] } = { transforms: [] };
    const transformer = (): ImageTransformer => ({
      transform(t) { calls.transforms.push(t); return transformer(); },
      draw(_img, opts) { calls.draw = opts; return transformer(); },
      async output(opts) {
        calls.output = opts;
        return { response: () => new Response('x'), contentType: () => 'image/jpeg', image: () => new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xd9])]).stream() };
      },
    });
    const images = { input: () => transformer(), info: async () => ({ format: 'image/jpeg', fileSize: 1, width: 9000, height: 7000 }), text: () => transformer() } as unknown as ImagesBinding;
    const logo = fixture('horse-alpha.png'); // 200x164
    const r = await optimiseImage(input, lossy(70, { watermark: { bytes: logo, position: 'b_r', heightFraction: 0.1, opacity: 0.6 } }), { images });
    expect(r).toMatchObject({ kind: 'optimised', path: 'images-binding', format: 'jpeg', watermarked: true, width: 9000, height: 7000 });
    expect(calls.output).toEqual({ format: 'image/jpeg', quality: 70 });
    // 10 % of 7000 = 700 px high, 854 px wide; margin 3 % of 7000 = 210.
    expect(calls.transforms).toContainEqual({ width: 854, height: 700, fit: 'squeeze' });
    expect(calls.draw).toEqual({ left: 9000 - 854 - 210, top: 7000 - 700 - 210, opacity: 0.6 });
  });
});
