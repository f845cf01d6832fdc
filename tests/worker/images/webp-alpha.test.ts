// Our bounded VP8L alpha encoder (worker/images/webp/alph.ts) and the RIFF/VP8X/ALPH/VP8 assembly
// (webp/container.ts): the alpha decodes exactly with libwebp's decoder and jSquash's, the colour is the
// VP8 data libwebp writes beside its own ALPH chunk, and the sizes are compared with libwebp's alpha.
import { describe, expect, it } from 'vitest';
import { ALPHA_FILTERS, encodeAlph, huffmanLengths, type AlphaFilter } from '../../../worker/images/webp/alph';
import { assembleWithAlpha, vp8Payload, webpChunks } from '../../../worker/images/webp/container';
import { WebpPicture, decodeVp8Rows, readWebpFeatures, releaseLibwebp } from '../../../worker/images/webp/libwebp';
import { decodeWebp } from '../../../worker/images/jsquash';
import { grainyUpscaleStrips } from './helpers';
import { ALPHAS } from './alpha-planes';

type AlphaGen = (x: number, y: number, w: number, h: number) => number;

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

describe('alpha bytes against libwebp (method 4, its default alpha settings)', () => {
  it('on the alpha kinds above at 1.5 MP', { timeout: 120_000 }, () => {
    const [W, H] = [1500, 1000];
    const rows: string[] = [];
    for (const [name, gen] of Object.entries(ALPHAS)) {
      const pic = photoPicture(W, H, gen);
      const theirs = chunk(pic.encode(75), 'ALPH')!.length;
      const { a, aStride } = pic.planes();
      const t0 = Date.now();
      const ours = encodeAlph({ data: a!, stride: aStride, width: W, height: H });
      const ms = Date.now() - t0;
      pic.free();
      releaseLibwebp(0);
      rows.push(
        `${name}: libwebp ${theirs} B, ours ${ours.size} B (${(ours.size / theirs).toFixed(3)}x, ${ours.stats.filter}, ${ms} ms)`,
      );
      // Measured 2026-11-28: cut-out 1.30x, shadow 0.89x, ramp 0.10x, binary 1.31x, levels 2.36x (723 B),
      // noise 1.00x, constant 1.10x; a regression of the tokeniser shows here.
      expect(ours.size, name).toBeLessThanOrEqual(theirs * 1.35 + 512);
    }
    console.log(rows.join('\n'));
  });
});
