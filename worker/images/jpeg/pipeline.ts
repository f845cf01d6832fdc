// JPEG originals, every size up to 25 MP, with the streaming MozJPEG built from source (jpeg/mozjpeg.ts).
// Lossless: jpegtran-class transcode (coefficients copied, optimised Huffman, progressive scans):
//   pixel-identical by construction; orientation and ICC re-attached; the metadata-stripped original
//   competes (and is the fallback when the coefficients do not fit the budget).
// Lossy: strips of decoded rows go straight into the encoder (MozJPEG defaults, 4:2:0), so the heap
//   holds the encoder's coefficients (~3 B/px, the format needs them for progressive/optimised output)
//   plus strip buffers. MozJPEG's trellis keeps a second, unquantised array; where both do not fit, our
//   row-trellis patch trellis-quantises per block row instead. A progressive original is first
//   transcoded to a baseline stand-in (identical pixels) so its coefficients never sit next to the
//   encoder's. The perceptual guard then decodes the
//   stand-in and the candidate in lockstep, strip by strip (guard/strip-guard.ts). CMYK/YCCK originals are
//   converted to RGB (their CMYK ICC profile no longer applies and is dropped).
import { DEFAULT_BUDGET_BYTES } from '../budget';
import type { Candidate } from '../candidates';
import { smallest } from '../candidates';
import { ImageDecodeError } from '../errors';
import { GUARD_MAX_QUALITY, GUARD_MAX_RAISE, GUARD_SSIM_FLOOR, GUARD_STEP, type GuardMode } from '../guard/policy';
import { attachMetadata, iccSegments, jpegOrientation, stripJpegMetadata } from './markers';
import {
  encoderCoefBytes,
  JCS_CMYK,
  JCS_YCCK,
  JpegDecoder,
  JpegEncoder,
  MozJpegError,
  readJpegHeader,
  reserveMozjpegHeap,
  transcodeJpeg,
  type JpegHeader,
} from './mozjpeg';
import { makeJpegTiles, tileMaskBytes, TiledJpegDecoder, tilesFor, type RowSource } from './tiles';
import { applyOrientation } from '../pixels/rgba';
import { resizedSize, RowResizer } from '../pixels/resize';
import type { HeaderInfo } from '../sniff';
import { displayScale } from '../guard/perceptual';
import { createStripGuard } from '../guard/strip-guard';
import type { EngineSettings, Rgba } from '../types';
import { applyWatermark, LOGO_MAX_BYTES, placeLogo, type PlacedWatermark } from '../pixels/watermark';

/** Quality for re-encoding a watermarked JPEG in lossless mode (the Low level: visually lossless). */
export const LOSSLESS_WATERMARK_QUALITY = 90;

export async function jpegCandidates(
  input: Uint8Array,
  _header: HeaderInfo,
  s: EngineSettings,
  guard: GuardMode,
): Promise<{ best: Candidate | null; note?: string }> {
  try {
    return await candidates(input, s, guard);
  } catch (e) {
    if (e instanceof MozJpegError) {
      if (/insufficient memory|out of memory/i.test(e.message))
        throw new Error(`JPEG codec out of memory: ${e.message}`, { cause: e });
      throw new ImageDecodeError(`JPEG data is corrupt: ${e.message}`);
    }
    throw e;
  }
  // The MozJPEG instance is kept (not released): its heap is reused by the next image. Measured on the
  // bench: a dropped 85 MB instance was not collected before the next job grew a new one (207 MB RSS).
}

