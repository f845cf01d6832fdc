// Large WebPs (25 MP) through the bounded libwebp path (our own build, webp/libwebp.ts) inside workerd, within the
// isolate's memory. The WebPs are made at test time (a fixture photo upscaled with grain, written into
// our encoder's YUV picture strip by strip), so nothing large is committed.
/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import { optimiseImage } from '../../../worker/images';
import { DEFAULT_BUDGET_BYTES, estimatePeakBytes, selectPath } from '../../../worker/images/budget';
import wasmModule from '../../../worker/images/codecs/libwebp.wasm';
import recordedHash from '../../../worker/images/codecs/libwebp.wasm.sha256?raw';
import {
  WebpPicture,
  libwebpHeapBytes,
  libwebpPeakHeapBytes,
  optimiseWebpBounded,
  readWebpFeatures,
  releaseLibwebp,
} from '../../../worker/images/webp/libwebp';
import { readHeader } from '../../../worker/images/sniff';
import { decodeWebp } from '../../../worker/images/jsquash';
import { GUARD_SSIM_FLOOR, ssimScore } from '../../../worker/images/guard/perceptual';
import { grainyUpscaleStrips, lossy, makeImage, optimised, pngOf } from './helpers';
import { placeWatermark } from '../../../worker/images/pixels/watermark';

const wasmBytes = import.meta.glob<string>('../../../worker/images/codecs/libwebp.wasm', {
  query: '?url&inline',
  import: 'default',
  eager: true,
});

/** width x height photo-like WebP: bilinear upscale of the rocket photo plus grain; optional alpha ramp. */
function makeWebp(width: number, height: number, quality: number, alpha = false): Uint8Array {
  const pic = new WebpPicture(width, height, alpha);
  const ch: 3 | 4 = alpha ? 4 : 3;
  const alphaRamp = (x: number) => (x < width / 4 ? 0 : Math.min(255, Math.round(((x - width / 4) / (width / 2)) * 255)));
  grainyUpscaleStrips(width, height, ch, (y0, rows, n) => pic.setRgbRows(y0, rows, n, ch), alphaRamp);
  const out = pic.encode(quality, { method: 0 }); // fast to make
  pic.free();
  return out;
}

async function sha256(b: Uint8Array): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', b))].map((x) => x.toString(16).padStart(2, '0')).join('');
}

describe('libwebp.wasm', () => {
  it('is the binary npm run build:codecs records (sha256 in libwebp.wasm.sha256), importing only js_emit and js_rows', async () => {
    const url = Object.values(wasmBytes)[0]!;
    const bytes = Uint8Array.from(atob(url.slice(url.indexOf(',') + 1)), (c) => c.charCodeAt(0));
    expect(await sha256(bytes)).toBe(recordedHash.trim());
    expect(
      WebAssembly.Module.imports(wasmModule)
        .map((i) => `${i.module}.${i.name}`)
        .sort(),
    ).toEqual(['env.emscripten_notify_memory_growth', 'env.js_emit', 'env.js_rows']);
  });
});

