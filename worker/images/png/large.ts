// PNG originals too large to hold whole in the isolate (budget.ts decides): everything row by row.
// Decoding is png/stream.ts (native inflate + unfiltering), encoding png/writer.ts (native deflate),
// JPEG rows jpeg/rows.ts, judging guard/strip-guard.ts. Each pass re-decodes the original instead of keeping
// pixels, so memory is a few strips, the palette tools (8 MB) and the compressed outputs.
//   pass 1 (stats): opaque? grey? <= 256 colours? and the median-cut sample (gathered during the JPG's
//                   encode when the JPG comes first: no pass of its own)
//   pass 2 (encode): lossless PNG in the smallest exact colour type, and (lossy, > 256 colours) the
//                    palette PNG judged by the palette guard
//   PNG to JPG:      JPEG from rows (MozJPEG, streaming), then the guard reads it back row by row
//                    against the original (once more if the quality is raised)
// With PNG to JPG the JPEG usually comes before pass 2 (where that cannot change the encoder's memory plan),
// and pass 2 then writes only while a PNG could still beat it: on photos a few strips instead of all.
// Lossless without watermark: the original with its metadata chunks removed competes with a row-wise
// re-encode (16-bit kept).
import type { Candidate } from '../candidates';
import { hold } from '../ledger';
import { GUARD_MAX_QUALITY, GUARD_MAX_RAISE, GUARD_STEP, type GuardMode } from '../guard/policy';
import { DEFAULT_BUDGET_BYTES, JPEG_STAGE_SLACK, PNG_ROWS } from '../budget';
import { createJpegRowWriter, jpegWriterBytes, openJpegRows } from '../jpeg/rows';
import { bandedWriterHeapBytes, createBandedJpegWriter } from '../jpeg/banded';
import { JpegOutputTooLarge } from '../jpeg/mozjpeg';
import { strippedPngLength, stripPngMetadata } from './chunks';
import { forEachRawRow, forEachRgbaStrip, readPngInfo, stripRowsFor, type PngInfo } from './stream';
import { createPngWriter, type PngWriter, type PngWriterOptions } from './writer';
import { buildPalette, createPaletteMapper, sampleStep } from './quantise';
import type { HeaderInfo } from '../sniff';
import { createStripGuard } from '../guard/strip-guard';
import type { EngineSettings } from '../types';
import { LOGO_MAX_BYTES, placeLogo } from '../pixels/watermark';
import { resizedSize, RowResizer } from '../pixels/resize';

type Stats = { opaque: boolean; grey: boolean; colours: Map<number, number> | null; samples: Uint8Array };