async function candidates(
  input: Uint8Array,
  s: EngineSettings,
  guard: GuardMode,
): Promise<{ best: Candidate | null; note?: string }> {
  const info = readJpegHeader(input);
  const orientation = jpegOrientation(input);
  const icc = iccSegments(input);
  const stripped: Candidate = {
    bytes: stripJpegMetadata(input),
    format: 'jpeg',
    width: info.width,
    height: info.height,
    convertedToJpg: false,
    watermarked: false,
  };
  const cmyk = info.colorSpace === JCS_CMYK || info.colorSpace === JCS_YCCK;
  // Resize on request (pixels/resize.ts): the encoder (and what it needs) has the output's size.
  const target = resizedSize(info.width, info.height, s.resizeLongSide);
  const sized: JpegHeader = target ? { ...info, width: target.width, height: target.height } : info;
  const fits = (path: JpegPath) =>
    jpegPeakBytes(path === 'lossless' || path === 'watermark-upright' ? info : sized, input.length, path) <= DEFAULT_BUDGET_BYTES;
  // A progressive original whose coefficients do not fit beside the encoder's: cut into tiles (jpeg/tiles.ts).
  let tiled = false;
  const fitsTiled = (path: JpegPath) => {
    const ok = !fits(path) && info.progressive && tileBandBytes(info, input.length, path, sized) > 0;
    if (ok) tiled = true;
    return ok;
  };
  const mp = ((info.width * info.height) / 1e6).toFixed(1);
  // A resize is a visible change the merchant asked for: in lossless mode it is encoded at the Low level.
  const lossyMode = s.mode === 'lossy' || target !== null;

  // MozJPEG's trellis needs a second coefficient array; without it large images still fit.
  let trellis: boolean;
  if (s.watermark) {
    // The logo is placed where the shopper sees it: on upright pixels (whole image) when EXIF rotates it.
    if (orientation !== 1) {
      if (!fits('watermark-upright'))
        throw new UnsupportedInput(`JPEG of ${mp} MP is too large to watermark upright within the isolate's memory`);
      return { best: await watermarkedUpright(input, info, s, guard, cmyk ? [] : icc) };
    }
    trellis = fits('watermark') || fitsTiled('watermark');
    if (!trellis && !fits('watermark-no-trellis') && !fitsTiled('watermark-no-trellis'))
      throw new UnsupportedInput(`JPEG of ${mp} MP is too large to watermark within the isolate's memory`);
  } else if (lossyMode && fits('lossy')) {
    trellis = true;
  } else if (lossyMode && fits('lossy-no-trellis')) {
    trellis = false; // one coefficient array instead of two: see jpegPeakBytes
  } else if (lossyMode && (fitsTiled('lossy') || fitsTiled('lossy-no-trellis'))) {
    trellis = jpegPeakBytes(sized, input.length, 'lossy', true) <= DEFAULT_BUDGET_BYTES;
  } else {
    // Lossless, or a lossy job whose encoder would not fit: the transcode (or only metadata removal).
    const note =
      s.mode === 'lossless'
        ? undefined
        : `JPEG of ${mp} MP is too large to re-encode within the isolate: losslessly recompressed`;
    if (!fits('lossless'))
      return { best: stripped, note: `JPEG of ${mp} MP: coefficients too large for the isolate, metadata removed only` };
    return { best: smallest([lossless(input, info, orientation, icc), stripped]), note };
  }

  // CMYK becomes RGB: the CMYK profile would now misdescribe the pixels.
  const keepIcc = cmyk ? [] : icc;
  const grayscale = info.components === 1 && !s.watermark;
  reserveMozjpegHeap(lossyHeapBytes(sized, grayscale, trellis, tiled));
  // Pixel-identical baseline stand-in for a progressive original (see the file comment), or its tiles.
  let source: Source;
  if (tiled) {
    const path: JpegPath = s.watermark
      ? trellis
        ? 'watermark'
        : 'watermark-no-trellis'
      : trellis
        ? 'lossy'
        : 'lossy-no-trellis';
    const tiles = makeJpegTiles(input, info, tileBandBytes(info, input.length, path, sized));
    source = { tiles: tiles.tiles.length, open: (scaleNum) => new TiledJpegDecoder(tiles, { scaleNum, scaleDenom: 8 }) };
  } else {
    const bytes = info.progressive ? transcodeJpeg(input, { progressive: false }).bytes : input;
    source = { tiles: 0, open: (scaleNum) => new JpegDecoder(bytes, { scaleNum, scaleDenom: 8 }) };
  }
  if (target && target.width * target.height * 3 <= RESIZED_KEEP_BYTES) source = keepResized(source, target);
  const placed = s.watermark ? await placeLogo(s.watermark, sized.width, sized.height) : undefined;
  const quality = (s.watermark || target) && s.mode === 'lossless' ? LOSSLESS_WATERMARK_QUALITY : s.quality;
  const out = guarded(
    source,
    { quality, grayscale, trellis, target: source.fullSizeOnly ? null : target },
    s.mode === 'lossless' ? 'off' : guard,
    placed,
  );
  const lossy: Candidate = {
    bytes: attachMetadata(out.bytes, { orientation: s.watermark ? 1 : orientation, icc: keepIcc }),
    format: 'jpeg',
    width: sized.width,
    height: sized.height,
    convertedToJpg: false,
    watermarked: Boolean(s.watermark),
    qualityUsed: out.qualityUsed,
    ssim: out.score,
    ...(source.tiles ? { tiles: source.tiles } : {}),
  };
  // Watermarked or resized: the merchant asked for the change, so the full-size originals do not compete.
  if (s.watermark || target) return { best: lossy };
  // At high quality a re-encode can exceed an already-compressed original: then the lossless transcode
  // (and the metadata-stripped original) compete.
  const others =
    lossy.bytes.length < stripped.bytes.length || !fits('lossless')
      ? [stripped]
      : [stripped, lossless(input, info, orientation, icc)];
  return { best: smallest([lossy, ...others]) };
}

