// Our bounded VP8L alpha encoder (worker/images/webp/alph.ts) and the RIFF/VP8X/ALPH/VP8 assembly
// (webp/container.ts): the alpha decodes exactly with libwebp's decoder and jSquash's, the colour is the
// VP8 data libwebp writes beside its own ALPH chunk, and the sizes are compared with libwebp's alpha.
import { describe, expect, it } from 'vitest';
import { ALPHA_FILTERS, encodeAlph, huffmanLengths, type AlphaFilter } from '../../../worker/images/webp/alph';
import { assembleWithAlpha, vp8Payload, webpChunks } from '../../../worker/images/webp/container';
import { WebpPicture, decodeVp8Rows, readWebpFeatures, releaseLibwebp } from '../../../worker/images/webp/libwebp';
import { decodeWebp } from '../../../worker/images/jsquash';
import { grainyUpscaleStrips } from './helpers';

type AlphaGen = (x: number, y: number, w: number, h: number) => number;

/** Alpha planes a shop meets: cut-outs with soft edges, ramps, shadows, binary masks, noise. */
export const ALPHAS: Record<string, AlphaGen> = {
  // A product cut-out: an ellipse, opaque inside, a 3-pixel anti-aliased edge, transparent outside.
  cutout: (x, y, w, h) => {
    const d = Math.hypot((x - w / 2) / (w * 0.4), (y - h / 2) / (h * 0.42)) - 1;
    return Math.max(0, Math.min(255, Math.round(((-d * Math.min(w, h) * 0.4) / 3) * 255)));
  },
  // A soft drop shadow: radial falloff (many levels), the case gradient filtering is for.
  shadow: (x, y, w, h) => Math.max(0, Math.min(255, Math.round(255 - Math.hypot(x - w / 2, y - h / 2) * (400 / Math.min(w, h))))),
  ramp: (x, _y, w) => (x < w / 4 ? 0 : Math.min(255, Math.round(((x - w / 4) / (w / 2)) * 255))),
  binary: (x, y) => (((x >> 5) ^ (y >> 4)) & 1 ? 255 : 0),
  // Text-like: a few levels in small shapes.
  levels: (x, y) => [0, 64, 128, 255][((x * 7) ^ (y * 3)) & 3 & ((x >> 3) & (y >> 2) & 1 ? 3 : 0)]!,
  noise: (x, y) => (Math.imul((x * 73856093) ^ (y * 19349663), 2654435761) >>> 24) & 0xff,
  constant: () => 128,
};

function alphaPlane(w: number, h: number, gen: AlphaGen): Uint8Array {
  const a = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) a[y * w + x] = gen(x, y, w, h);
  return a;
}

/** A photo (the rocket upscaled with grain) with the given alpha, in a libwebp picture. */
function photoPicture(w: number, h: number, gen: AlphaGen): WebpPicture {
  const pic = new WebpPicture(w, h, true);
  grainyUpscaleStrips(w, h, 4, (y0, rows, n) => {
    for (let r = 0; r < n; r++) for (let x = 0; x < w; x++) rows[(r * w + x) * 4 + 3] = gen(x, y0 + r, w, h);
    pic.setRgbRows(y0, rows, n, 4);
  });
  return pic;
}

function alphaOf(file: Uint8Array, w: number, h: number): Uint8Array {
  const back = new WebpPicture(w, h, true);
  try {
    back.decode(file);
    const { a, aStride } = back.planes();
    const out = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) out.set(a!.subarray(y * aStride, y * aStride + w), y * w);
    return out;
  } finally {
    back.free();
  }
}

function chunk(file: Uint8Array, id: string): Uint8Array | null {
  const c = webpChunks(file).find((k) => k.id === id);
  return c ? file.subarray(c.offset, c.offset + c.size) : null;
}

