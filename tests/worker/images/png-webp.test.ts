import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { decodePng, decodePng16, decodeWebp } from '../../../worker/images/jsquash';
import { ssimScore } from '../../../worker/images/guard/perceptual';
import { paletteFloor } from '../../../worker/images/png/pipeline';
import { fixture } from './fixtures';
import { lossless, lossy, makeImage, maxChannelDiff, optimised, pixel, pngOf } from './helpers';

const pngColourType = (b: Uint8Array) => b[25];

describe('PNG originals', () => {
  it.each(['chelsea-rgb.png', 'chelsea-grey.png', 'chelsea-palette.png', 'horse-alpha.png', 'logo-alpha.png'])(
    'lossless %s: OxiPNG output is pixel-identical and smaller',
    async (name) => {
      const input = fixture(name);
      const r = optimised(await optimiseImage(input, lossless()));
      expect(r.format).toBe('png');
      expect(r.bytesOut).toBeLessThan(r.bytesIn);
      expect(maxChannelDiff(decodePng(input), decodePng(r.bytes))).toBe(0);
    },
  );

  it('lossless keeps 16-bit samples exactly', async () => {
    const input = fixture('chelsea-16bit.png');
    expect(input[24]).toBe(16);
    const r = await optimiseImage(input, lossless());
    const out = r.kind === 'optimised' ? r.bytes : input;
    const [a, b] = [decodePng16(input), decodePng16(out)];
    expect(b.data.length).toBe(a.data.length);
    expect(a.data.every((v, i) => v === b.data[i])).toBe(true);
  });

  it('lossy keeps transparency as PNG and uses a palette only when the score allows', async () => {
    // A flat-colour graphic with 1,865 colours: the 256-colour palette clears the floor and is kept.
    const input = fixture('logo-alpha.png');
    const graphic = optimised(await optimiseImage(input, lossy(75)));
    expect(graphic.format).toBe('png');
    expect(pngColourType(graphic.bytes)).toBe(3);
    expect(ssimScore(decodePng(input), decodePng(graphic.bytes), true, true)).toBeGreaterThanOrEqual(paletteFloor(75));

    // Semi-transparent edges survive exactly (255 colours: palette + tRNS without any loss).
    const horse = fixture('horse-alpha.png');
    const h = optimised(await optimiseImage(horse, lossy(75)));
    expect(maxChannelDiff(decodePng(horse), decodePng(h.bytes))).toBe(0);
    expect(decodePng(h.bytes).data.filter((v, i) => i % 4 === 3 && v < 255).length).toBe(12);

    // A photo with alpha: palette banding fails the floor, so it stays full-colour PNG.
    const photo = await optimiseImage(fixture('ria-alpha.png'), lossy(90));
    if (photo.kind === 'optimised') {
      expect(photo.format).toBe('png');
      expect(pngColourType(photo.bytes)).toBe(6);
      expect(maxChannelDiff(decodePng(fixture('ria-alpha.png')), decodePng(photo.bytes))).toBe(0);
    }
  });

  it('a smooth gradient keeps full colour: palette banding is rejected', async () => {
    const gradient = makeImage(256, 96, (x, y) => [x, (y * 2 + x) & 0xff, (x * 3 + y) & 0xff, 255]);
    const r = optimised(await optimiseImage(pngOf(gradient), lossy(70)));
    expect(pngColourType(r.bytes)).not.toBe(3);
    expect(maxChannelDiff(gradient, decodePng(r.bytes))).toBe(0);
  });

  it('PNG to JPG flattens transparent areas on white', async () => {
    // Left half transparent red, right half opaque blue, plus noise so the PNG is not tiny.
    const img = makeImage(64, 32, (x) => (x < 32 ? [255, 0, 0, 0] : [0, 0, 255, 255]));
    for (let i = 0; i < img.data.length; i += 4) if (i % 16 === 0 && img.data[i + 3] === 255) img.data[i + 1] = (i * 7) % 50;
    const r = optimised(await optimiseImage(pngOf(img), lossy(90, { pngToJpg: true, pngToJpgSizeControl: false })));
    expect(r.format).toBe('jpeg');
    expect(r.convertedToJpg).toBe(true);
    const { decodeJpeg } = await import('../../../worker/images/jsquash');
    const out = await decodeJpeg(r.bytes);
    const left = pixel(out, 8, 16);
    expect(Math.min(...left.slice(0, 3))).toBeGreaterThan(245); // white, not red or black
    expect(pixel(out, 50, 16)[2]).toBeGreaterThan(200);
  });

  it('size control skips a JPG larger than the PNG', async () => {
    // Two flat colours in wide stripes: the PNG is a few hundred bytes, any JPG is larger.
    const input = pngOf(makeImage(256, 256, (x) => (x % 64 < 32 ? [20, 40, 200, 255] : [250, 250, 250, 255])));
    const controlled = optimised(await optimiseImage(input, lossy(75, { pngToJpg: true, pngToJpgSizeControl: true })));
    expect(controlled.format).toBe('png');
    expect(controlled.convertedToJpg).toBe(false);
    const photo = optimised(
      await optimiseImage(fixture('chelsea-rgb.png'), lossy(75, { pngToJpg: true, pngToJpgSizeControl: true })),
    );
    expect(photo.format).toBe('jpeg');
    expect(photo.mime).toBe('image/jpeg');
  });
});

describe('WebP originals', () => {
  it('lossy re-encode is smaller and decodes at the same size', async () => {
    const r = optimised(await optimiseImage(fixture('chelsea-lossy.webp'), lossy(75)));
    expect(r.format).toBe('webp');
    const out = await decodeWebp(r.bytes);
    expect([out.width, out.height]).toEqual([200, 133]);
  });

  it('lossless keeps every pixel of a lossless WebP, and leaves a lossy WebP alone', async () => {
    const input = fixture('chelsea-lossless.webp');
    const r = await optimiseImage(input, lossless());
    if (r.kind === 'optimised') expect(maxChannelDiff(await decodeWebp(input), await decodeWebp(r.bytes))).toBe(0);
    else expect(r.kind).toBe('already-optimal');
    expect((await optimiseImage(fixture('chelsea-lossy.webp'), lossless())).kind).toBe('already-optimal');
  });
});