function lossless(input: Uint8Array, info: JpegHeader, orientation: number, icc: Uint8Array[]): Candidate {
  // MozJPEG's scan search wins on small images but made large transcodes LARGER (Flow 16 MP: 775926 vs
  // 770662 B) at 3x the CPU and ~9x the output in trial-scan buffers: the standard script above 2 MP.
  const optimizeScans = info.width * info.height <= 2_000_000;
  reserveMozjpegHeap(info.coefBytes + HEAP_OVERHEAD + (optimizeScans ? scanBufferBytes(input.length) : 0));
  const { bytes } = transcodeJpeg(input, { progressive: true, optimizeScans });
  return {
    bytes: attachMetadata(bytes, { orientation, icc }),
    format: 'jpeg',
    width: info.width,
    height: info.height,
    convertedToJpg: false,
    watermarked: false,
  };
}

type Output = { bytes: Uint8Array; qualityUsed: number; score: number | null };

/** The pixels the lossy path encodes: a whole decoder (original or stand-in) or the tiles; `scaleNum`/8 is libjpeg's DCT scale. */
type Source = { tiles: number; open(scaleNum: number): RowSource; fullSizeOnly?: boolean };

/**
 * A resized source small enough to keep (at most RESIZED_KEEP_BYTES of RGB: 2048 and 2880 px limits) is
 * decoded and resized once, then encoded and guarded from memory; larger ones are resized again for the
 * guard and for a raised encode (the image is never held at its original size).
 */
const RESIZED_KEEP_BYTES = 17 << 20;

function keepResized(source: Source, target: { width: number; height: number }): Source {
  const dec = source.open(8);
  const rgb = new Uint8Array(target.width * target.height * 3);
  try {
    const rs = new RowResizer(dec.width, dec.height, target.width, target.height, (rows, n, y) =>
      rgb.set(rows.subarray(0, n * target.width * 3), y * target.width * 3),
    );
    const copy = new Uint8Array(dec.width * 16 * 3);
    let y = 0;
    for (let n = dec.read(); n > 0; n = dec.read()) {
      copy.set(dec.rows(n));
      rs.push(copy, n);
      y += n;
    }
    checkComplete(dec, y);
    rs.finish();
  } finally {
    dec.close();
  }
  const strip = new Uint8Array(target.width * 16 * 3);
  const open = (): RowSource => {
    let y = 0;
    let last = 0;
    return {
      width: target.width,
      height: target.height,
      read(max = 16) {
        last = Math.min(max, 16, target.height - y);
        y += last;
        return last;
      },
      rows(count = last) {
        // A copy: the guard draws the watermark onto the rows it is handed.
        strip.set(rgb.subarray((y - last) * target.width * 3, (y - last + count) * target.width * 3));
        return strip.subarray(0, count * target.width * 3);
      },
      finish: () => ({ warnings: 0, truncated: false }),
      close() {},
    };
  };
  return { tiles: source.tiles, open, fullSizeOnly: true };
}

/** Encode; with the guard on, score it and raise the quality one step when under the floor. */
type EncodeOptions = { quality: number; grayscale: boolean; trellis: boolean; target?: { width: number; height: number } | null };

