// Resizing on request (decisions.md "Image levels name a look": the merchant may cap the long side at
// 2048 / 2880 / 4096 px). A streaming, gamma-aware Lanczos-3 downscale of packed RGB rows: each input row
// is converted to linear light (sRGB curve), filtered horizontally into one row of the output width, kept
// in a ring of as many rows as the vertical filter spans, and every output row is filtered vertically as
// soon as its last input row has arrived, then converted back to sRGB. Memory: the ring (about
// 6 x scale rows of the output width in float32: ~0.5 MB from 6000 to 2048 px) plus one output strip;
// the image is never held. Downscaling only: images within the limit are left at their size.

/** The long-side limits a merchant can choose (0 / absent: off). */
export const RESIZE_LONG_SIDES = [2048, 2880, 4096] as const;

/** The output size when the long side exceeds `longSide`, else null (no resize). */
export function resizedSize(
  width: number,
  height: number,
  longSide: number | undefined,
): { width: number; height: number } | null {
  if (!longSide || longSide <= 0 || Math.max(width, height) <= longSide) return null;
  const s = longSide / Math.max(width, height);
  return {
    width: width >= height ? longSide : Math.max(1, Math.round(width * s)),
    height: height > width ? longSide : Math.max(1, Math.round(height * s)),
  };
}

const LOBES = 3;

function lanczos(x: number): number {
  if (x === 0) return 1;
  if (x <= -LOBES || x >= LOBES) return 0;
  const px = Math.PI * x;
  return (LOBES * Math.sin(px) * Math.sin(px / LOBES)) / (px * px);
}

/** For each output index: the first input index and the normalised weights (edge taps merged, contiguous). */
function taps(inSize: number, outSize: number): { start: Int32Array; count: Int32Array; weights: Float32Array; max: number } {
  const scale = inSize / outSize;
  const support = LOBES * Math.max(1, scale);
  const start = new Int32Array(outSize);
  const count = new Int32Array(outSize);
  const list: number[][] = [];
  let max = 0;
  for (let j = 0; j < outSize; j++) {
    const c = (j + 0.5) * scale - 0.5;
    const lo = Math.max(0, Math.floor(c - support) + 1);
    const hi = Math.min(inSize - 1, Math.ceil(c + support) - 1);
    const w: number[] = [];
    let sum = 0;
    for (let i = lo; i <= hi; i++) {
      const v = lanczos((i - c) / Math.max(1, scale));
      w.push(v);
      sum += v;
    }
    for (let k = 0; k < w.length; k++) w[k]! /= sum;
    start[j] = lo;
    count[j] = w.length;
    max = Math.max(max, w.length);
    list.push(w);
  }
  const weights = new Float32Array(outSize * max);
  list.forEach((w, j) => weights.set(w, j * max));
  return { start, count, weights, max };
}

const TO_LINEAR = new Float32Array(256);
for (let i = 0; i < 256; i++) {
  const c = i / 255;
  TO_LINEAR[i] = c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}
const LEVELS = 4096;
const TO_SRGB = new Uint8Array(LEVELS + 1);
for (let i = 0; i <= LEVELS; i++) {
  const l = i / LEVELS;
  const c = l <= 0.0031308 ? l * 12.92 : 1.055 * l ** (1 / 2.4) - 0.055;
  TO_SRGB[i] = Math.max(0, Math.min(255, Math.round(c * 255)));
}

/**
 * Streaming downscale of packed RGB rows (or RGBA with `channels` 4: straight alpha, filtered
 * premultiplied in linear light so transparent pixels lend no colour to their neighbours); `emit`
 * receives strips of up to `strip` output rows.
 */
export class RowResizer {
  private readonly h: ReturnType<typeof taps>;
  private readonly v: ReturnType<typeof taps>;
  private readonly ring: Float32Array[];
  private readonly lin: Float32Array;
  private readonly out: Uint8Array;
  private inRow = 0;
  private outRow = 0;
  private pending = 0;

  constructor(
    readonly inWidth: number,
    readonly inHeight: number,
    readonly width: number,
    readonly height: number,
    private readonly emit: (rows: Uint8Array, count: number, y: number) => void,
    private readonly strip = 16,
    private readonly channels: 3 | 4 = 3,
  ) {
    this.h = taps(inWidth, width);
    this.v = taps(inHeight, height);
    this.ring = Array.from({ length: this.v.max + 1 }, () => new Float32Array(width * channels));
    this.lin = new Float32Array(inWidth * channels);
    this.out = new Uint8Array(width * channels * strip);
  }

  /** Adds `count` input rows (packed RGB or RGBA, top to bottom). */
  push(rows: Uint8Array, count: number): void {
    if (this.channels === 4) {
      this.pushRgba(rows, count);
      return;
    }
    const { start, count: n, weights, max } = this.h;
    const inW = this.inWidth;
    for (let r = 0; r < count; r++) {
      const src = r * inW * 3;
      const lin = this.lin;
      for (let i = 0; i < inW * 3; i++) lin[i] = TO_LINEAR[rows[src + i]!]!;
      const dst = this.ring[this.inRow % this.ring.length]!;
      for (let x = 0; x < this.width; x++) {
        let a = 0,
          b = 0,
          c = 0;
        const s0 = start[x]!,
          w0 = x * max;
        for (let k = 0, m = n[x]!; k < m; k++) {
          const w = weights[w0 + k]!,
            p = (s0 + k) * 3;
          a += w * lin[p]!;
          b += w * lin[p + 1]!;
          c += w * lin[p + 2]!;
        }
        dst[x * 3] = a;
        dst[x * 3 + 1] = b;
        dst[x * 3 + 2] = c;
      }
      this.inRow++;
      this.drain();
    }
  }