describe('large WebP in the isolate (bounded libwebp path)', () => {
  it(
    '25 MP opaque WebP (the largest Shopify accepts): smaller, decodes, guard ran, heap within the estimate and the budget',
    { timeout: 120_000 },
    async () => {
      const [W, H] = [5000, 5000];
      const input = makeWebp(W, H, 95);
      const header = readHeader(input, 'webp');
      // Beyond jSquash's whole-image budget: the bounded path is chosen.
      const choice = selectPath('webp', header, input.length, lossy(75));
      expect(choice).toMatchObject({ path: 'wasm-rows', pipeline: 'webpBounded' });
      releaseLibwebp(0);
      libwebpPeakHeapBytes(true);
      const t0 = Date.now();
      const r = optimised(await optimiseImage(input, lossy(75)));
      const ms = Date.now() - t0;
      expect(libwebpHeapBytes()).toBe(0); // trimCodecs dropped the 80 MiB heap: nothing kept for the next job
      releaseLibwebp(0);
      const heap = libwebpPeakHeapBytes(true);
      console.log(
        `webp-large 25 MP: ${input.length} -> ${r.bytesOut} bytes, q${r.qualityUsed}, ssim ${r.ssim?.toFixed(4)}, heap peak ${(heap / 2 ** 20).toFixed(1)} MiB (${(heap / (W * H)).toFixed(2)} B/px), ${ms} ms`,
      );
      expect(r).toMatchObject({ format: 'webp', width: W, height: H, path: 'wasm-rows' });
      expect(r.bytesOut).toBeLessThan(r.bytesIn * 0.8);
      // The strip guard ran on all 25 MP; under the floor it raised the quality one step (guard/policy.ts).
      expect(r.ssim).toBeGreaterThan(0.85);
      expect(r.qualityUsed).toBe(r.ssim! < GUARD_SSIM_FLOOR ? 80 : 75);
      expect(heap).toBeLessThan(estimatePeakBytes('webpBounded', header, input.length));
      expect(heap + input.length + r.bytesOut * 2).toBeLessThan(DEFAULT_BUDGET_BYTES);
      // The output is a valid WebP of the full size and decodes whole.
      expect(readWebpFeatures(r.bytes)).toMatchObject({ width: W, height: H, hasAlpha: false });
      const back = new WebpPicture(W, H, false);
      back.decode(r.bytes);
      back.free();
      releaseLibwebp(0);
    },
  );

  it(
    'WebP with alpha keeps its alpha under the luma+alpha guard; a failing floor raises the quality once',
    { timeout: 60_000 },
    async () => {
      const [W, H] = [1600, 1200];
      const input = makeWebp(W, H, 95, true);
      expect(readWebpFeatures(input)).toMatchObject({ hasAlpha: true });
      releaseLibwebp(0);
      libwebpPeakHeapBytes(true);
      const out = optimiseWebpBounded(input, 75, 'on');
      releaseLibwebp(0);
      // Real transparency: our alpha encoder reads the plane in place, so the heap is the path's own estimate.
      expect(libwebpPeakHeapBytes(true)).toBeLessThan(estimatePeakBytes('webpBounded', readHeader(input, 'webp'), input.length));
      expect(out.bytes.length).toBeLessThan(input.length);
      // The Y-plane strip guard scores what the whole-image guard scores on the decoded RGBA (luma on white + alpha).
      const whole = ssimScore(await decodeWebp(input), await decodeWebp(out.bytes), true);
      expect(out.score!).toBeCloseTo(whole, 2);
      const back = new WebpPicture(W, H, true);
      back.decode(out.bytes);
      const { a, aStride } = back.planes();
      expect(a![10 * aStride + 5]).toBe(0); // transparent quarter stays transparent (alpha is lossless)
      expect(a![10 * aStride + W - 1]).toBe(255);
      back.free();
      // Very low quality on grainy content: the guard scores under the floor and raises one step.
      const low = optimiseWebpBounded(input, 5, 'on');
      const off = optimiseWebpBounded(input, 5, 'off');
      expect(low.score).not.toBeNull();
      expect(low.raised).toBe(true);
      expect(low.qualityUsed).toBe(10);
      expect(off.score).toBeNull();
      releaseLibwebp(0);
    },
  );

  it('a transparent WebP whose alpha plane cannot be held keeps the original, with the reason', async () => {
    const input = makeWebp(1600, 1200, 95, true);
    const header = readHeader(input, 'webp');
    // The path fits, but leaves no room for the alpha chunk: the original is kept (never larger).
    const budgetBytes = estimatePeakBytes('webpBounded', header, input.length);
    expect(selectPath('webp', header, input.length, lossy(75), budgetBytes)).toMatchObject({ path: 'wasm-rows' });
    const r = await optimiseImage(input, lossy(75), { budgetBytes });
    expect(r).toMatchObject({ kind: 'already-optimal', inputFormat: 'webp' });
    expect('reason' in r && r.reason).toMatch(
      /alpha plane alone compresses to .* MB, not smaller than the original; original kept/,
    );
    // With a watermark the output is needed: unchanged, with the reason.
    const logo = pngOf(makeImage(100, 50, () => [255, 0, 0, 255]));
    const settings = lossy(75, { watermark: { bytes: logo, position: 'b_r', heightFraction: 0.1, opacity: 1 } });
    const w = await optimiseImage(input, settings, {
      budgetBytes: estimatePeakBytes('webpBounded', header, input.length, settings),
    });
    expect(w).toMatchObject({ kind: 'unsupported', inputFormat: 'webp' });
    expect('reason' in w && w.reason).toMatch(/alpha plane alone compresses to .* more than the isolate has left/);
    releaseLibwebp(0);
  });

  it(
    '4 MP WebP with a watermark: the logo is drawn into the picture strip by strip and survives the re-encode',
    { timeout: 60_000 },
    async () => {
      const [W, H] = [2400, 1800];
      const input = makeWebp(W, H, 95);
      const logo = pngOf(makeImage(100, 50, () => [255, 0, 0, 255]));
      const settings = lossy(75, { watermark: { bytes: logo, position: 'b_r', heightFraction: 0.1, opacity: 1 } });
      expect(selectPath('webp', readHeader(input, 'webp'), input.length, settings)).toMatchObject({
        path: 'wasm-rows',
        pipeline: 'webpBounded',
      });
      const r = optimised(await optimiseImage(input, settings));
      expect(r).toMatchObject({ format: 'webp', watermarked: true, width: W, height: H });
      const back = new WebpPicture(W, H, false);
      back.decode(r.bytes);
      const rows = new Uint8Array(W * 4 * 2);
      const at = placeWatermark(W, H, 100, 50, 'b_r', 0.1);
      back.getRgbaRows((at.y + (at.height >> 1)) & ~1, 2, rows); // middle of the logo: red
      const mid = (at.x + (at.width >> 1)) * 4;
      expect(rows[mid]!).toBeGreaterThan(200);
      expect(rows[mid + 1]!).toBeLessThan(60);
      back.getRgbaRows(10, 2, rows); // far from the logo: the photo (the rocket's sky is not red)
      expect(rows[mid]! - rows[mid + 1]!).toBeLessThan(100);
      back.free();
      releaseLibwebp(0);
    },
  );

  it('corrupt large WebP is reported as a decode error, not a crash', async () => {
    const input = makeWebp(800, 600, 90);
    const cut = input.slice(0, input.length >> 1);
    expect(() => optimiseWebpBounded(cut, 75, 'on')).toThrow(/decode failed/);
    releaseLibwebp(0);
  });
});