function guarded(source: Source, o: EncodeOptions, guard: GuardMode, wm?: PlacedWatermark): Output {
  const quality = o.quality;
  let q = quality;
  let bytes = encodeStrips(source, o, wm);
  if (guard === 'off') return { bytes, qualityUsed: q, score: null };
  let score = o.target ? scoreResized(source, bytes, o.target, wm) : scoreStrips(source, bytes, wm);
  const ceiling = Math.min(GUARD_MAX_QUALITY, quality + GUARD_MAX_RAISE);
  while (guard === 'on' && score < GUARD_SSIM_FLOOR && q < ceiling) {
    q = Math.min(ceiling, q + GUARD_STEP);
    bytes = encodeStrips(source, { ...o, quality: q }, wm);
    score = o.target ? scoreResized(source, bytes, o.target, wm) : scoreStrips(source, bytes, wm);
  }
  return { bytes, qualityUsed: q, score };
}

/** Strips of decoded rows straight into the encoder's row buffer (no copy of the image in JS). */
function encodeStrips(source: Source, o: EncodeOptions, wm?: PlacedWatermark): Uint8Array {
  const dec = source.open(8);
  let enc: JpegEncoder | undefined;
  try {
    // No scan search: measured on 8 MP photos it made trellis output no smaller (Flow 136673 vs 136638 B,
    // SafeLanding 1416079 vs 1403650) for +35-45 % CPU and ~9x the output in trial-scan buffers.
    // Without room for trellis's second array: trellis per block row (3 B/px, nearly the same size).
    const { target, ...eo } = o;
    const width = target?.width ?? dec.width;
    const e = new JpegEncoder({
      width,
      height: target?.height ?? dec.height,
      ...eo,
      optimizeScans: false,
      rowTrellis: !o.trellis,
    });
    enc = e;
    const draw = wm ? rowDrawer(wm, width) : undefined;
    const put = (rows: Uint8Array, n: number, y: number) => {
      const buf = e.buffer();
      buf.set(rows.subarray(0, n * width * 3));
      draw?.(buf, y, n);
      e.commit(n);
    };
    const rs = target ? new RowResizer(dec.width, dec.height, target.width, target.height, put) : undefined;
    // The resizer calls the encoder while it works: decoded rows are copied out of the heap first.
    const copy = rs ? new Uint8Array(dec.width * 16 * 3) : undefined;
    let y = 0;
    for (let n = dec.read(); n > 0; n = dec.read()) {
      if (rs) {
        copy!.set(dec.rows(n));
        rs.push(copy!, n);
      } else put(dec.rows(n), n, y);
      y += n;
    }
    checkComplete(dec, y);
    dec.close(); // before the encoder's final pass, which needs its coefficients only
    rs?.finish();
    return e.finish();
  } finally {
    dec.close();
    enc?.close();
  }
}

/**
 * libjpeg's DCT scale M/8 for the guard's decodes: the smallest one not below 1/k, k = the display scale
 * (guard/perceptual.ts). The decoder then computes only a (1/2, 3/8, 1/4...) IDCT of each block's low
 * frequencies: a band-limited downscale that reads no full-size pixels (the guard's two decodes and its
 * SSIM cost about half of full size: measured 22 instead of 50 ms/MP). Scores within 0.002 of the box
 * average on the large set, slightly stricter; at k = 3 (3/8) the image stays a little above 1/3.
 */
export function guardDecodeScale(width: number, height: number): number {
  return Math.ceil(8 / displayScale(width, height));
}

/** Block-SSIM of the candidate against the source pixels, both decoded strip by strip in lockstep. */
function scoreStrips(source: Source, candidate: Uint8Array, wm?: PlacedWatermark): number {
  // The watermark is drawn on full-size source rows: that guard decodes at full size and box-averages.
  const info = readJpegHeader(candidate);
  const scaleNum = wm || source.fullSizeOnly ? 8 : guardDecodeScale(info.width, info.height);
  // The candidate (progressive: its whole-image coefficients) first, so that big block takes the space
  // the encoder just freed before the small strip decoder can split it (no heap growth for the guard).
  const b = new JpegDecoder(candidate, { scaleNum, scaleDenom: 8 });
  let a: RowSource | undefined;
  try {
    a = source.open(scaleNum);
    const g = createStripGuard({ width: a.width, height: a.height, level: 'luma', scale: scaleNum === 8 ? undefined : 1 });
    const draw = wm ? rowDrawer(wm, a.width) : undefined;
    let y = 0;
    for (;;) {
      const na = a.read();
      const nb = b.read();
      if (na !== nb) throw new MozJpegError('guard: decoders out of step');
      if (na === 0) break;
      const orig = a.rows(na); // views after both reads: no heap growth in between
      if (draw) draw(orig, y, na);
      g.push(orig, b.rows(nb), na, 3);
      y += na;
    }
    return g.result().score;
  } finally {
    a?.close();
    b.close();
  }
}