  private pushRgba(rows: Uint8Array, count: number): void {
    const { start, count: n, weights, max } = this.h;
    const inW = this.inWidth;
    const lin = this.lin;
    for (let r = 0; r < count; r++) {
      const src = r * inW * 4;
      for (let i = 0; i < inW * 4; i += 4) {
        const a = rows[src + i + 3]! / 255;
        lin[i] = TO_LINEAR[rows[src + i]!]! * a;
        lin[i + 1] = TO_LINEAR[rows[src + i + 1]!]! * a;
        lin[i + 2] = TO_LINEAR[rows[src + i + 2]!]! * a;
        lin[i + 3] = a;
      }
      const dst = this.ring[this.inRow % this.ring.length]!;
      for (let x = 0; x < this.width; x++) {
        let a = 0,
          b = 0,
          c = 0,
          d = 0;
        const s0 = start[x]!,
          w0 = x * max;
        for (let k = 0, m = n[x]!; k < m; k++) {
          const w = weights[w0 + k]!,
            p = (s0 + k) * 4;
          a += w * lin[p]!;
          b += w * lin[p + 1]!;
          c += w * lin[p + 2]!;
          d += w * lin[p + 3]!;
        }
        dst[x * 4] = a;
        dst[x * 4 + 1] = b;
        dst[x * 4 + 2] = c;
        dst[x * 4 + 3] = d;
      }
      this.inRow++;
      this.drain();
    }
  }

  /** Emits what is left (call after the last input row). */
  finish(): void {
    if (this.inRow !== this.inHeight) throw new Error(`resizer got ${this.inRow} of ${this.inHeight} rows`);
    this.drain();
    this.flush();
  }

  private drain(): void {
    const { start, count, weights, max } = this.v;
    const W = this.width * this.channels;
    while (this.outRow < this.height && start[this.outRow]! + count[this.outRow]! <= this.inRow) {
      const j = this.outRow;
      const o = this.pending * W;
      const s0 = start[j]!,
        w0 = j * max;
      if (this.channels === 4) this.rowRgba(o, s0, w0, count[j]!);
      else
        for (let x = 0; x < W; x++) {
          let acc = 0;
          for (let k = 0, m = count[j]!; k < m; k++) acc += weights[w0 + k]! * this.ring[(s0 + k) % this.ring.length]![x]!;
          const l = acc <= 0 ? 0 : acc >= 1 ? LEVELS : Math.round(acc * LEVELS);
          this.out[o + x] = TO_SRGB[l]!;
        }
      this.outRow++;
      if (++this.pending === this.strip) this.flush();
    }
  }

  /** One RGBA output row: vertical filter of the premultiplied ring, then back to straight sRGB. */
  private rowRgba(o: number, s0: number, w0: number, m: number): void {
    const weights = this.v.weights;
    const ring = this.ring;
    const acc = [0, 0, 0, 0];
    for (let x = 0; x < this.width * 4; x += 4) {
      acc[0] = acc[1] = acc[2] = acc[3] = 0;
      for (let k = 0; k < m; k++) {
        const w = weights[w0 + k]!;
        const row = ring[(s0 + k) % ring.length]!;
        acc[0] += w * row[x]!;
        acc[1] += w * row[x + 1]!;
        acc[2] += w * row[x + 2]!;
        acc[3] += w * row[x + 3]!;
      }
      const a = Math.min(1, Math.max(0, acc[3]));
      const alpha = Math.round(a * 255);
      this.out[o + x + 3] = alpha;
      for (let c = 0; c < 3; c++) {
        const v = alpha === 0 ? 0 : acc[c]! / a;
        this.out[o + x + c] = TO_SRGB[v <= 0 ? 0 : v >= 1 ? LEVELS : Math.round(v * LEVELS)]!;
      }
    }
  }

  private flush(): void {
    if (this.pending === 0) return;
    this.emit(this.out, this.pending, this.outRow - this.pending);
    this.pending = 0;
  }
}

/** A whole straight-RGBA image through the streaming resizer (the small-image PNG and WebP paths). */
export function resizeRgbaImage(
  img: { data: Uint8ClampedArray; width: number; height: number },
  target: { width: number; height: number },
): { data: Uint8ClampedArray; width: number; height: number } {
  const out = new Uint8ClampedArray(target.width * target.height * 4);
  const rs = new RowResizer(
    img.width,
    img.height,
    target.width,
    target.height,
    (rows, n, y) => out.set(rows.subarray(0, n * target.width * 4), y * target.width * 4),
    16,
    4,
  );
  const src = new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  for (let y = 0; y < img.height; y += 16) {
    const n = Math.min(16, img.height - y);
    rs.push(src.subarray(y * img.width * 4, (y + n) * img.width * 4), n);
  }
  rs.finish();
  return { data: out, width: target.width, height: target.height };
}
