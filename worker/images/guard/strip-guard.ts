// The perceptual guard computed in strips of rows, for images too large to hold twice in the isolate.
// Same metric as guard/perceptual.ts (block SSIM over 8x8 blocks aligned at (0,0), partial edge blocks
// ignored, planes seen on white) and bit-identical scores: each block's sums are accumulated in the same
// order (row by row, left to right) and blocks are averaged in the same row-major order. State: five
// float64 sums per 8-pixel block column and plane (~200 B per 8 px of width), plus at display scale
// one row of box sums; no pixel rows are kept, so a 25 MP image is judged in a few hundred KB whatever
// strip height the codec hands over.
import { displayScale, GUARD_SSIM_FLOOR, PALETTE_MAX_BANDING, paletteFloor } from './perceptual';

/**
 * 'luma': lossy JPEG / opaque WebP (floor GUARD_SSIM_FLOOR). 'luma+alpha': WebP with transparency.
 * 'palette': PNG palette reduction: min(luma, Cb, Cr, alpha) >= paletteFloor(quality) and at most 1 %
 * of pixels off by more than 6 levels (banding).
 */
export type StripGuardLevel = 'luma' | 'luma+alpha' | 'palette';

/**
 * `scale`: the box factor of the display-scale metric (guard/perceptual.ts displayScale). Default: display
 * scale for 'luma'/'luma+alpha', 1 for 'palette'. A caller whose rows are already downscaled (JPEG
 * decoded with DCT scaling) passes the factor that is left.
 */
export type StripGuardOptions = { width: number; height: number; level: StripGuardLevel; quality?: number; scale?: number };
export type StripGuardResult = { score: number; pass: boolean; banding?: number; floor: number };
export type StripGuard = {
  push(
    originalRows: Uint8Array | Uint8ClampedArray,
    candidateRows: Uint8Array | Uint8ClampedArray,
    rows: number,
    channels: 1 | 3 | 4,
  ): void;
  result(): StripGuardResult;
  /** Already certain to fail (palette: more pixels off by > 6 than the whole image may have): stop early. */
  hopeless(): boolean;
  /** Rows pushed so far. */
  readonly rows: number;
};

const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;
const BLOCK = 8;
const N = BLOCK * BLOCK;

const enum P {
  Luma,
  Alpha,
  Cb,
  Cr,
}