/** The guard of a resized output: the source resized again, strip by strip, against the candidate at its size. */
function scoreResized(
  source: Source,
  candidate: Uint8Array,
  target: { width: number; height: number },
  wm?: PlacedWatermark,
): number {
  const b = new JpegDecoder(candidate);
  let a: RowSource | undefined;
  try {
    const src = source.open(8);
    a = src;
    const g = createStripGuard({ width: target.width, height: target.height, level: 'luma' });
    const draw = wm ? rowDrawer(wm, target.width) : undefined;
    const rs = new RowResizer(src.width, src.height, target.width, target.height, (rows, n, y) => {
      draw?.(rows, y, n);
      for (let done = 0; done < n;) {
        const nb = b.read(n - done);
        if (nb === 0) throw new MozJpegError('guard: candidate ends early');
        g.push(rows.subarray(done * target.width * 3), b.rows(nb), nb, 3);
        done += nb;
      }
    });
    const copy = new Uint8Array(src.width * 16 * 3);
    let y = 0;
    for (let n = src.read(); n > 0; n = src.read()) {
      copy.set(src.rows(n));
      rs.push(copy, n);
      y += n;
    }
    checkComplete(src, y);
    rs.finish();
    return g.result().score;
  } finally {
    a?.close();
    b.close();
  }
}

function checkComplete(dec: RowSource, rows: number): void {
  const { truncated } = dec.finish();
  // A cut-off file decodes with grey below the cut: never publish that as the merchant's image.
  if (truncated || rows !== dec.height) throw new ImageDecodeError('JPEG data ends early (truncated file)');
}

/** Draws the watermark onto packed RGB rows (the logo blends over opaque pixels). */
function rowDrawer(wm: PlacedWatermark, width: number): (rgb: Uint8Array, y: number, rows: number) => void {
  let rgba = new Uint8Array(0);
  return (rgb, y, rows) => {
    if (y + rows <= wm.at.y || y >= wm.at.y + wm.at.height) return;
    const n = rows * width;
    if (rgba.length < n * 4) rgba = new Uint8Array(n * 4);
    for (let i = 0, j = 0; i < n * 3; i += 3, j += 4) {
      rgba[j] = rgb[i]!;
      rgba[j + 1] = rgb[i + 1]!;
      rgba[j + 2] = rgb[i + 2]!;
      rgba[j + 3] = 255;
    }
    wm.drawRows(rgba, y, rows, width);
    for (let i = 0, j = 0; i < n * 3; i += 3, j += 4) {
      rgb[i] = rgba[j]!;
      rgb[i + 1] = rgba[j + 1]!;
      rgb[i + 2] = rgba[j + 2]!;
    }
  };
}