export async function largePngCandidates(
  input: Uint8Array,
  header: HeaderInfo,
  s: EngineSettings,
  guard: GuardMode,
  budgetBytes = DEFAULT_BUDGET_BYTES,
): Promise<{ best: Candidate | null; note?: string }> {
  const info = readPngInfo(input);
  // Resize on request (pixels/resize.ts): every pass reads the original resized, strip by strip, and the
  // logo is placed on the resized image.
  const target = resizedSize(info.width, info.height, s.resizeLongSide);
  const { width: W, height: H } = target ?? info;
  const base = { format: 'png' as const, width: W, height: H, convertedToJpg: false, watermarked: Boolean(s.watermark) };
  // The original minus its metadata chunks competes without a watermark or resize; it is built only if it wins.
  const stripped = s.watermark || target ? null : { ...base, bytes: new Uint8Array(0), length: strippedPngLength(input) };
  const finishPng = (c: (Candidate & { length?: number }) | null): Candidate | null =>
    c && c === stripped ? { ...base, bytes: stripPngMetadata(input) } : c;
  const pick = (cs: (Candidate | null)[]) => {
    let best: (Candidate & { length?: number }) | null = null;
    for (const c of [stripped, ...cs]) if (c && (!best || size(c) < size(best))) best = c;
    return best;
  };
  if (s.mode === 'lossless' && !s.watermark && !s.pngToJpg && !target && info.bitDepth === 16) {
    return { best: finishPng(pick([{ ...base, bytes: await reencodeRaw(info) }])) };
  }
  const wm = s.watermark ? await placeLogo(s.watermark, W, H) : null;
  const rows = stripRowsFor(W);
  const strips: Strips = (fn) => {
    largePngCounters.passes++;
    return target
      ? resizedStrips(info, target, rows, (rgba, y, n) => {
          wm?.drawRows(rgba, y, n, W);
          return fn(rgba, y, n);
        })
      : forEachRgbaStrip(info, rows, (rgba, y, n) => {
          wm?.drawRows(rgba, y, n, W);
          return fn(rgba, y, n);
        });
  };
  const lossy = s.mode === 'lossy';

  // Pass 1's statistics, needed only by the PNG candidates: gathered while the JPG is encoded when the JPG
  // comes first (one read of the original fewer), else by a pass of their own.
  let stats: Stats | null = null;
  const statsNow = async (): Promise<Stats> => (stats ??= await collectStats({ width: W, height: H }, strips));
  /** The PNG candidates' writers, palette and guard, made when the first PNG pass needs them. */
  const pngTools = async () => {
    const st = await statsNow();
    const exact = exactFormat(st, W);
    const lossless = createPngWriter({ width: W, height: H, ...exact.options, extraChunks: info.colourChunks });
    const mapper = lossy && st.colours === null ? createPaletteMapper(buildPalette(st.samples)) : null;
    const paletteWriter = mapper
      ? createPngWriter({
          width: W,
          height: H,
          bitDepth: 8,
          colourType: 3,
          ...paletteChunks(mapper.palette),
          extraChunks: info.colourChunks,
        })
      : null;
    const paletteGuard = mapper ? createStripGuard({ width: W, height: H, level: 'palette', quality: s.quality }) : null;
    const row = new Uint8Array(Math.max(exact.rowBytes, W));
    const indices = new Uint8Array(W);
    const mapped = mapper ? new Uint8Array(rows * W * 4) : null;
    return { exact, lossless, mapper, paletteWriter, paletteGuard, row, indices, mapped };
  };

  /**
   * Pass 2: the PNG candidates and the best of them (with the stripped original). A writer whose deflated
   * bytes pass `cap` is dropped (it could no longer be chosen: see the JPG-first order below), and the read
   * stops once no writer is left.
   */
  const pngPass = async (cap = Infinity): Promise<{ bestPng: Candidate | null; note?: string }> => {
    const { exact, lossless, mapper, paletteWriter, paletteGuard, row, indices, mapped } = await pngTools();
    // Candidates that can no longer win are dropped as soon as that is certain, with their output:
    // a lossless re-encode already larger than the stripped original, a palette already banding.
    let losslessAlive = true;
    let paletteAlive = Boolean(mapper);
    let note: string | undefined;
    try {
      await strips(async (rgba, y, n) => {
        largePngCounters.pngRows += n;
        if (losslessAlive) {
          for (let r = 0; r < n; r++) {
            exact.pack(rgba, r * W * 4, row);
            await lossless.writeRow(row);
          }
          // Certain loss (already larger), or a clear trend past a third of the rows (10 % above the
          // original's pace): an editor's PNG at zlib 9 is rarely beaten by the runtime's default level.
          const done = (y + n) / H;
          if (
            lossless.compressedBytes > cap ||
            (stripped &&
              (lossless.compressedBytes > stripped.length ||
                (done > 1 / 3 && lossless.compressedBytes > stripped.length * done * 1.1)))
          ) {
            losslessAlive = false;
            await lossless.abort();
          }
        }
        if (paletteAlive && mapper && paletteWriter && mapped && paletteGuard) {
          for (let r = 0; r < n; r++) {
            mapper.indices(rgba.subarray(r * W * 4), indices, W, mapped.subarray(r * W * 4));
            await paletteWriter.writeRow(indices);
          }
          paletteGuard.push(rgba, mapped, n, 4);
          if (paletteGuard.hopeless()) {
            paletteAlive = false;
            note = 'palette rejected (more than 1 % of pixels off by > 6)';
            await paletteWriter.abort();
          } else if (paletteWriter.compressedBytes > cap) {
            paletteAlive = false;
            await paletteWriter.abort();
          }
        }
        if (!losslessAlive && !paletteAlive) throw new NothingLeft();
      });
    } catch (e) {
      if (!(e instanceof NothingLeft)) throw e;
    }

    const losslessPng: Candidate | null = losslessAlive ? { ...base, bytes: await lossless.finish() } : null;
    let palette: Candidate | null = null;
    if (paletteAlive && paletteWriter && paletteGuard) {
      const bytes = await paletteWriter.finish();
      const v = paletteGuard.result();
      if (v.pass) palette = { ...base, bytes, ssim: v.score };
      else
        note = `palette rejected (SSIM ${v.score.toFixed(4)}, floor ${v.floor.toFixed(4)}; ${((v.banding ?? 0) * 100).toFixed(1)} % of pixels off by > 6)`;
    }
    return { bestPng: finishPng(pick([losslessPng, palette])), note };
  };

  if (!s.pngToJpg) {
    const r = await pngPass();
    return { best: r.bestPng, note: r.note };
  }

  // PNG to JPG: the encoder holds every coefficient of the image (x2 with trellis), so it gets the memory
  // the PNG work leaves: the fixed part, the original and the best PNG (at most the stripped original).
  const beforeFor = (bestPngBytes: number) => PNG_ROWS.fixedBytes + input.length + bestPngBytes + (wm ? LOGO_MAX_BYTES : 0);
  const need = (trellis: boolean) => jpegWriterBytes(W, H, trellis) * JPEG_STAGE_SLACK;
  type Jpg = { bytes: Uint8Array; length?: number; q: number; score: number | null } | { failed: string };
  const jpegStage = async (bestPngBytes: number): Promise<Jpg> => {
    const before = beforeFor(bestPngBytes);
    hold(before); // the ledger (ledger.ts): what the PNG work keeps while the JPG is made
    const left = budgetBytes - before;
    const trellis = need(true) <= left;
    // Where the progressive encoder's coefficients do not fit (about 14 MP and more): baseline in bands
    // (jpeg/banded.ts), one band's coefficients in the heap, the output counted against what is left.
    const banded = !trellis && need(false) > left;
    const bandedRoom = left - bandedWriterHeapBytes(W);
    if (banded && bandedRoom < 2 << 20)
      return { failed: `JPG not tried: ${Math.round(Math.max(0, left) / 2 ** 20)} MB left after the PNG work` };
    // The first encode reads every strip of the original once: pass 1's statistics are gathered on the way
    // (the same strips in the same order as a pass of their own), unless something already gathered them.
    const sink = stats ? null : statsCollector({ width: W, height: H });
    const tapped: Strips = sink
      ? (fn) =>
          strips((rgba, y, n) => {
            sink.push(rgba, y, n);
            return fn(rgba, y, n);
          })
      : strips;
    let first = true;
    const encode = async (q: number) => {
      largePngCounters.jpegEncodes++;
      const from = first ? tapped : strips;
      first = false;
      const out = await (banded
        ? encodeJpegBands(W, H, from, q, Math.floor(bandedRoom / 2))
        : encodeJpegRows(W, H, from, q, trellis));
      if (sink && from === tapped) stats ??= sink.result(); // complete: the encoder took every row
      return out;
    };
    let q = lossy ? s.quality : 90;
    let jpgBytes: Uint8Array;
    try {
      jpgBytes = await encode(q);
    } catch (e) {
      if (!(e instanceof JpegOutputTooLarge)) throw e;
      return { failed: 'JPG not tried to the end: larger than the memory left for it' };
    }
    let score: number | null = null;
    if (lossy && guard !== 'off') {
      let v = await jpegVerdict(W, H, strips, jpgBytes);
      const ceiling = Math.min(GUARD_MAX_QUALITY, q + GUARD_MAX_RAISE);
      if (guard === 'on' && !v.pass && q < ceiling) {
        q = Math.min(ceiling, q + GUARD_STEP);
        dropJpg(jpgBytes); // the raised encode takes its place
        try {
          jpgBytes = await encode(q);
        } catch (e) {
          if (!(e instanceof JpegOutputTooLarge)) throw e;
          return { failed: 'JPG not kept: the raised quality is larger than the memory left for it' };
        }
        v = await jpegVerdict(W, H, strips, jpgBytes);
      }
      score = v.score;
    }
    return { bytes: jpgBytes, q, score };
  };

  // The JPG first where that changes nothing: the stripped original competes (so the best PNG is at most
  // its size) and the encoder's memory plan (trellis or not, never bands) is the same for any best PNG
  // from nothing to that size. Then only PNG candidates that could still beat the JPG are written:
  // on photos every PNG writer stops within the first rows instead of deflating the whole image.
  const plan = (b: number) => {
    const left = budgetBytes - beforeFor(b);
    return { trellis: need(true) <= left, banded: need(true) > left && need(false) > left };
  };
  const [lo, hi] = stripped ? [plan(0), plan(stripped.length)] : [null, null];
  const jpgFirst = Boolean(largePngCounters.jpgFirst && lo && hi && !lo.banded && !hi.banded && lo.trellis === hi.trellis);
  let bestPng: Candidate | null;
  let note: string | undefined;
  let jpg: Jpg;
  if (jpgFirst && stripped) {
    jpg = await jpegStage(stripped.length);
    // Which PNG candidates still matter (the choice below, unchanged; the best PNG is at most the stripped
    // original). A JPG no smaller than the original never wins: its bytes go, its size stays for the note,
    // and the PNG candidates run as before. Otherwise, with size control, only one of at most the JPG's
    // size can win; without it none can (the JPG wins).
    if ('failed' in jpg || jpg.bytes.length >= input.length) {
      if (!('failed' in jpg)) {
        dropJpg(jpg.bytes);
        jpg = { ...jpg, bytes: new Uint8Array(0), length: jpg.bytes.length };
      }
      ({ bestPng, note } = await pngPass(stripped.length));
    } else if (s.pngToJpgSizeControl) ({ bestPng, note } = await pngPass(Math.min(jpg.bytes.length, stripped.length)));
    else bestPng = null;
  } else {
    ({ bestPng, note } = await pngPass());
    jpg = await jpegStage(bestPng?.bytes.length ?? 0);
  }
  if ('failed' in jpg) return { best: bestPng, note: jpg.failed };
  const { bytes: jpgBytes, q, score } = jpg;
  const jpgLength = jpg.length ?? jpgBytes.length; // a JPG dropped above keeps its size for the choice
  const jpgCandidate: Candidate = {
    bytes: jpgBytes,
    format: 'jpeg',
    width: W,
    height: H,
    convertedToJpg: true,
    watermarked: Boolean(wm),
    qualityUsed: q,
    ssim: score,
  };
  if (s.pngToJpgSizeControl && bestPng && jpgLength >= bestPng.bytes.length) {
    return { best: bestPng, note: `JPG skipped: ${jpgLength} bytes is not smaller than the PNG (${bestPng.bytes.length})` };
  }
  if (jpgLength < input.length || wm || target) return { best: jpgCandidate, note };
  return { best: bestPng, note: 'JPG not smaller than the original PNG' };
}

