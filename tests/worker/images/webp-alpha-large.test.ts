// WebPs with real transparency above libwebp's ~4.5 MP (its alpha encoder needs ~20 B/px) through the
// bounded path: the colour by libwebp, the alpha plane by our own VP8L encoder (webp/alph.ts), inside the
// isolate's budget. Inputs are made at test time: a photo (the rocket upscaled with grain) with a
// product cut-out's alpha, its colour by libwebp (q95, method 0) and its alpha by our encoder, so nothing
// large is committed and the input needs no libwebp alpha encoder. The 25 MP case runs in
// `npm run test:images-deep`.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { DEFAULT_BUDGET_BYTES, estimatePeakBytes, selectPath } from '../../../worker/images/budget';
import { jsPeakBytes } from '../../../worker/images/ledger';
import { readHeader } from '../../../worker/images/sniff';
import { encodeAlph } from '../../../worker/images/webp/alph';
import { assembleWithAlpha, vp8Payload, webpChunks } from '../../../worker/images/webp/container';
import { WebpPicture, libwebpPeakHeapBytes, releaseLibwebp } from '../../../worker/images/webp/libwebp';
import { grainyUpscaleStrips, lossy, optimised } from './helpers';

const DEEP = Boolean((env as unknown as Record<string, string | undefined>).IMAGES_DEEP);
const MiB = 2 ** 20;

/** A product cut-out: an ellipse, opaque inside, a 3-pixel anti-aliased edge, transparent outside. */
const cutout = (x: number, y: number, w: number, h: number) => {
  const d = Math.hypot((x - w / 2) / (w * 0.4), (y - h / 2) / (h * 0.42)) - 1;
  return Math.max(0, Math.min(255, Math.round(((-d * Math.min(w, h) * 0.4) / 3) * 255)));
};

function makeTransparentWebp(W: number, H: number): Uint8Array {
  const pic = new WebpPicture(W, H, true);
  grainyUpscaleStrips(W, H, 4, (y0, rows, n) => {
    for (let r = 0; r < n; r++) for (let x = 0; x < W; x++) rows[(r * W + x) * 4 + 3] = cutout(x, y0 + r, W, H);
    pic.setRgbRows(y0, rows, n, 4);
  });
  const colour = pic.encode(95, { method: 0, colourOnly: true });
  const { a, aStride } = pic.planes();
  const alph = encodeAlph({ data: a!, stride: aStride, width: W, height: H }).bytes!;
  pic.free();
  releaseLibwebp(0);
  return assembleWithAlpha(vp8Payload(colour), alph, W, H);
}

/** Optimises a transparent WebP and checks size, alpha (exact, libwebp's decoder) and memory. */
async function check(W: number, H: number): Promise<void> {
  const input = makeTransparentWebp(W, H);
  const header = readHeader(input, 'webp');
  expect(selectPath('webp', header, input.length, lossy(75))).toMatchObject({ path: 'wasm-rows', pipeline: 'webpBounded' });
  releaseLibwebp(0);
  libwebpPeakHeapBytes(true);
  const t0 = Date.now();
  const r = optimised(await optimiseImage(input, lossy(75)));
  const ms = Date.now() - t0;
  releaseLibwebp(0);
  const heap = libwebpPeakHeapBytes(true);
  const js = jsPeakBytes();
  const alph = webpChunks(r.bytes).find((c) => c.id === 'ALPH')!.size;
  console.log(
    `transparent WebP ${W}x${H} (${((W * H) / 1e6).toFixed(1)} MP): ${input.length} -> ${r.bytesOut} bytes (ALPH ${alph}), q${r.qualityUsed}, ssim ${r.ssim?.toFixed(4)}; ` +
      `peak ${((heap + js + input.length + r.bytesOut) / MiB).toFixed(1)} MiB = heap ${(heap / MiB).toFixed(1)} + JS ${(js / MiB).toFixed(1)} + original and output ${((input.length + r.bytesOut) / MiB).toFixed(1)}; ` +
      `${ms} ms (${(ms / ((W * H) / 1e6)).toFixed(0)} ms/MP wall)`,
  );
  expect(r).toMatchObject({ format: 'webp', width: W, height: H, path: 'wasm-rows' });
  expect(r.bytesOut).toBeLessThan(r.bytesIn);
  expect(heap).toBeLessThan(estimatePeakBytes('webpBounded', header, input.length));
  expect(heap + js + input.length + r.bytesOut).toBeLessThan(DEFAULT_BUDGET_BYTES);
  // The alpha is exact (libwebp's decoder, row by row against the generator).
  const back = new WebpPicture(W, H, true);
  back.decode(r.bytes);
  const { a, aStride } = back.planes();
  for (let y = 0; y < H; y += 97)
    for (let x = 0; x < W; x++)
      if (a![y * aStride + x] !== cutout(x, y, W, H)) expect([x, y, a![y * aStride + x]]).toBe(cutout(x, y, W, H));
  back.free();
  releaseLibwebp(0);
}

