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
  const corrupt = (b: Uint8Array) => {
    const c = b.slice();
    for (let i = 400; i < c.length - 2; i += 7) c[i] = 0xff ^ c[i]!;
    return c;
  };
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
      const outcome = await optimiseImage(bytes, lossy(75)).then(
        (r) => r.kind,
        (e: unknown) => (e instanceof ImageDecodeError ? 'decode-error' : `crash: ${String(e)}`),
      );
      expect(['decode-error', 'optimised', 'already-optimal']).toContain(outcome);
    }
  });

  it('GIF and other image types are left unchanged with a reason', async () => {
    expect(await optimiseImage(new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), lossy(75))).toMatchObject({
      kind: 'unsupported',
      inputFormat: 'gif',
    });
    const avif = new Uint8Array([0, 0, 0, 28, ...new TextEncoder().encode('ftypavif'), 0, 0, 0, 0]);
    expect(await optimiseImage(avif, lossy(75))).toMatchObject({ kind: 'unsupported', inputFormat: 'avif' });
  });
});

describe('path selection (all in the isolate; the Images binding is not a quality path)', () => {
  const settings = lossy(75);
  const header = (w: number, h: number, format: 'jpeg' | 'png' = 'jpeg') => ({
    ...readHeader(fixture(format === 'jpeg' ? 'rocket-baseline.jpg' : 'chelsea-rgb.png'), format),
    width: w,
    height: h,
  });

  it('small images take the whole-image codecs', () => {
    expect(selectPath('jpeg', header(1600, 1200), 800_000, settings).path).toBe('wasm');
    expect(selectPath('png', header(1000, 1000, 'png'), 800_000, settings).path).toBe('wasm');
  });

  it('PNGs above the whole-image budget take the row-wise path, up to 25 MP and 20 MB', () => {
    const max = maxPixelsInIsolate('pngLossy');
    const side = Math.floor(Math.sqrt(max));
    expect(selectPath('png', header(side - 10, side - 10, 'png'), 100_000, settings).path).toBe('wasm');
    expect(selectPath('png', header(side + 200, side + 200, 'png'), 100_000, settings).path).toBe('wasm-rows');
    for (const s of [lossy(75), lossless(), lossy(75, { pngToJpg: true }), lossless({ pngToJpg: true })]) {
      expect(selectPath('png', header(5000, 5000, 'png'), 20_000_000, s)).toMatchObject({
        path: 'wasm-rows',
        pipeline: 'pngRows',
      });
    }
  });

  it('what does not fit is left unchanged with the reason, never sent elsewhere', () => {
    const wide = selectPath('png', header(400000, 60, 'png'), 20_000_000, lossy(75));
    expect(wide).toMatchObject({
      path: 'none',
      reason: expect.stringMatching(/24\.0 MP needs about \d+ MB, above the in-isolate memory budget \(104 MB\); left unchanged/),
    });
    expect(selectPath('png', header(6000, 6000, 'png'), 100_000, lossy(75))).toMatchObject({
      path: 'none',
      reason: expect.stringMatching(/36\.0 MP is above the 25 MP/),
    });
  });

  it('lossless JPEG never decodes, so any size stays in the isolate', () => {
    expect(selectPath('jpeg', header(12000, 9000), 20_000_000, lossless()).path).toBe('wasm');
  });
});