describe('bounded VP8L alpha encoder (webp/alph.ts)', () => {
  it('Huffman code lengths stay within the limit and form a complete code', () => {
    // Fibonacci counts make the deepest unlimited tree.
    const freq = new Float64Array(40);
    let [a, b] = [1, 1];
    for (let i = 0; i < 40; i++) {
      freq[i] = a;
      [a, b] = [b, a + b];
    }
    for (const max of [15, 7]) {
      const l = huffmanLengths(freq, max);
      expect(Math.max(...l)).toBeLessThanOrEqual(max);
      expect([...l].reduce((s, x) => s + (x ? 2 ** -x : 0), 0)).toBe(1);
    }
  });

  for (const [name, gen] of Object.entries(ALPHAS))
    it(`${name}: every filter decodes to the exact plane with libwebp and jSquash; the colour is libwebp's`, async () => {
      const [W, H] = name === 'noise' ? [67, 45] : [301, 203];
      const plane = alphaPlane(W, H, gen);
      const pic = photoPicture(W, H, gen);
      try {
        // libwebp with its own alpha, then the colour only: the same VP8 data (the cleanup of fully
        // transparent areas is the same flattening in both).
        const libwebpFile = pic.encode(75);
        const colour = pic.encode(75, { colourOnly: true });
        expect(chunk(colour, 'ALPH')).toBeNull();
        expect(vp8Payload(colour)).toEqual(vp8Payload(libwebpFile));
        for (const filter of [...ALPHA_FILTERS, 'auto'] as (AlphaFilter | 'auto')[]) {
          const { bytes } = encodeAlph({ data: plane, stride: W, width: W, height: H }, { filter });
          const file = assembleWithAlpha(vp8Payload(colour), bytes!, W, H);
          expect(readWebpFeatures(file)).toMatchObject({ width: W, height: H, hasAlpha: true, lossless: false });
          expect(alphaOf(file, W, H), `libwebp, ${filter}`).toEqual(plane);
          const rgba = await decodeWebp(file);
          const a = new Uint8Array(W * H);
          for (let i = 0; i < W * H; i++) a[i] = rgba.data[i * 4 + 3]!;
          expect(a, `jSquash, ${filter}`).toEqual(plane);
        }
      } finally {
        pic.free();
        releaseLibwebp(0);
      }
    });

  it('a plane with a stride wider than the image, widths that bundle 8/4/2 per pixel, one-pixel images', () => {
    for (const [W, H] of [
      [1, 1],
      [1, 9],
      [9, 1],
      [13, 7],
      [33, 17],
    ] as const)
      for (const gen of [ALPHAS.binary!, ALPHAS.levels!, ALPHAS.shadow!, ALPHAS.noise!]) {
        const stride = W + 5;
        const data = new Uint8Array(stride * H).fill(77);
        for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) data[y * stride + x] = gen(x, y, W, H);
        const pic = new WebpPicture(W, H, false);
        const colour = pic.encode(75);
        pic.free();
        for (const filter of ALPHA_FILTERS) {
          const { bytes } = encodeAlph({ data, stride, width: W, height: H }, { filter });
          const got = alphaOf(assembleWithAlpha(vp8Payload(colour), bytes!, W, H), W, H);
          for (let y = 0; y < H; y++) expect(got.subarray(y * W, (y + 1) * W)).toEqual(data.subarray(y * stride, y * stride + W));
        }
      }
    releaseLibwebp(0);
  });

  it('refuses to write a chunk larger than maxBytes (size known after the first pass)', () => {
    const plane = alphaPlane(200, 200, ALPHAS.noise!);
    const r = encodeAlph({ data: plane, stride: 200, width: 200, height: 200 }, { maxBytes: 1000 });
    expect(r.bytes).toBeNull();
    expect(r.size).toBeGreaterThan(30000);
  });

  it('the guard decoder hands over every luma row in order, equal to the whole-picture decode', () => {
    const [W, H] = [123, 77];
    const pic = photoPicture(W, H, ALPHAS.ramp!);
    const file = pic.encode(60, { colourOnly: true });
    pic.free();
    const whole = new WebpPicture(W, H, false);
    whole.decode(file);
    const { y, yStride } = whole.planes();
    const want = new Uint8Array(W * H);
    for (let r = 0; r < H; r++) want.set(y.subarray(r * yStride, r * yStride + W), r * W);
    whole.free();
    const got = new Uint8Array(W * H);
    let next = 0;
    decodeVp8Rows(vp8Payload(file), (heap, ptr, stride, y0, n) => {
      expect(y0).toBe(next);
      for (let r = 0; r < n; r++) got.set(heap.subarray(ptr + r * stride, ptr + r * stride + W), (y0 + r) * W);
      next += n;
    });
    expect(next).toBe(H);
    expect(got).toEqual(want);
    releaseLibwebp(0);
  });
});