/** Watermark on an image with EXIF orientation: upright whole pixels (RGBA), then strips into the encoder. */
async function watermarkedUpright(
  input: Uint8Array,
  info: JpegHeader,
  s: EngineSettings,
  guard: GuardMode,
  icc: Uint8Array[],
): Promise<Candidate> {
  reserveMozjpegHeap(lossyHeapBytes(info, false, true));
  const dec = new JpegDecoder(input);
  const data = new Uint8ClampedArray(dec.width * dec.height * 4);
  try {
    let y = 0;
    for (let n = dec.read(); n > 0; n = dec.read()) {
      const rgb = dec.rows(n);
      for (let i = 0, j = y * dec.width * 4; i < rgb.length; i += 3, j += 4) {
        data[j] = rgb[i]!;
        data[j + 1] = rgb[i + 1]!;
        data[j + 2] = rgb[i + 2]!;
        data[j + 3] = 255;
      }
      y += n;
    }
    checkComplete(dec, y);
  } finally {
    dec.close();
  }
  let upright: Rgba = applyOrientation({ data, width: info.width, height: info.height }, jpegOrientation(input));
  // Resize on request before the logo is placed (it is placed on the image the shopper sees).
  const target = resizedSize(upright.width, upright.height, s.resizeLongSide);
  if (target) upright = resizeRgba(upright, target);
  await applyWatermark(upright, s.watermark!);
  const quality = s.mode === 'lossless' ? LOSSLESS_WATERMARK_QUALITY : s.quality;
  const encodeRgba = (q: number) => {
    const enc = new JpegEncoder({ width: upright.width, height: upright.height, quality: q });
    const stride = upright.width;
    try {
      for (let y = 0; y < upright.height; y += 16) {
        const n = Math.min(16, upright.height - y);
        const buf = enc.buffer();
        for (let i = 0, j = y * stride * 4; i < n * stride * 3; i += 3, j += 4) {
          buf[i] = upright.data[j]!;
          buf[i + 1] = upright.data[j + 1]!;
          buf[i + 2] = upright.data[j + 2]!;
        }
        enc.commit(n);
      }
      return enc.finish();
    } finally {
      enc.close();
    }
  };
  const score = (bytes: Uint8Array) => {
    const d = new JpegDecoder(bytes);
    try {
      const g = createStripGuard({ width: upright.width, height: upright.height, level: 'luma' });
      const ref = new Uint8Array(upright.data.buffer, upright.data.byteOffset, upright.data.byteLength);
      let y = 0;
      const rgba = new Uint8Array(upright.width * 16 * 4);
      for (let n = d.read(); n > 0; n = d.read()) {
        const rgb = d.rows(n);
        for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
          rgba[j] = rgb[i]!;
          rgba[j + 1] = rgb[i + 1]!;
          rgba[j + 2] = rgb[i + 2]!;
          rgba[j + 3] = 255;
        }
        g.push(ref.subarray(y * upright.width * 4, (y + n) * upright.width * 4), rgba, n, 4);
        y += n;
      }
      return g.result().score;
    } finally {
      d.close();
    }
  };
  let q = quality;
  let bytes = encodeRgba(q);
  let ssim: number | null = null;
  if (s.mode !== 'lossless' && guard !== 'off') {
    ssim = score(bytes);
    const ceiling = Math.min(GUARD_MAX_QUALITY, quality + GUARD_MAX_RAISE);
    while (guard === 'on' && ssim < GUARD_SSIM_FLOOR && q < ceiling) {
      q = Math.min(ceiling, q + GUARD_STEP);
      bytes = encodeRgba(q);
      ssim = score(bytes);
    }
  }
  return {
    bytes: attachMetadata(bytes, { orientation: 1, icc }),
    format: 'jpeg',
    width: upright.width,
    height: upright.height,
    convertedToJpg: false,
    watermarked: true,
    qualityUsed: q,
    ssim,
  };
}

/** Whole opaque RGBA image through the streaming resizer (the upright watermark path only). */
function resizeRgba(img: Rgba, target: { width: number; height: number }): Rgba {
  const out = new Uint8ClampedArray(target.width * target.height * 4);
  const rs = new RowResizer(img.width, img.height, target.width, target.height, (rows, n, y) => {
    for (let i = 0, j = y * target.width * 4; i < n * target.width * 3; i += 3, j += 4) {
      out[j] = rows[i]!;
      out[j + 1] = rows[i + 1]!;
      out[j + 2] = rows[i + 2]!;
      out[j + 3] = 255;
    }
  });
  const row = new Uint8Array(img.width * 3);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0, i = y * img.width * 4; x < img.width * 3; x += 3, i += 4) {
      row[x] = img.data[i]!;
      row[x + 1] = img.data[i + 1]!;
      row[x + 2] = img.data[i + 2]!;
    }
    rs.push(row, 1);
  }
  rs.finish();
  return { data: out, width: target.width, height: target.height };
}

// ---------- memory (bytes), used by budget.ts and to size the heap once per job ----------

/** libjpeg's state, Huffman/scan-optimisation buffers, strip buffers: measured well under this. */
const HEAP_OVERHEAD = 4 * 1024 * 1024;