const size = (c: Candidate & { length?: number }) => c.length ?? c.bytes.length;

/** Thrown out of a strip pass once no PNG writer is left to feed (caught by the pass). */
class NothingLeft extends Error {}

/**
 * For tests: rows fed to the PNG candidates' writers, JPEG encodes and reads of the original (`passes`,
 * whole or stopped early) (no wasted pass comes back), and the JPG-first order switch (off: the PNG
 * candidates first, as before; the choice must not differ).
 */
export const largePngCounters = { jpgFirst: true, pngRows: 0, jpegEncodes: 0, passes: 0 };

/**
 * The original's RGBA strips resized to `target` (gamma-aware Lanczos-3, premultiplied alpha), handed on
 * in strips of at most `rows` output rows. The resizer emits synchronously; the strips are handed on
 * (awaited) after each input strip.
 */
async function resizedStrips(
  info: PngInfo,
  target: { width: number; height: number },
  rows: number,
  fn: (rgba: Uint8Array, y: number, n: number) => void | Promise<void>,
): Promise<void> {
  const ready: { rgba: Uint8Array; y: number; n: number }[] = [];
  const rs = new RowResizer(
    info.width,
    info.height,
    target.width,
    target.height,
    (out, n, y) => ready.push({ rgba: out.slice(0, n * target.width * 4), y, n }),
    rows,
    4,
  );
  const handOn = async () => {
    for (const r of ready.splice(0)) await fn(r.rgba, r.y, r.n);
  };
  await forEachRgbaStrip(info, stripRowsFor(info.width), async (rgba, _y, n) => {
    rs.push(rgba, n);
    await handOn();
  });
  rs.finish();
  await handOn();
}

