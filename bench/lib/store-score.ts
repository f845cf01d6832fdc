// Scores for bench:store, computed in Node on the bytes the store serves: does it decode (sharp), the
// engine's own block SSIM on luma (worker/images/perceptual.ts, the guard's metric, floor 0.97), the
// butteraugli 3-norm (butteraugli_main from libjxl-devtools, or the 2017 `butteraugli`, which prints only
// its max distance), and the native reference: sharp's MozJPEG at q75 on the same original.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { ssimScore } from '../../worker/images/guard/perceptual';

const run = promisify(execFile);
// Two CPUs shared by many: one libvips thread for decoding and the native encode.
sharp.concurrency(1);

export type Butteraugli = { tool: 'butteraugli_main' | 'butteraugli'; pnorm3: number; max: number };

/** Which butteraugli is installed (null: none; the bench then prints '-'). */
export async function findButteraugli(): Promise<'butteraugli_main' | 'butteraugli' | null> {
  for (const tool of ['butteraugli_main', 'butteraugli'] as const) {
    try {
      await run(tool, ['--help']);
      return tool;
    } catch (e) {
      // Both print their usage with a non-zero status; only a missing binary means absent.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return tool;
    }
  }
  return null;
}

/** Decodes to RGBA with sharp (libjpeg-turbo); throws when the bytes are not a whole image. */
async function rgba(bytes: Uint8Array): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  const { data, info } = await sharp(bytes, { failOn: 'truncated' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

export type Decoded = { ok: true; width: number; height: number; format: string } | { ok: false; error: string };

export async function checkDecodes(bytes: Uint8Array): Promise<Decoded> {
  try {
    const meta = await sharp(bytes).metadata();
    const px = await rgba(bytes);
    return { ok: true, width: px.width, height: px.height, format: meta.format ?? '?' };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/** The guard's block SSIM on luma of `candidate` against `original` (1 = identical). */
export async function engineSsim(original: Uint8Array, candidate: Uint8Array): Promise<number> {
  const a = await rgba(original);
  const b = await rgba(candidate);
  return ssimScore(a, b, false);
}

/** butteraugli of `candidate` against `original`, niced (it is single-threaded but takes ~2 GB at 9 MP). */
export async function butteraugli(
  tool: 'butteraugli_main' | 'butteraugli',
  original: Uint8Array,
  candidate: Uint8Array,
): Promise<Butteraugli> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-store-ba-'));
  try {
    // Named by what they are: butteraugli_main picks its decoder by the file name's extension.
    const a = join(dir, isPng(original) ? 'a.png' : 'a.jpg');
    const b = join(dir, isPng(candidate) ? 'b.png' : 'b.jpg');
    writeFileSync(a, original);
    writeFileSync(b, candidate);
    const { stdout } = await run('nice', ['-n', '10', tool, a, b], { maxBuffer: 1 << 20 });
    const max = Number.parseFloat(stdout.trim().split(/\s+/)[0] ?? 'NaN');
    const pnorm3 = Number.parseFloat(/3-norm:\s*([\d.]+)/.exec(stdout)?.[1] ?? 'NaN');
    return { tool, pnorm3, max };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const isPng = (b: Uint8Array) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;

/** Native MozJPEG at `quality` of the original (sharp mozjpeg: true; a PNG flattened on white as PNG to JPG does). */
export async function nativeMozjpeg(original: Uint8Array, quality = 75): Promise<Uint8Array> {
  return new Uint8Array(await sharp(original).flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true }).toBuffer());
}
