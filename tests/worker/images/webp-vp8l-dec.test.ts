// Our windowed VP8L decoder (worker/images/webp/vp8l-dec.ts): the alpha of lossy WebP originals (ALPH
// chunks written by libwebp with every method, and by our own encoder) and whole lossless WebPs (every
// transform, colour cache and meta prefix codes, as libwebp's lossless encoder writes them) decode to
// what libwebp decodes.
import { describe, expect, it } from 'vitest';
import { decodeWebp, encodeWebp } from '../../../worker/images/jsquash';
import { encodeAlph, ALPHA_FILTERS } from '../../../worker/images/webp/alph';
import { webpChunks } from '../../../worker/images/webp/container';
import { WebpPicture, optimiseWebpBounded, releaseLibwebp } from '../../../worker/images/webp/libwebp';
import { decodeAlphInto, decodeVp8lRows } from '../../../worker/images/webp/vp8l-dec';
import { grainyUpscaleStrips } from './helpers';
import { ALPHAS } from './alpha-planes';

function chunk(file: Uint8Array, id: string): Uint8Array | null {
  const c = webpChunks(file).find((k) => k.id === id);
  return c ? file.subarray(c.offset, c.offset + c.size) : null;
}

function photoRgba(w: number, h: number, alpha: (x: number, y: number, w: number, h: number) => number): Uint8Array {
  const out = new Uint8Array(w * h * 4);
  grainyUpscaleStrips(w, h, 4, (y0, rows, n) => {
    for (let r = 0; r < n; r++) for (let x = 0; x < w; x++) rows[(r * w + x) * 4 + 3] = alpha(x, y0 + r, w, h);
    out.set(rows.subarray(0, n * w * 4), y0 * w * 4);
  });
  return out;
}

describe('windowed VP8L decoder (webp/vp8l-dec.ts)', () => {
  it('decodes the ALPH chunks libwebp writes (methods 0-6) to what libwebp decodes', () => {
    const [W, H] = [301, 203];
    for (const [name, gen] of Object.entries(ALPHAS))
      for (const method of [0, 2, 4, 6]) {
        const pic = new WebpPicture(W, H, true);
        pic.setRgbRows(0, photoRgba(W, H, gen), H, 4);
        const file = pic.encode(75, { method });
        pic.free();
        const alph = chunk(file, 'ALPH');
        if (!alph) continue; // all opaque: no chunk
        const back = new WebpPicture(W, H, true);
        back.decode(file);
        const { a, aStride } = back.planes();
        const want = new Uint8Array(W * H);
        for (let y = 0; y < H; y++) want.set(a!.subarray(y * aStride, y * aStride + W), y * W);
        back.free();
        const got = new Uint8Array(W * H);
        decodeAlphInto(alph, W, H, got, W);
        expect(got, `${name} method ${method}`).toEqual(want);
      }
    releaseLibwebp(0);
  });

  it('decodes our own ALPH chunks (every filter) to the plane', () => {
    const [W, H] = [257, 131];
    for (const gen of Object.values(ALPHAS)) {
      const plane = new Uint8Array(W * H);
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) plane[y * W + x] = gen(x, y, W, H);
      for (const filter of ALPHA_FILTERS) {
        const { bytes } = encodeAlph({ data: plane, stride: W, width: W, height: H }, { filter });
        const got = new Uint8Array(W * (H + 1)).fill(9);
        decodeAlphInto(bytes!, W, H, got, W);
        expect(got.subarray(0, W * H)).toEqual(plane);
      }
    }
  });

  it('decodes whole lossless WebPs (predictor, cross-colour, subtract-green, palette, cache, meta codes)', async () => {
    const cases: [number, number, (x: number, y: number, w: number, h: number) => number, boolean][] = [
      [320, 240, ALPHAS.cutout!, true],
      [199, 101, ALPHAS.shadow!, true],
      [640, 480, () => 255, true],
      [123, 45, ALPHAS.levels!, false],
    ];
    for (const [W, H, gen, photo] of cases) {
      let data = photoRgba(W, H, gen);
      if (!photo) {
        // A graphic: few colours (palette transform, bundling).
        data = new Uint8Array(W * H * 4);
        for (let i = 0; i < W * H; i++) {
          const v = gen(i % W, Math.floor(i / W), W, H);
          data.set([v, 255 - v, v >> 1, 255], i * 4);
        }
      }
      const file = await encodeWebp(
        { data: new Uint8ClampedArray(data.buffer), width: W, height: H },
        { quality: 100, lossless: true },
      );
      const vp8l = chunk(file, 'VP8L')!;
      expect(vp8l[0]).toBe(0x2f);
      const want = await decodeWebp(file);
      let rows = 0;
      decodeVp8lRows(vp8l.subarray(5), W, H, (y, argb) => {
        for (let x = 0; x < W; x++) {
          const p = argb[x]!;
          const i = (y * W + x) * 4;
          const got = [(p >>> 16) & 0xff, (p >>> 8) & 0xff, p & 0xff, p >>> 24];
          if (got.join() !== [...want.data.subarray(i, i + 4)].join())
            expect([x, y, ...got]).toEqual([x, y, ...want.data.subarray(i, i + 4)]);
        }
        rows++;
      });
      expect(rows).toBe(H);
    }
  });
});

describe('lossless originals through the windowed decoder (bounded path)', () => {
  it('a lossless WebP with alpha decodes into the picture as libwebp decodes it; lossy re-encode keeps the alpha', async () => {
    const [W, H] = [480, 322];
    const rgba = photoRgba(W, H, ALPHAS.cutout!);
    const file = await encodeWebp(
      { data: new Uint8ClampedArray(rgba.buffer), width: W, height: H },
      { quality: 100, lossless: true },
    );
    const ours = new WebpPicture(W, H, true);
    const theirs = new WebpPicture(W, H, true);
    ours.decodeBounded(file);
    theirs.decode(file);
    const a = ours.planes();
    const b = theirs.planes();
    let maxY = 0;
    let maxUV = 0;
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        maxY = Math.max(maxY, Math.abs(a.y[y * a.yStride + x]! - b.y[y * b.yStride + x]!));
        expect(a.a![y * a.aStride + x]).toBe(rgba[(y * W + x) * 4 + 3]);
      }
    for (let y = 0; y < H >> 1; y++)
      for (let x = 0; x < W >> 1; x++)
        maxUV = Math.max(
          maxUV,
          Math.abs(a.u[y * a.uvStride + x]! - b.u[y * b.uvStride + x]!),
          Math.abs(a.v[y * a.uvStride + x]! - b.v[y * b.uvStride + x]!),
        );
    console.log(`lossless original into the picture: max |dY| ${maxY}, max |dU|,|dV| ${maxUV} against libwebp's decode`);
    expect(maxY).toBe(0);
    expect(maxUV).toBeLessThanOrEqual(2);
    ours.free();
    theirs.free();
    const out = optimiseWebpBounded(file, 75, 'on');
    expect(out.bytes.length).toBeLessThan(file.length);
    const back = new WebpPicture(W, H, true);
    back.decode(out.bytes);
    const { a: alpha, aStride } = back.planes();
    for (let y = 0; y < H; y += 7) for (let x = 0; x < W; x++) expect(alpha![y * aStride + x]).toBe(rgba[(y * W + x) * 4 + 3]);
    back.free();
    releaseLibwebp(0);
  });
});
