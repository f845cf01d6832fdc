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
import { heldBytes, hold } from '../ledger';
import { GUARD_MAX_QUALITY, GUARD_MAX_RAISE, GUARD_SSIM_FLOOR, GUARD_STEP, type GuardMode } from '../guard/policy';
import { attachMetadata, iccSegments, jpegOrientation, stripJpegMetadata } from './markers';
import {
  BufferedJpegDecoder,
  encoderCoefBytes,
  JCS_CMYK,
  JCS_YCCK,
  JpegDecoder,
  JpegEncoder,
  JpegOutputTooLarge,
  MozJpegError,
  mozjpegHeapBytes,
  readJpegHeader,
  reserveMozjpegHeap,
  STRIP_ROWS,
  transcodeJpeg,
  type JpegHeader,
} from './mozjpeg';
import { bandedWriterHeapBytes, createBandedJpegWriter } from './banded';
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

/**
 * The bytes this image may take (the isolate's budget; the engine's `budgetBytes` when a test or the
 * bench sets it). One image at a time per isolate (one-at-a-time.ts), so it is set per image.
 */
let budget = DEFAULT_BUDGET_BYTES;

export async function jpegCandidates(
  input: Uint8Array,
  _header: HeaderInfo,
  s: EngineSettings,
  guard: GuardMode,
  budgetBytes = DEFAULT_BUDGET_BYTES,
): Promise<Found> {
  budget = budgetBytes;
  try {
    return await candidates(input, s, guard);
  } catch (e) {
    if (e instanceof MozJpegError) {
      if (/insufficient memory|out of memory/i.test(e.message))
        throw new Error(`JPEG codec out of memory: ${e.message}`, { cause: e });
      throw new ImageDecodeError(`JPEG data is corrupt: ${e.message}`);
    }
    throw e;
  } finally {
    budget = DEFAULT_BUDGET_BYTES;
  }
  // The MozJPEG instance is kept (not released): its heap is reused by the next image. Measured on the
  // bench: a dropped 85 MB instance was not collected before the next job grew a new one (207 MB RSS).
}

/** What the JPEG path could not do, for the merchant (index.ts passes it on as the result's `limited`). */
export type JpegLimit = 'metadata-only' | 'lossless-only';

type Found = { best: Candidate | null; note?: string; limited?: JpegLimit };