function lossyHeapBytes(info: JpegHeader, grayscale: boolean, trellis: boolean, tiled = false): number {
  // Progressive originals: the baseline stand-in transcode holds the input's coefficients first; after
  // that only the encoder's arrays, then (guard) the candidate decoder's, plus strip decoders. Tiled
  // (jpeg/tiles.ts): the tiles are cut within the heap the encoder needs anyway (tileBandBytes).
  const out = encoderCoefBytes(info.width, info.height, grayscale, trellis);
  return Math.max(info.progressive && !tiled ? info.coefBytes : 0, out) + HEAP_OVERHEAD + info.width * 16 * 3 * 6;
}

/** At most this many tiles (each one parses the whole original: CPU). */
const MAX_TILES = 8;

/**
 * Coefficient bytes per tile when a progressive original is cut into tiles for `path` (0: it does not
 * fit even so): what the budget leaves beside the JS side of the path (tiles ~ the original, outputs),
 * the masks and libjpeg's state. The heap grown for cutting is then reused by the encoder.
 */
function tileBandBytes(info: JpegHeader, inputBytes: number, path: JpegPath, sized = info): number {
  if (jpegPeakBytes(sized, inputBytes, path, true) > DEFAULT_BUDGET_BYTES) return 0;
  const js = jsBytes(info, inputBytes, path);
  const fixed = tileMaskBytes(info) + HEAP_OVERHEAD;
  const most = DEFAULT_BUDGET_BYTES - js - fixed;
  // No larger than the heap the encoder grows to anyway (wasm memory never shrinks): the bench measured
  // a 16.8 MP 4:4:4 job at the isolate's 128 MB with bands of all that was left, 2 tiles instead of 3.
  // (a resized output's encoder is small: then bands of a quarter of the coefficients, 4 tiles, since each
  // tile parses the whole original)
  const encoderHeap = lossyHeapBytes(sized, false, !path.endsWith('no-trellis'), true);
  const floor = info.coefBytes / (sized === info ? MAX_TILES : 4);
  let band = Math.min(most, Math.max(encoderHeap - fixed, floor));
  // Tiles are cut at 128-row multiples: grow the band until that rounding stays within MAX_TILES.
  while (band > 0 && band < most && tilesFor(info, band) > MAX_TILES) band = Math.min(most, band * 1.15);
  return band > 0 && tilesFor(info, band) <= MAX_TILES ? band : 0;
}

/**
 * MozJPEG's scan optimisation trial-encodes every candidate scan into memory: measured ~9x the output
 * (21 MB of buffers for a 2.4 MB transcode of a 25 MP image). Used only by small lossless transcodes.
 */
function scanBufferBytes(outputBound: number): number {
  return outputBound * 9;
}

export type JpegPath = 'lossless' | 'lossy' | 'lossy-no-trellis' | 'watermark' | 'watermark-no-trellis' | 'watermark-upright';

/**
 * Peak bytes of a JPEG path from the file's real header (sampling, progressive): the wasm heap plus the
 * JS-side bytes this module adds (the caller's copy of the original is in budget.ts's reserve):
 * lossless: the input's coefficients + the output (at most the input) held twice while it is joined;
 * lossy: the larger of the stand-in transcode and the encoder/guard heap + the stand-in + outputs
 *   (without trellis the encoder keeps one coefficient array instead of two: how 13-25 MP fit);
 * watermark: plus the logo (LOGO_MAX_BYTES) and, upright, the whole RGBA image and its rotated copy.
 */
export function jpegPeakBytes(info: JpegHeader, inputBytes: number, path: JpegPath, tiled = false): number {
  if (path === 'lossless')
    return (
      info.coefBytes + HEAP_OVERHEAD + inputBytes * 2 + (info.width * info.height <= 2_000_000 ? scanBufferBytes(inputBytes) : 0)
    );
  const px = info.width * info.height;
  const trellis = !path.endsWith('no-trellis');
  const heap = lossyHeapBytes(info, info.components === 1 && path.startsWith('lossy'), trellis, tiled);
  return heap + jsBytes(info, inputBytes, path) + (path === 'watermark-upright' ? px * 8 : 0);
}

/** JS-side bytes of a lossy/watermark path: the stand-in or tiles (about the original's size), outputs, the logo. */
function jsBytes(info: JpegHeader, inputBytes: number, path: JpegPath): number {
  return (info.progressive ? inputBytes : 0) + inputBytes * 1.5 + (path.startsWith('lossy') ? 0 : LOGO_MAX_BYTES);
}

export class UnsupportedInput extends Error {
  override name = 'UnsupportedInput';
}