type Strips = (fn: (rgba: Uint8Array, y: number, n: number) => void | Promise<void>) => Promise<void>;

/** Pass 1: what exact (lossless) colour type fits, and every sampleStep-th pixel for the median cut. */
async function collectStats(info: { width: number; height: number }, strips: Strips): Promise<Stats> {
  const c = statsCollector(info);
  await strips((rgba, y, rows) => c.push(rgba, y, rows));
  return c.result();
}

/** Pass 1's statistics fed strip by strip (top to bottom, every row once): its own pass or the JPG encode's. */
function statsCollector(info: { width: number; height: number }): {
  push(rgba: Uint8Array, y: number, rows: number): void;
  result(): Stats;
} {
  const n = info.width * info.height;
  const step = sampleStep(n);
  const samples = new Uint8Array(Math.ceil(n / step) * 4);
  let taken = 0;
  let nextSample = 0;
  let opaque = true;
  let grey = true;
  let colours: Map<number, number> | null = new Map();
  let last = -1;
  const push = (rgba: Uint8Array, y: number, rows: number): void => {
    const first = y * info.width;
    const count = rows * info.width;
    const px = new Uint32Array(rgba.buffer, rgba.byteOffset, count);
    for (let i = 0; i < count; i++) {
      const v = px[i]!;
      if (v === last) continue;
      last = v;
      const o = i * 4;
      if (rgba[o + 3] !== 255) opaque = false;
      if (rgba[o] !== rgba[o + 1] || rgba[o] !== rgba[o + 2]) grey = false;
      if (colours && !colours.has(v)) {
        colours.set(v, colours.size);
        if (colours.size > 256) colours = null;
      }
    }
    for (; nextSample < first + count; nextSample += step, taken += 4)
      samples.set(rgba.subarray((nextSample - first) * 4, (nextSample - first) * 4 + 4), taken);
  };
  return { push, result: () => ({ opaque, grey, colours, samples: samples.subarray(0, taken) }) };
}