async function candidates(input: Uint8Array, s: EngineSettings, guard: GuardMode): Promise<Found> {
  const info = readJpegHeader(input);
  const orientation = jpegOrientation(input);
  const icc = iccSegments(input);
  // Made when it competes, after the lossy path let go of its tiles and outputs (it is the original's size).
  const stripped = (): Candidate => {
    const bytes = stripJpegMetadata(input);
    hold(bytes.length);
    return { bytes, format: 'jpeg', width: info.width, height: info.height, convertedToJpg: false, watermarked: false };
  };
  const cmyk = info.colorSpace === JCS_CMYK || info.colorSpace === JCS_YCCK;
  // Resize on request (pixels/resize.ts): the encoder (and what it needs) has the output's size.
  const target = resizedSize(info.width, info.height, s.resizeLongSide);
  const sized: JpegHeader = target ? { ...info, width: target.width, height: target.height } : info;
  const fits = (path: JpegPath) =>
    jpegPeakBytes(path === 'lossless' || path === 'watermark-upright' ? info : sized, input.length, path) <= budget;
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
  /** Lossless transcode (when its coefficients fit) against the stripped original: what is left without a re-encode. */
  const withoutReencode = (why: string | undefined): Found => {
    if (!fits('lossless'))
      return {
        best: stripped(),
        note: `JPEG of ${mp} MP: ${why ?? 'coefficients too large for the isolate'}, metadata removed only`,
        limited: 'metadata-only',
      };
    const lossless1 = lossless(input, info, orientation, icc);
    const best = smallest([lossless1, stripped()]);
    if (s.mode === 'lossless') return { best, limited: best === lossless1 ? undefined : 'metadata-only' };
    return {
      best,
      note: `JPEG of ${mp} MP: ${why ?? 'too large to re-encode within the isolate'}: losslessly recompressed`,
      limited: best === lossless1 ? 'lossless-only' : 'metadata-only',
    };
  };

  // MozJPEG's trellis needs a second coefficient array; without it large images still fit.
  let trellis: boolean;
  let banded: BandedPlan | null = null;
  if (s.watermark) {
    // The logo is placed where the shopper sees it: on upright pixels (whole image) when EXIF rotates it.
    if (orientation !== 1) {
      if (!fits('watermark-upright'))
        throw new UnsupportedInput(`JPEG of ${mp} MP is too large to watermark upright within the isolate's memory`);
      return { best: await watermarkedUpright(input, info, s, guard, cmyk ? [] : icc) };
    }
    trellis = fits('watermark') || fitsTiled('watermark');
    if (!trellis && !fits('watermark-no-trellis') && !fitsTiled('watermark-no-trellis')) {
      banded = bandedPlan(info, input.length, sized, LOGO_MAX_BYTES);
      if (!banded) throw new UnsupportedInput(`JPEG of ${mp} MP is too large to watermark within the isolate's memory`);
      trellis = true;
      tiled = info.progressive;
    }
  } else if (lossyMode && fits('lossy')) {
    trellis = true;
  } else if (lossyMode && fits('lossy-no-trellis')) {
    trellis = false; // one coefficient array instead of two: see jpegPeakBytes
  } else if (lossyMode && (fitsTiled('lossy') || fitsTiled('lossy-no-trellis'))) {
    trellis = jpegPeakBytes(sized, input.length, 'lossy', true) <= budget;
  } else if (lossyMode && (banded = bandedPlan(info, input.length, sized))) {
    // The progressive encoder's coefficients do not fit beside the source: baseline in bands (jpeg/banded.ts).
    trellis = true;
    tiled = info.progressive;
  } else {
    // Lossless, or a lossy job whose encoder would not fit: the transcode (or only metadata removal).
    return withoutReencode(undefined);
  }

  // CMYK becomes RGB: the CMYK profile would now misdescribe the pixels.
  const keepIcc = cmyk ? [] : icc;
  const grayscale = info.components === 1 && !s.watermark;
  // A progressive original whose coefficients fit beside the encoder's (and its plain outputs): decoded
  // from its coefficients held in the heap instead of through a baseline stand-in (issue 24, CPU).
  const direct =
    info.progressive && !tiled && !banded && !s.watermark && !target && trellis && directPeakBytes(info, input.length) <= budget;
  const heap = banded ? banded.heap : direct ? directHeapBytes(info) : lossyHeapBytes(sized, grayscale, trellis, tiled);
  reserveMozjpegHeap(heap);
  const logo = s.watermark ? LOGO_MAX_BYTES : 0;
  // What the JS side may still take: the budget minus the codec heap, what is held and the logo.
  const room = () => budget - Math.max(heap, mozjpegHeapBytes()) - heldBytes() - logo;
  const path: JpegPath = s.watermark ? (trellis ? 'watermark' : 'watermark-no-trellis') : trellis ? 'lossy' : 'lossy-no-trellis';
  let lossy: Candidate;
  const releases: (() => void)[] = [];
  let buffered: BufferedJpegDecoder | null = null;
  try {
    // Pixel-identical baseline stand-in for a progressive original (see the file comment), or its tiles;
    // both at most what leaves the outputs their floor (JpegOutputTooLarge beyond).
    const sourceRoom = () => room() - 2 * outputFloor(input.length, sized);
    let source: Source;
    if (tiled) {
      const band = banded ? banded.band : tileBandBytes(info, input.length, path, sized);
      const tiles = makeJpegTiles(input, info, band, sourceRoom());
      releases.push(hold(tiles.bytes));
      source = {
        tiles: tiles.tiles.length,
        open: (scaleNum, luma, ycc) => new TiledJpegDecoder(tiles, { scaleNum, scaleDenom: 8, luma, ycc }),
      };
    } else if (direct && (buffered = BufferedJpegDecoder.open(input, { ycc: true }))) {
      const b = buffered;
      const planes = new Map<number, CandidateLuma>();
      source = {
        tiles: 0,
        open: (scaleNum, luma, ycc) => {
          if (scaleNum === 8 && !luma && ycc) return b.pass();
          if (!luma) throw new MozJpegError('the coefficient source gives YCbCr rows and luma planes only');
          let plane = planes.get(scaleNum);
          if (!plane) {
            plane = b.luma(scaleNum);
            planes.set(scaleNum, plane);
            releases.push(hold(plane.data.length));
          }
          return planeRows(plane);
        },
      };
    } else {
      const bytes = info.progressive ? transcodeJpeg(input, { progressive: false, maxBytes: sourceRoom() }).bytes : input;
      if (bytes !== input) {
        releases.push(hold(bytes.length));
        hold(bytes.length)(); // joined from its chunks
      }
      source = { tiles: 0, open: (scaleNum, luma, ycc) => new JpegDecoder(bytes, { scaleNum, scaleDenom: 8, luma, ycc }) };
    }
    if (target && target.width * target.height * 3 <= RESIZED_KEEP_BYTES) {
      source = keepResized(source, target);
      releases.push(hold(target.width * target.height * 3));
    }
    const placed = s.watermark ? await placeLogo(s.watermark, sized.width, sized.height) : undefined;
    const quality = (s.watermark || target) && s.mode === 'lossless' ? LOSSLESS_WATERMARK_QUALITY : s.quality;
    // Each output may take half of what is left: it is joined from its chunks, then copied once more
    // with its metadata.
    const out = guarded(
      source,
      { quality, grayscale, trellis, target: source.fullSizeOnly ? null : target, banded: Boolean(banded) },
      s.mode === 'lossless' ? 'off' : guard,
      placed,
      () => Math.floor(room() / 2),
    );
    for (const r of releases.splice(0)) r(); // the source is no longer read
    buffered?.close();
    buffered = null;
    const bytes = attachMetadata(out.bytes, { orientation: s.watermark ? 1 : orientation, icc: keepIcc });
    if (bytes !== out.bytes) {
      hold(bytes.length);
      out.release();
    }
    lossy = {
      bytes,
      format: 'jpeg',
      width: sized.width,
      height: sized.height,
      convertedToJpg: false,
      watermarked: Boolean(s.watermark),
      qualityUsed: out.qualityUsed,
      ssim: out.score,
      ...(source.tiles ? { tiles: source.tiles } : {}),
      ...(banded ? { banded: true } : {}),
    };
  } catch (e) {
    buffered?.close();
    if (!(e instanceof JpegOutputTooLarge)) throw e;
    // The source copy or an output outgrew what the budget leaves for it: nothing was kept.
    for (const r of releases.splice(0)) r();
    if (s.watermark || target)
      throw new UnsupportedInput(`JPEG of ${mp} MP: the re-encoded file would not fit the isolate's memory`);
    return withoutReencode("the re-encoded file would not fit the isolate's memory");
  }
  // Watermarked or resized: the merchant asked for the change, so the full-size originals do not compete.
  if (s.watermark || target) return { best: lossy };
  // At high quality a re-encode can exceed an already-compressed original: then the lossless transcode
  // (and the metadata-stripped original) compete.
  const plain = stripped();
  const others =
    lossy.bytes.length < plain.bytes.length || !fits('lossless') ? [plain] : [plain, lossless(input, info, orientation, icc)];
  return { best: smallest([lossy, ...others]) };
}

