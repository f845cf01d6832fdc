// The image codec engine: original bytes + settings -> new bytes, inside the Workers runtime.
// Contract with worker/optimise (issue 4): optimiseImage, sniffFormat, ImageDecodeError and the types.
// "Never larger": a compression-only result that is not smaller than the original is 'already-optimal'
// and the caller keeps the original bytes. An explicit watermark request is the exception: the merchant
// asked for a visible change (the settings warn it "may increase file size"), so a watermarked result is
// delivered even when it is larger; the engine still picks the smallest watermarked candidate.
import { selectPath } from './budget';
import type { Candidate } from './candidates';
import { ImageDecodeError } from './errors';
import { jpegCandidates, UnsupportedInput } from './jpeg/pipeline';
import { largePngCandidates } from './png/large';
import { pngCandidates } from './png/pipeline';
import { readHeader, sniffFormat, ascii, type HeaderInfo } from './sniff';
import { trimCodecs } from './jsquash';
import { oneAtATime } from './one-at-a-time';
import { startImage } from './ledger';
import type { EngineDeps, EngineFormat, EnginePath, EngineResult, EngineSettings } from './types';
import { largeWebpCandidates, webpCandidates } from './webp/pipeline';
import type { GuardMode } from './guard/policy';
import { WatermarkError } from './pixels/watermark';

export type {
  EngineSettings,
  EngineResult,
  EngineFormat,
  EnginePath,
  WatermarkPosition,
  SniffedFormat,
  EngineDeps,
} from './types';
export { ImageDecodeError } from './errors';
export { WatermarkError, WATERMARK_MAX_BYTES } from './pixels/watermark';
export { sniffFormat } from './sniff';
export { selectPath, maxPixelsInIsolate, ISOLATE_BYTES, PEAK_BYTES_PER_PIXEL } from './budget';
export { GUARD_SSIM_FLOOR } from './guard/policy';