type Exact = {
  options: Pick<PngWriterOptions, 'bitDepth' | 'colourType' | 'palette' | 'trns'>;
  rowBytes: number;
  pack(rgba: Uint8Array, off: number, out: Uint8Array): void;
};

/** The smallest exact 8-bit form: palette (1-8 bits) when <= 256 colours, else grey/RGB with or without alpha. */
function exactFormat(st: Stats, w: number): Exact {
  if (st.colours) {
    // Entries with transparency first, so tRNS stays short.
    const entries = [...st.colours.keys()].sort((a, b) => (a >>> 24 === 255 ? 1 : 0) - (b >>> 24 === 255 ? 1 : 0));
    const index = new Map(entries.map((v, i) => [v, i]));
    const bitDepth = entries.length <= 2 ? 1 : entries.length <= 4 ? 2 : entries.length <= 16 ? 4 : 8;
    const rgba = new Uint8ClampedArray(entries.length * 4);
    const view = new Uint32Array(rgba.buffer);
    entries.forEach((v, i) => {
      view[i] = v;
    });
    return {
      options: { bitDepth, colourType: 3, ...paletteChunks(rgba) },
      rowBytes: Math.ceil((w * bitDepth) / 8),
      pack(src, off, out) {
        out.fill(0, 0, Math.ceil((w * bitDepth) / 8));
        const px = new Uint32Array(src.buffer, src.byteOffset + off, w);
        let lastV = -1;
        let lastI = 0;
        for (let x = 0; x < w; x++) {
          const v = px[x]!;
          if (v !== lastV) {
            lastV = v;
            lastI = index.get(v) ?? 0;
          }
          if (bitDepth === 8) out[x] = lastI;
          else {
            const bit = x * bitDepth;
            out[bit >> 3] = out[bit >> 3]! | (lastI << (8 - bitDepth - (bit & 7)));
          }
        }
      },
    };
  }
  const colourType = st.grey ? (st.opaque ? 0 : 4) : st.opaque ? 2 : 6;
  const ch = { 0: 1, 2: 3, 4: 2, 6: 4 }[colourType];
  return {
    options: { bitDepth: 8, colourType },
    rowBytes: w * ch,
    pack(src, off, out) {
      if (ch === 4) {
        out.set(src.subarray(off, off + w * 4));
        return;
      }
      for (let x = 0, i = off, o = 0; x < w; x++, i += 4) {
        if (ch === 3) {
          out[o++] = src[i]!;
          out[o++] = src[i + 1]!;
          out[o++] = src[i + 2]!;
        } else if (ch === 2) {
          out[o++] = src[i]!;
          out[o++] = src[i + 3]!;
        } else out[o++] = src[i]!;
      }
    },
  };
}