function lossless(input: Uint8Array, info: JpegHeader, orientation: number, icc: Uint8Array[]): Candidate {
  // MozJPEG's scan search wins on small images but made large transcodes LARGER (Flow 16 MP: 775926 vs
  // 770662 B) at 3x the CPU and ~9x the output in trial-scan buffers: the standard script above 2 MP.
  const optimizeScans = info.width * info.height <= 2_000_000;
  reserveMozjpegHeap(info.coefBytes + HEAP_OVERHEAD + (optimizeScans ? scanBufferBytes(input.length) : 0));
  const { bytes } = transcodeJpeg(input, { progressive: true, optimizeScans });
  hold(bytes.length);
  return {
    bytes: attachMetadata(bytes, { orientation, icc }),
    format: 'jpeg',
    width: info.width,
    height: info.height,
    convertedToJpg: false,
    watermarked: false,
  };
}

type Output = { bytes: Uint8Array; qualityUsed: number; score: number | null; release(): void };

/**
 * The pixels the lossy path encodes: a whole decoder (original or stand-in) or the tiles; `scaleNum`/8 is
 * libjpeg's DCT scale; `luma`: the Y plane only where the file has one (RowSource.channels says); `ycc`:
 * a YCbCr file's rows left YCbCr (RowSource.outputYcc says), for the encoder without a colour round trip.
 */
