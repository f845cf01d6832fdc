import { describe, expect, it } from 'vitest';
import { buildPalette } from '../../../worker/images/png/quantise';

// The median cut as it was before issue 24's CPU work (every box re-measured on every split, a comparator
// sort per split): the faster buildPalette must give the same palette, entry for entry.
function referencePalette(d: Uint8Array, colours = 256): Uint8ClampedArray {
  const samples = new Uint32Array(d.length >> 2);
  for (let k = 0; k < samples.length; k++) samples[k] = k * 4;
  const boxes: { idx: Uint32Array; lo: number; hi: number }[] = [{ idx: samples, lo: 0, hi: samples.length }];
  const rangeOf = (b: { idx: Uint32Array; lo: number; hi: number }): [number, number] => {
    let best = 0,
      bestC = 0;
    for (let c = 0; c < 4; c++) {
      let mn = 255,
        mx = 0;
      for (let k = b.lo; k < b.hi; k++) {
        const v = d[b.idx[k]! + c]!;
        if (v < mn) mn = v;
        if (v > mx) mx = v;
      }
      if (mx - mn > best) {
        best = mx - mn;
        bestC = c;
      }
    }
    return [best, bestC];
  };
  while (boxes.length < colours) {
    let pick = -1,
      score = 0,
      channel = 0;
    for (let i = 0; i < boxes.length; i++) {
      const b = boxes[i]!;
      if (b.hi - b.lo < 2) continue;
      const [range, c] = rangeOf(b);
      const sc = range * Math.sqrt(b.hi - b.lo);
      if (sc > score) {
        score = sc;
        pick = i;
        channel = c;
      }
    }
    if (pick < 0) break;
    const b = boxes[pick]!;
    const part = Array.from(b.idx.subarray(b.lo, b.hi)).sort((x, y) => d[x + channel]! - d[y + channel]!);
    b.idx.set(part, b.lo);
    const mid = b.lo + (part.length >> 1);
    boxes.splice(pick, 1, { idx: b.idx, lo: b.lo, hi: mid }, { idx: b.idx, lo: mid, hi: b.hi });
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

/** Deterministic pseudo-random bytes (xorshift). */
function bytes(n: number, seed: number, f: (r: () => number, i: number) => number): Uint8Array {
  let x = seed >>> 0 || 1;
  const r = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
  const out = new Uint8Array(n * 4);
  for (let i = 0; i < out.length; i++) out[i] = f(r, i) & 0xff;
  return out;
}

describe('buildPalette (median cut)', () => {
  const cases: [string, Uint8Array][] = [
    // A photo-like sample: smooth gradients plus noise, opaque.
    ['photo-like', bytes(60000, 7, (r, i) => ((i & 3) === 3 ? 255 : ((i >> 2) % 251) + (r() % 9)))],
    // Many ties: few distinct values per channel (the sort's order of equal keys decides the split).
    ['ties', bytes(30000, 3, (r) => (r() % 4) * 60)],
    // Transparency: alpha varies, some entries below 8 (one clean transparent entry).
    ['alpha', bytes(20000, 11, (r, i) => ((i & 3) === 3 ? r() % 256 : r() % 200))],
    // Fewer samples than colours, and a single colour.
    ['tiny', bytes(100, 5, (r) => r())],
    ['flat', bytes(5000, 1, () => 128)],
  ];
  for (const [name, sample] of cases) {
    it(`gives the reference palette: ${name}`, () => {
      for (const colours of [256, 16])
        expect(Array.from(buildPalette(sample, colours))).toEqual(Array.from(referencePalette(sample, colours)));
    });
  }
});