/**
 * A lossless WebP of W x H made with our own VP8L writer (the alpha encoder's stream in a VP8L chunk): the
 * photo's luma in green (palette transform, red and blue 0, opaque). Large lossless originals are slow to
 * make with libwebp's lossless encoder; this one takes a second.
 */
function makeLosslessWebp(W: number, H: number): Uint8Array {
  const plane = new Uint8Array(W * H);
  grainyUpscaleStrips(
    W,
    H,
    3,
    (y0, rows, n) => {
      for (let i = 0; i < n * W; i++) plane[y0 * W + i] = rows[i * 3 + 1]!;
    },
    undefined,
    1,
  );
  const stream = encodeAlph({ data: plane, stride: W, width: W, height: H }, { filter: 'none' }).bytes!.subarray(1);
  const size = 5 + stream.length;
  const out = new Uint8Array(20 + size + (size & 1));
  const dv = new DataView(out.buffer);
  out.set([82, 73, 70, 70], 0); // RIFF
  dv.setUint32(4, out.length - 8, true);
  out.set([87, 69, 66, 80, 86, 80, 56, 76], 8); // WEBPVP8L
  dv.setUint32(16, size, true);
  out[20] = 0x2f;
  dv.setUint32(21, (W - 1) | ((H - 1) << 14), true); // alpha_is_used 0, version 0
  out.set(stream, 25);
  return out;
}

describe('lossless (VP8L) originals above 11 MP (windowed decoder)', () => {
  it.skipIf(!DEEP)('25 MP lossless original, lossy mode: within the budget', { timeout: 600_000 }, async () => {
    const [W, H] = [5000, 5000];
    const input = makeLosslessWebp(W, H);
    const header = readHeader(input, 'webp');
    expect(header.webpLossless).toBe(true);
    expect(selectPath('webp', header, input.length, lossy(75))).toMatchObject({ path: 'wasm-rows', pipeline: 'webpBounded' });
    releaseLibwebp(0);
    libwebpPeakHeapBytes(true);
    const t0 = Date.now();
    const r = optimised(await optimiseImage(input, lossy(75)));
    const ms = Date.now() - t0;
    releaseLibwebp(0);
    const heap = libwebpPeakHeapBytes(true);
    const js = jsPeakBytes();
    console.log(
      `lossless WebP ${W}x${H}: ${input.length} -> ${r.bytesOut} bytes, q${r.qualityUsed}, ssim ${r.ssim?.toFixed(4)}; ` +
        `peak ${((heap + js + input.length + r.bytesOut) / MiB).toFixed(1)} MiB = heap ${(heap / MiB).toFixed(1)} + JS ${(js / MiB).toFixed(1)} + files ${((input.length + r.bytesOut) / MiB).toFixed(1)}; ${ms} ms`,
    );
    expect(r).toMatchObject({ format: 'webp', width: W, height: H, path: 'wasm-rows' });
    expect(heap + js + input.length + r.bytesOut).toBeLessThan(estimatePeakBytes('webpBounded', header, input.length));
    expect(heap + js + input.length + r.bytesOut).toBeLessThan(DEFAULT_BUDGET_BYTES);
  });
});

describe('WebP with real transparency above 4.5 MP (bounded alpha encoder)', () => {
  it('5 MP: smaller, alpha exact, within the estimate and the budget', { timeout: 120_000 }, () => check(2600, 1950));
  it.skipIf(!DEEP)('25 MP (the largest Shopify accepts): heap, JS and the files within the budget', { timeout: 600_000 }, () =>
    check(5000, 5000),
  );
});