type Source = { tiles: number; open(scaleNum: number, luma?: boolean, ycc?: boolean): RowSource; fullSizeOnly?: boolean };

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
      channels: 3,
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
type EncodeOptions = {
  quality: number;
  grayscale: boolean;
  trellis: boolean;
  target?: { width: number; height: number } | null;
  /** Baseline in bands (jpeg/banded.ts) instead of the progressive encoder's whole-image coefficients. */
  banded?: boolean;
};

function guarded(source: Source, o: EncodeOptions, guard: GuardMode, wm: PlacedWatermark | undefined, cap: () => number): Output {
  const quality = o.quality;
  let q = quality;
  // The luma guard's look at the candidate comes from the encoder (its coefficients, the decoder's IDCT:
  // JpegEncoder.wantLuma) instead of parsing the file it wrote: issue 24, CPU.
  const wantLuma = guard !== 'off' && !wm && !o.target && !o.banded && !source.fullSizeOnly;
  let out = encodeStrips(source, o, wm, cap(), wantLuma);
  if (guard === 'off') return { ...out, qualityUsed: q, score: null };
  let score = o.target ? scoreResized(source, out.bytes, o.target, wm) : scoreStrips(source, out.bytes, wm, out.luma);
  out.luma = null;
  out.releaseLuma();
  const ceiling = Math.min(GUARD_MAX_QUALITY, quality + GUARD_MAX_RAISE);
  while (guard === 'on' && score < GUARD_SSIM_FLOOR && q < ceiling) {
    q = Math.min(ceiling, q + GUARD_STEP);
    out.release(); // the raised encode takes its place
    out = encodeStrips(source, { ...o, quality: q }, wm, cap(), wantLuma);
    score = o.target ? scoreResized(source, out.bytes, o.target, wm) : scoreStrips(source, out.bytes, wm, out.luma);
    out.luma = null;
    out.releaseLuma();
  }
  const kept = out;
  return { bytes: kept.bytes, release: () => kept.release(), qualityUsed: q, score };
}

/** The candidate's Y plane at the guard's DCT scale, as JpegEncoder.luma gives it. */
type CandidateLuma = { data: Uint8Array; width: number; height: number; scaleNum: number };

