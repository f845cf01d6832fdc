// Palette reduction for lossy PNG: median cut over a sample of pixels (RGBA, alpha-aware), then each
// pixel mapped to its nearest palette colour through a cache keyed on 6-6-6-4 bits. OxiPNG then writes
// the <= 256-colour result as an indexed PNG. Whether the result is kept is decided by the caller with
// the perceptual score (never by eye).
import type { Rgba } from '../types';

const MAX_SAMPLES = 1 << 18;

/** Distinct colours, stopping once more than `limit` are seen. */
export function countColours(img: Rgba, limit = 256): number {
  const seen = new Set<number>();
  const px = new Uint32Array(img.data.buffer, img.data.byteOffset, img.width * img.height);
  for (let i = 0; i < px.length; i++) {
    seen.add(px[i]!);
    if (seen.size > limit) return seen.size;
  }
  return seen.size;
}

/** A box of samples idx[lo, hi); its widest channel and that channel's range, measured once (a box never changes until it is split). */
type Box = { idx: Uint32Array; lo: number; hi: number; range: number; channel: number };

/** The median-cut sample takes every step-th pixel (row-major), at most about MAX_SAMPLES of them. */
export function sampleStep(pixels: number): number {
  return Math.max(1, Math.floor(pixels / MAX_SAMPLES));
}

export function quantise(img: Rgba, colours = 256): Rgba {
  const d = img.data;
  const n = img.width * img.height;
  const step = sampleStep(n);
  const sample = new Uint8Array(Math.ceil(n / step) * 4);
  let s = 0;
  for (let p = 0; p < n; p += step, s += 4) sample.set(d.subarray(p * 4, p * 4 + 4), s);
  const map = createPaletteMapper(buildPalette(sample.subarray(0, s), colours));
  const out = new Uint8ClampedArray(d.length);
  map.rgba(d, out, n);
  return { data: out, width: img.width, height: img.height };
}

/**
 * Median cut over packed RGBA samples (4 bytes each): the box with the widest channel range (weighted by
 * the square root of its population) is split at its median until there are `colours` boxes; each
 * palette entry is its box's mean. Returns packed RGBA entries.
 */
export function buildPalette(d: Uint8Array, colours = 256): Uint8ClampedArray {
  const samples = new Uint32Array(d.length >> 2);
  for (let k = 0; k < samples.length; k++) samples[k] = k * 4;
  const box = (lo: number, hi: number): Box => {
    // The channel with the widest range (the first of equals) and that range.
    let range = 0,
      channel = 0;
    for (let c = 0; c < 4; c++) {
      let mn = 255,
        mx = 0;
      for (let k = lo; k < hi; k++) {
        const v = d[samples[k]! + c]!;
        if (v < mn) mn = v;
        if (v > mx) mx = v;
      }
      if (mx - mn > range) {
        range = mx - mn;
        channel = c;
      }
    }
    return { idx: samples, lo, hi, range, channel };
  };
  const boxes: Box[] = [box(0, samples.length)];
  // Stable counting sort of one box by one channel: the order a stable comparison sort gives (ties keep
  // their order), in O(n + 256) instead of O(n log n) comparator calls.
  const counts = new Uint32Array(257);
  const sorted = new Uint32Array(samples.length);
  const sortBox = (b: Box): void => {
    counts.fill(0);
    for (let k = b.lo; k < b.hi; k++) counts[d[samples[k]! + b.channel]! + 1]!++;
    for (let v = 1; v <= 256; v++) counts[v]! += counts[v - 1]!;
    for (let k = b.lo; k < b.hi; k++) {
      const s = samples[k]!;
      sorted[counts[d[s + b.channel]!]!++] = s;
    }
    samples.set(sorted.subarray(0, b.hi - b.lo), b.lo);
  };
  while (boxes.length < colours) {
    let pick = -1,
      score = 0;
    for (let i = 0; i < boxes.length; i++) {
      const b = boxes[i]!;
      if (b.hi - b.lo < 2) continue;
      const sc = b.range * Math.sqrt(b.hi - b.lo);
      if (sc > score) {
        score = sc;
        pick = i;
      }
    }
    if (pick < 0) break;
    const b = boxes[pick]!;
    sortBox(b);
    const mid = b.lo + ((b.hi - b.lo) >> 1);
    boxes.splice(pick, 1, box(b.lo, mid), box(mid, b.hi));
  }
  const palette = new Uint8ClampedArray(boxes.length * 4);
  boxes.forEach((b, i) => {
    const sum = [0, 0, 0, 0];
    for (let k = b.lo; k < b.hi; k++) for (let c = 0; c < 4; c++) sum[c]! += d[b.idx[k]! + c]!;
    const cnt = Math.max(1, b.hi - b.lo);
    for (let c = 0; c < 4; c++) palette[i * 4 + c] = sum[c]! / cnt;
    if (palette[i * 4 + 3]! < 8) palette.fill(0, i * 4, i * 4 + 4); // one clean fully transparent entry
  });
  return palette;
}

export type PaletteMapper = {
  palette: Uint8ClampedArray;
  /** Nearest palette index of each pixel (RGBA in) -> indices out, and optionally the palette colours. */
  indices(rgba: Uint8Array | Uint8ClampedArray, out: Uint8Array, pixels: number, colours?: Uint8Array | Uint8ClampedArray): void;
  rgba(rgba: Uint8Array | Uint8ClampedArray, out: Uint8Array | Uint8ClampedArray, pixels: number): void;
};

/** Maps pixels to their nearest palette entry through a cache keyed on 6-6-6-4 bits (8 MB). */
export function createPaletteMapper(palette: Uint8ClampedArray): PaletteMapper {
  const cache = new Int16Array(1 << 22).fill(-1);
  const count = palette.length >> 2;
  const nearest = (d: Uint8Array | Uint8ClampedArray, i: number): number => {
    const r = d[i]!,
      g = d[i + 1]!,
      b = d[i + 2]!,
      a = d[i + 3]!;
    const key = ((r >> 2) << 16) | ((g >> 2) << 10) | ((b >> 2) << 4) | (a >> 4);
    let p = cache[key]!;
    if (p < 0) {
      let best = Infinity;
      p = 0;
      for (let k = 0; k < count; k++) {
        const o = k * 4;
        // Colour differences count less where the pixel is nearly transparent.
        const dr = palette[o]! - r,
          dg = palette[o + 1]! - g,
          db = palette[o + 2]! - b,
          da = palette[o + 3]! - a;
        const dist = ((dr * dr * 3 + dg * dg * 4 + db * db * 2) * (a + 1)) / 256 + da * da * 6;
        if (dist < best) {
          best = dist;
          p = k;
        }
      }
      cache[key] = p;
    }
    return p;
  };
  return {
    palette,
    indices(d, out, pixels, colours) {
      for (let x = 0, i = 0; x < pixels; x++, i += 4) {
        const p = nearest(d, i);
        out[x] = p;
        if (colours) {
          colours[i] = palette[p * 4]!;
          colours[i + 1] = palette[p * 4 + 1]!;
          colours[i + 2] = palette[p * 4 + 2]!;
          colours[i + 3] = palette[p * 4 + 3]!;
        }
      }
    },
    rgba(d, out, pixels) {
      for (let x = 0, i = 0; x < pixels; x++, i += 4) {
        const p = nearest(d, i) * 4;
        out.set(palette.subarray(p, p + 4), i);
      }
    },
  };
}