export function createStripGuard(opts: StripGuardOptions): StripGuard {
  const { width, height, level } = opts;
  const planes: P[] = level === 'luma' ? [P.Luma] : level === 'luma+alpha' ? [P.Luma, P.Alpha] : [P.Luma, P.Cb, P.Cr, P.Alpha];
  const floor = level === 'palette' ? paletteFloor(opts.quality ?? 75) : GUARD_SSIM_FLOOR;
  const k = opts.scale ?? (level === 'palette' ? 1 : displayScale(width, height));
  const kk = k * k;
  const sw = Math.floor(width / k);
  const sh = Math.floor(height / k);
  const nbx = Math.floor(sw / BLOCK);
  const fullBlockRows = Math.floor(sh / BLOCK);
  // sums[plane][bx * 5 + k]: sa, sb, saa, sbb, sab of the block row in progress.
  const sums = planes.map(() => new Float64Array(nbx * 5));
  const totals = planes.map(() => 0);
  let blocks = 0;
  let row = 0;
  let bigErrors = 0;
  // Per-pixel plane values of one row, reused (the plane formulas below match guard/perceptual.ts exactly).
  const va = new Float64Array(width);
  const vb = new Float64Array(width);
  // Display scale (k > 1): per plane, the k x k box sums of the box row in progress, and its means.
  const boxA = planes.map(() => new Float64Array(k > 1 ? sw : 0));
  const boxB = planes.map(() => new Float64Array(k > 1 ? sw : 0));
  const ma = new Float64Array(k > 1 ? sw : 0);
  const mb = new Float64Array(k > 1 ? sw : 0);

  function planeRow(src: Uint8Array | Uint8ClampedArray, off: number, ch: number, plane: P, out: Float64Array): void {
    if (plane === P.Luma && ch === 3) {
      // Opaque RGB (the JPEG guard's rows): the general formula below with a = 1, the same bits, faster.
      for (let x = 0, i = off; x < width; x++, i += 3) out[x] = 0.299 * src[i]! + 0.587 * src[i + 1]! + 0.114 * src[i + 2]!;
      return;
    }
    for (let x = 0; x < width; x++) {
      const i = off + x * ch;
      const r = src[i]!;
      const g = ch >= 3 ? src[i + 1]! : r;
      const b = ch >= 3 ? src[i + 2]! : r;
      const a8 = ch === 4 ? src[i + 3]! : 255;
      if (plane === P.Alpha) {
        out[x] = a8;
        continue;
      }
      const a = a8 / 255;
      if (plane === P.Luma) {
        const y = 0.299 * r + 0.587 * g + 0.114 * b;
        out[x] = y * a + 255 * (1 - a);
        continue;
      }
      // onWhite(c) = c * (a8 / 255) + 255 * (1 - a8 / 255), as guard/perceptual.ts writes it.
      const wr = r * (a8 / 255) + 255 * (1 - a8 / 255);
      const wg = g * (a8 / 255) + 255 * (1 - a8 / 255);
      const wb = b * (a8 / 255) + 255 * (1 - a8 / 255);
      out[x] = plane === P.Cb ? 128 + 0.5 * wb - 0.169 * wr - 0.331 * wg : 128 + 0.5 * wr - 0.419 * wg - 0.081 * wb;
    }
  }

  function countBanding(o: Uint8Array | Uint8ClampedArray, c: Uint8Array | Uint8ClampedArray, off: number, ch: number): void {
    for (let x = 0; x < width; x++) {
      const i = off + x * ch;
      const wa = (ch === 4 ? o[i + 3]! : 255) / 255;
      const wb = (ch === 4 ? c[i + 3]! : 255) / 255;
      for (let k = 0; k < 3; k++) {
        const kk = ch >= 3 ? k : 0;
        const v1 = o[i + kk]! * wa + 255 * (1 - wa);
        const v2 = c[i + kk]! * wb + 255 * (1 - wb);
        if (Math.abs(v1 - v2) > 6) {
          bigErrors++;
          break;
        }
      }
    }
  }

  /** Adds one row of (display-scale) plane values to the block sums of the block row in progress. */
  function addRow(s: Float64Array, ra: Float64Array, rb: Float64Array): void {
    for (let bx = 0; bx < nbx; bx++) {
      const j = bx * 5;
      let sa = s[j]!,
        sb = s[j + 1]!,
        saa = s[j + 2]!,
        sbb = s[j + 3]!,
        sab = s[j + 4]!;
      for (let x = bx * BLOCK, end = x + BLOCK; x < end; x++) {
        const a = ra[x]!,
          b = rb[x]!;
        sa += a;
        sb += b;
        saa += a * a;
        sbb += b * b;
        sab += a * b;
      }
      s[j] = sa;
      s[j + 1] = sb;
      s[j + 2] = saa;
      s[j + 3] = sbb;
      s[j + 4] = sab;
    }
  }

  function finishBlockRow(): void {
    for (let p = 0; p < planes.length; p++) {
      const s = sums[p]!;
      let t = totals[p]!;
      for (let bx = 0; bx < nbx; bx++) {
        const j = bx * 5;
        const ma = s[j]! / N,
          mb = s[j + 1]! / N;
        const vA = s[j + 2]! / N - ma * ma,
          vB = s[j + 3]! / N - mb * mb,
          cov = s[j + 4]! / N - ma * mb;
        t += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (vA + vB + C2));
      }
      totals[p] = t;
      s.fill(0);
    }
    blocks += nbx;
  }

  return {
    get rows() {
      return row;
    },
    push(original, candidate, rows, channels) {
      const stride = width * channels;
      if (original.length < rows * stride || candidate.length < rows * stride)
        throw new RangeError(`strip guard: ${rows} rows of ${stride} bytes expected`);
      for (let r = 0; r < rows; r++, row++) {
        if (row >= height) throw new RangeError('strip guard: more rows than the image height');
        const off = r * stride;
        if (level === 'palette') countBanding(original, candidate, off, channels);
        // Rows below the last full block row (of the display-scale image) are ignored, as the
        // whole-image SSIM ignores them.
        const srow = Math.floor(row / k);
        if (Math.floor(srow / BLOCK) >= fullBlockRows) continue;
        const boxDone = row % k === k - 1;
        for (let p = 0; p < planes.length; p++) {
          planeRow(original, off, channels, planes[p]!, va);
          planeRow(candidate, off, channels, planes[p]!, vb);
          if (k === 1) {
            addRow(sums[p]!, va, vb);
            continue;
          }
          // Box sums in the order the whole-image metric adds them: row by row, left to right.
          const A = boxA[p]!,
            B = boxB[p]!;
          for (let X = 0, x = 0; X < sw; X++) {
            let a = A[X]!,
              b = B[X]!;
            for (let dx = 0; dx < k; dx++, x++) {
              a += va[x]!;
              b += vb[x]!;
            }
            A[X] = a;
            B[X] = b;
          }
          if (!boxDone) continue;
          for (let X = 0; X < sw; X++) {
            ma[X] = A[X]! / kk;
            mb[X] = B[X]! / kk;
          }
          A.fill(0);
          B.fill(0);
          addRow(sums[p]!, ma, mb);
        }
        if (boxDone && srow % BLOCK === BLOCK - 1) finishBlockRow();
      }
    },
    hopeless() {
      return level === 'palette' && bigErrors > PALETTE_MAX_BANDING * width * height;
    },
    result() {
      if (row !== height) throw new RangeError(`strip guard: ${row} of ${height} rows pushed`);
      let score = 1;
      if (blocks > 0) for (let p = 0; p < planes.length; p++) score = Math.min(score, totals[p]! / blocks);
      if (level !== 'palette') return { score, pass: score >= floor, floor };
      const banding = bigErrors / (width * height);
      return { score, pass: score >= floor && banding <= PALETTE_MAX_BANDING, banding, floor };
    },
  };
}