/** Strips of decoded rows straight into the encoder's row buffer (no copy of the image in JS). */
function encodeStrips(
  source: Source,
  o: EncodeOptions,
  wm: PlacedWatermark | undefined,
  maxOutputBytes: number,
  wantLuma = false,
): { bytes: Uint8Array; release(): void; luma: CandidateLuma | null; releaseLuma(): void } {
  // Rows that go straight into the progressive encoder stay YCbCr (issue 24, CPU): the decoder's YCbCr ->
  // RGB and the encoder's RGB -> YCbCr are skipped (5-7 % of decode + encode), and the encoder gets the
  // original's own YCbCr instead of its rounded, clamped RGB. A watermark, a resize and the banded
  // writer work on RGB rows.
  const dec = source.open(8, false, !wm && !o.target && !o.banded);
  let enc: JpegEncoder | undefined;
  try {
    const { target, banded, ...eo } = o;
    const width = target?.width ?? dec.width;
    const height = target?.height ?? dec.height;
    const draw = wm ? rowDrawer(wm, width) : undefined;
    let put: (rows: Uint8Array, n: number, y: number) => void;
    let finish: () => Uint8Array;
    if (banded) {
      // Baseline in bands (jpeg/banded.ts): rows are copied out of the heap, which each band's encoder uses.
      const w = createBandedJpegWriter({ width, height, quality: o.quality, grayscale: o.grayscale, maxBytes: maxOutputBytes });
      const strip = new Uint8Array(width * 16 * 3);
      put = (rows, n, y) => {
        strip.set(rows.subarray(0, n * width * 3));
        draw?.(strip, y, n);
        w.write(strip, n);
      };
      finish = () => w.finish();
    } else {
      // No scan search: measured on 8 MP photos it made trellis output no smaller (Flow 136673 vs 136638 B,
      // SafeLanding 1416079 vs 1403650) for +35-45 % CPU and ~9x the output in trial-scan buffers.
      // Without room for trellis's second array: trellis per block row (3 B/px, nearly the same size).
      const e = new JpegEncoder({
        width,
        height,
        ...eo,
        optimizeScans: false,
        rowTrellis: !o.trellis,
        maxOutputBytes,
        yccInput: dec.outputYcc === true,
      });
      enc = e;
      // The plane (a quarter of a byte per pixel at the usual 4/8 scale) when the budget leaves room for it.
      const scale = guardDecodeScale(width, height);
      if (wantLuma && Math.ceil((width * scale) / 8) * Math.ceil((height * scale) / 8) <= maxOutputBytes / 2) e.wantLuma(scale);
      put = (rows, n, y) => {
        const buf = e.buffer();
        buf.set(rows.subarray(0, n * width * 3));
        draw?.(buf, y, n);
        e.commit(n);
      };
      finish = () => e.finish();
    }
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
    const bytes = finish();
    const release = hold(bytes.length);
    hold(bytes.length)(); // joined from its chunks: both were alive for a moment
    const luma = enc?.luma ?? null;
    const releaseLuma = luma ? hold(luma.data.length) : () => {};
    return { bytes, release, luma, releaseLuma };
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
function scoreStrips(source: Source, candidate: Uint8Array, wm?: PlacedWatermark, candidateLuma?: CandidateLuma | null): number {
  // The watermark is drawn on full-size source rows: that guard decodes at full size and box-averages.
  const info = readJpegHeader(candidate);
  const scaleNum = wm || source.fullSizeOnly ? 8 : guardDecodeScale(info.width, info.height);
  // The guard compares luma: without a watermark (drawn on RGB rows) both files are decoded to their Y plane
  // (the luma of the decoded RGB before its rounding; libjpeg skips the chroma planes' IDCT, upsampling and
  // colour conversion). A file without one (CMYK, RGB) gives RGB rows, and then both sides are read as RGB.
  let luma = !wm && !source.fullSizeOnly;
  // The candidate's Y plane from its encoder (the same pixels as decoding it), or the candidate decoded:
  // (progressive: its whole-image coefficients) first, so that big block takes the space the encoder just
  // freed before the small strip decoder can split it (no heap growth for the guard).
  const plane = luma && candidateLuma?.scaleNum === scaleNum ? candidateLuma : null;
  let b: RowSource = plane ? planeRows(plane) : new JpegDecoder(candidate, { scaleNum, scaleDenom: 8, luma });
  let a: RowSource | undefined;
  try {
    a = source.open(scaleNum, luma);
    if (a.channels !== b.channels) {
      luma = false;
      a.close();
      b.close();
      b = new JpegDecoder(candidate, { scaleNum, scaleDenom: 8 });
      a = source.open(scaleNum);
    }
    const channels = a.channels;
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
      g.push(orig, b.rows(nb), na, channels);
      y += na;
    }
    return g.result().score;
  } finally {
    a?.close();
    b.close();
  }
}

/** A Y plane read in strips like a luma JpegDecoder. */
function planeRows(p: CandidateLuma): RowSource {
  let y = 0;
  let last = 0;
  return {
    width: p.width,
    height: p.height,
    channels: 1,
    read(max = STRIP_ROWS) {
      last = Math.min(max, STRIP_ROWS, p.height - y);
      y += last;
      return last;
    },
    rows: (count = last) => p.data.subarray((y - last) * p.width, (y - last + count) * p.width),
    finish: () => ({ warnings: 0, truncated: false }),
    close() {},
  };
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

/**
 * The heap of a progressive original decoded from its coefficients (BufferedJpegDecoder): its arrays
 * beside the encoder's (trellis, 4:2:0) and the luma planes of the guard (1 B/px at most).
 */
function directHeapBytes(info: JpegHeader): number {
  return (
    info.coefBytes +
    encoderCoefBytes(info.width, info.height, false, true) +
    info.width * info.height +
    HEAP_OVERHEAD +
    info.width * 16 * 3 * 6
  );
}

/** That heap and the JS side of a plain lossy job (no stand-in copy: the outputs only). */
function directPeakBytes(info: JpegHeader, inputBytes: number): number {
  return directHeapBytes(info) + 2 * outputFloor(inputBytes, info);
}

/** At most this many tiles (each one parses the whole original: CPU). */
const MAX_TILES = 8;

/**
 * Coefficient bytes per tile when a progressive original is cut into tiles for `path` (0: it does not
 * fit even so): what the budget leaves beside the JS side of the path (tiles ~ the original, outputs),
 * the masks and libjpeg's state. The heap grown for cutting is then reused by the encoder.
 */
function tileBandBytes(info: JpegHeader, inputBytes: number, path: JpegPath, sized = info): number {
  if (jpegPeakBytes(sized, inputBytes, path, true) > budget) return 0;
  const js = jsBytes(info, inputBytes, path, sized, true);
  const fixed = tileMaskBytes(info) + HEAP_OVERHEAD;
  const most = budget - js - fixed;
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

type BandedPlan = { heap: number; band: number };

/**
 * The last lossy step, for what the progressive encoder cannot hold (its coefficients beside the source):
 * baseline output in bands (jpeg/banded.ts), so the heap holds one band of the output and, for a
 * progressive original, one tile's band of its coefficients (the tiles at most MAX_TILES, so CPU stays
 * bounded). Null when even this does not fit.
 */
function bandedPlan(info: JpegHeader, inputBytes: number, sized: JpegHeader, logo = 0): BandedPlan | null {
  // One band of the output (its state included) and the decoder's strips.
  const writer = bandedWriterHeapBytes(sized.width) + info.width * 16 * 3 * 6;
  const out = 2 * outputFloor(inputBytes, sized) + logo;
  if (!info.progressive) return writer + HEAP_OVERHEAD + out <= budget ? { heap: writer + HEAP_OVERHEAD, band: 0 } : null;
  const fixed = tileMaskBytes(info) + HEAP_OVERHEAD;
  const most = budget - inputBytes * SOURCE_COPY - out - fixed - writer;
  let band = Math.min(most, info.coefBytes / MAX_TILES);
  while (band > 0 && band < most && tilesFor(info, band) > MAX_TILES) band = Math.min(most, band * 1.15);
  if (band <= 0 || tilesFor(info, band) > MAX_TILES) return null;
  return { heap: band + fixed + writer, band };
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
  return heap + jsBytes(info, inputBytes, path, info, tiled) + (path === 'watermark-upright' ? px * 8 : 0);
}

/**
 * Bytes an encoder output may need at least (the estimate; the encoder is stopped at what is really
 * left, JpegOutputTooLarge): 1.5x the original for small files (a low-quality original re-encoded at a
 * higher quality grows), else 2 MB or 0.1 B per output pixel, whichever is more (Medium on photos of
 * 9-25 MP: 0.03-0.3 B/px; the q100 4:4:4 originals that need tiles: 0.02-0.06).
 */
export function outputFloor(inputBytes: number, sized: { width: number; height: number }): number {
  return Math.min(inputBytes * 1.5, Math.max(2 << 20, sized.width * sized.height * 0.1));
}

/** A progressive original's stand-in or tiles against its size (baseline with standard/optimised tables). */
const SOURCE_COPY = 1.1;

/**
 * JS-side bytes of a lossy/watermark path: the stand-in or tiles (about the original's size), one output
 * twice (joined from its chunks, copied with its metadata), the logo. A stand-in is joined from its chunks
 * too (twice its size for a moment, before any output exists); tiles are joined one by one. The
 * metadata-stripped original is made only after the source and outputs are dropped.
 */
function jsBytes(info: JpegHeader, inputBytes: number, path: JpegPath, sized = info, tiled = false): number {
  const source = info.progressive ? inputBytes * SOURCE_COPY : 0;
  const out = 2 * outputFloor(inputBytes, sized);
  return (tiled ? source + out : Math.max(2 * source, source + out)) + (path.startsWith('lossy') ? 0 : LOGO_MAX_BYTES);
}

export class UnsupportedInput extends Error {
  override name = 'UnsupportedInput';
}