/** PLTE and tRNS payloads of packed RGBA palette entries (tRNS up to the last non-opaque entry). */
function paletteChunks(rgba: Uint8ClampedArray): { palette: Uint8Array; trns?: Uint8Array } {
  const n = rgba.length >> 2;
  const palette = new Uint8Array(n * 3);
  let lastAlpha = -1;
  for (let i = 0; i < n; i++) {
    palette.set(rgba.subarray(i * 4, i * 4 + 3), i * 3);
    if (rgba[i * 4 + 3] !== 255) lastAlpha = i;
  }
  if (lastAlpha < 0) return { palette };
  const trns = new Uint8Array(lastAlpha + 1);
  for (let i = 0; i <= lastAlpha; i++) trns[i] = rgba[i * 4 + 3]!;
  return { palette, trns };
}

/** Straight RGBA onto opaque white, as flattenOnWhite (pixels/rgba.ts) does for whole images. */
function flattenRows(src: Uint8Array, out: Uint8Array, pixels: number): void {
  for (let i = 0; i < pixels * 4; i += 4) {
    const a = src[i + 3]!;
    const inv = 255 - a;
    out[i] = ((src[i]! * a + 255 * inv + 127) / 255) | 0;
    out[i + 1] = ((src[i + 1]! * a + 255 * inv + 127) / 255) | 0;
    out[i + 2] = ((src[i + 2]! * a + 255 * inv + 127) / 255) | 0;
    out[i + 3] = 255;
  }
}

async function encodeJpegBands(W: number, H: number, strips: Strips, quality: number, maxBytes: number): Promise<Uint8Array> {
  const jpeg = createBandedJpegWriter({ width: W, height: H, quality, maxBytes });
  const rgb = new Uint8Array(stripRowsFor(W) * W * 3);
  const flat = new Uint8Array(stripRowsFor(W) * W * 4);
  await strips((rgba, _y, n) => {
    flattenRows(rgba, flat, n * W);
    for (let p = 0, i = 0, j = 0; p < n * W; p++, i += 4, j += 3) {
      rgb[j] = flat[i]!;
      rgb[j + 1] = flat[i + 1]!;
      rgb[j + 2] = flat[i + 2]!;
    }
    jpeg.write(rgb, n);
  });
  const out = jpeg.finish();
  withRelease(out);
  hold(out.length)(); // the parts, then joined: both for a moment
  return out;
}

/** The bytes, counted in the ledger until the caller drops them (dropJpg). */
const held = new WeakMap<Uint8Array, () => void>();
function withRelease(b: Uint8Array): Uint8Array {
  held.set(b, hold(b.length));
  return b;
}
function dropJpg(b: Uint8Array): void {
  held.get(b)?.();
}

async function encodeJpegRows(W: number, H: number, strips: Strips, quality: number, trellis: boolean): Promise<Uint8Array> {
  const jpeg = createJpegRowWriter({ width: W, height: H, quality, trellis });
  const flat = new Uint8Array(stripRowsFor(W) * W * 4);
  await strips((rgba, _y, n) => {
    flattenRows(rgba, flat, n * W);
    jpeg.write(flat, n);
  });
  const out = jpeg.finish();
  withRelease(out);
  hold(out.length)(); // joined from its chunks
  return out;
}

/** The luma guard of a JPEG made from the flattened original, both read row by row. */
async function jpegVerdict(W: number, H: number, strips: Strips, jpg: Uint8Array): Promise<{ score: number; pass: boolean }> {
  const g = createStripGuard({ width: W, height: H, level: 'luma' });
  const reader = openJpegRows(jpg);
  const flat = new Uint8Array(stripRowsFor(W) * W * 4);
  try {
    await strips((rgba, _y, n) => {
      flattenRows(rgba, flat, n * W);
      g.push(flat, reader.read(n), n, 4);
    });
  } finally {
    reader.close();
  }
  return g.result();
}

/** Lossless re-encode of the file's own samples (16-bit, palette and all), filters chosen per row. */
async function reencodeRaw(info: PngInfo): Promise<Uint8Array> {
  const w: PngWriter = createPngWriter({
    width: info.width,
    height: info.height,
    bitDepth: info.bitDepth as 8,
    colourType: info.colourType as 2,
    ...(info.palette ? { palette: info.palette } : {}),
    ...(info.trns ? { trns: info.trns } : {}),
    extraChunks: info.colourChunks,
  });
  await forEachRawRow(info, (raw) => w.writeRow(raw));
  return w.finish();
}