export const MIME: Record<EngineFormat, string> = { jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp' };

/** Other image containers we recognise but do not optimise (they are left unchanged, not errors). */
function otherImageKind(b: Uint8Array): string | null {
  if (ascii(b, 4, 4) === 'ftyp') return ascii(b, 8, 4).trim() || 'isobmff'; // avif, heic, ...
  if (ascii(b, 0, 2) === 'BM') return 'bmp';
  if (ascii(b, 0, 4) === 'II*\0' || ascii(b, 0, 4) === 'MM\0*') return 'tiff';
  if (/^\s*(<\?xml|<svg)/i.test(ascii(b, 0, 256))) return 'svg';
  if (b[0] === 0 && b[1] === 0 && b[2] === 1 && b[3] === 0) return 'ico';
  return null;
}

/** Settings defaults for fields added after the contract (all optional). */
type EngineOptions = EngineSettings & { perceptualGuard?: boolean | 'measure' };

/** The engine's entry: one image at a time per isolate (one-at-a-time.ts says why). */
export function optimiseImage(input: Uint8Array, settings: EngineSettings, deps: EngineDeps = {}): Promise<EngineResult> {
  return oneAtATime(() => optimiseOne(input, settings, deps));
}

async function optimiseOne(input: Uint8Array, settings: EngineSettings, deps: EngineDeps): Promise<EngineResult> {
  const s = settings as EngineOptions;
  const guard: GuardMode = s.perceptualGuard === false ? 'off' : s.perceptualGuard === 'measure' ? 'measure' : 'on';
  const fmt = sniffFormat(input);
  if (fmt === 'gif')
    return {
      kind: 'unsupported',
      reason: 'GIF images are left unchanged (animation; watermarks cannot be added to GIF)',
      inputFormat: 'gif',
    };
  if (fmt === 'unknown') {
    const other = otherImageKind(input);
    if (other)
      return {
        kind: 'unsupported',
        reason: `${other} images are left unchanged (JPEG, PNG and WebP are optimised)`,
        inputFormat: other,
      };
    throw new ImageDecodeError(input.length === 0 ? 'empty file' : 'not an image (unknown signature)');
  }
  const header = readHeader(input, fmt);
  if (header.animated)
    return { kind: 'unsupported', reason: `animated ${fmt.toUpperCase()} is left unchanged`, inputFormat: fmt };

  const choice = selectPath(fmt, header, input.length, s, deps.budgetBytes);
  if (choice.path === 'none') return { kind: 'unsupported', reason: choice.reason, inputFormat: fmt };

  let best: Candidate | null;
  let note: string | undefined;
  let limited: Limited | undefined;
  startImage();
  try {
    ({ best, note, limited } = await runPipeline(choice.path, input, fmt, header, s, guard, deps.budgetBytes));
  } catch (e) {
    if (e instanceof UnsupportedInput) return { kind: 'unsupported', reason: e.message, inputFormat: fmt };
    throw e;
  } finally {
    trimCodecs();
  }
  return verdict(input, fmt, best, note, choice.path, limited, header);
}

type Limited = 'metadata-only' | 'lossless-only';

async function runPipeline(
  path: EnginePath,
  input: Uint8Array,
  fmt: EngineFormat,
  header: HeaderInfo,
  s: EngineOptions,
  guard: GuardMode,
  budgetBytes?: number,
): Promise<{ best: Candidate | null; note?: string; limited?: Limited }> {
  try {
    if (path === 'wasm-rows' && fmt === 'webp') return await largeWebpCandidates(input, header, s, guard, budgetBytes);
    if (path === 'wasm-rows') return await largePngCandidates(input, header, s, guard, budgetBytes);
    if (fmt === 'jpeg') return await jpegCandidates(input, header, s, guard, budgetBytes);
    const run = fmt === 'png' ? pngCandidates : webpCandidates;
    return await run(input, header, s, guard);
  } catch (e) {
    if (e instanceof ImageDecodeError || e instanceof WatermarkError || e instanceof UnsupportedInput) throw e;
    // A codec that traps on bad data (RuntimeError: unreachable, out of bounds) means corrupt input.
    if (
      e instanceof WebAssembly.RuntimeError ||
      (e instanceof Error && /decod|corrupt|invalid|truncat|unexpected end|eof/i.test(e.message))
    ) {
      throw new ImageDecodeError(`${fmt} data is corrupt: ${e.message}`);
    }
    throw e;
  }
}

function verdict(
  input: Uint8Array,
  fmt: EngineFormat,
  best: Candidate | null,
  note: string | undefined,
  path: EnginePath,
  limited: Limited | undefined,
  header: HeaderInfo,
): EngineResult {
  const bytesIn = input.length;
  if (!best) return { kind: 'already-optimal', reason: note ?? 'no smaller encoding found', inputFormat: fmt, bytesIn };
  if (best.bytes.length >= bytesIn && !best.watermarked) {
    return {
      kind: 'already-optimal',
      reason: `best result (${best.bytes.length} bytes) is not smaller than the original (${bytesIn} bytes)${note ? `; ${note}` : ''}`,
      inputFormat: fmt,
      bytesIn,
    };
  }
  return {
    kind: 'optimised',
    bytes: best.bytes,
    format: best.format,
    mime: MIME[best.format],
    width: best.width,
    height: best.height,
    widthIn: header.width,
    heightIn: header.height,
    inputFormat: fmt,
    convertedToJpg: best.convertedToJpg,
    watermarked: best.watermarked,
    bytesIn,
    bytesOut: best.bytes.length,
    path,
    ...(best.qualityUsed !== undefined ? { qualityUsed: best.qualityUsed } : {}),
    ...(typeof best.ssim === 'number' ? { ssim: best.ssim } : {}),
    ...(best.tiles ? { tiles: best.tiles } : {}),
    ...(best.banded ? { banded: true } : {}),
    ...(note ? { note } : {}),
    ...(limited ? { limited } : {}),
  };
}
