// Perceptual score of an output against its original: butteraugli (libjxl-devtools) when installed,
// otherwise ssim.js on the decoded pixels (transparent areas composited on white for both).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ssim } from 'ssim.js';
import { decodeAny, encodePng, type Pixels } from './decode';

export type Metric = 'butteraugli' | 'ssim';

export function availableMetric(wanted: 'auto' | Metric): Metric {
  if (wanted === 'ssim') return 'ssim';
  try {
    execFileSync('butteraugli_main', ['--help'], { stdio: 'ignore' });
    return 'butteraugli';
  } catch (e) {
    // butteraugli_main prints usage with a non-zero status; only a missing binary means absent.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      if (wanted === 'butteraugli')
        throw new Error('butteraugli_main not installed (apt-get install -y libjxl-devtools)', { cause: e });
      return 'ssim';
    }
    return 'butteraugli';
  }
}

const ext = { jpeg: 'jpg', png: 'png', webp: 'webp' } as Record<string, string>;

/**
 * butteraugli: the 3-norm distance (lower is better; about 1 is at the edge of noticeable), with the max
 * distance alongside; ssim: mean SSIM (1 = identical).
 */
export async function score(
  metric: Metric,
  original: Uint8Array,
  originalFormat: string,
  output: Uint8Array,
  outputFormat: string,
): Promise<{ value: number; max?: number }> {
  if (metric === 'butteraugli') {
    const dir = mkdtempSync(join(tmpdir(), 'bench-img-'));
    try {
      let a = join(dir, `a.${ext[originalFormat]}`);
      let b = join(dir, `b.${ext[outputFormat]}`);
      writeFileSync(a, original);
      writeFileSync(b, output);
      // butteraugli compares RGB and ignores alpha: images with transparency are compared as a white
      // storefront shows them (both composited on white), so invisible RGB under alpha 0 does not count.
      if (originalFormat === 'png' && hasAlpha(original)) {
        a = join(dir, 'a-white.png');
        b = join(dir, 'b-white.png');
        writeFileSync(a, await encodePng(flatten(await decodeAny(original, originalFormat))));
        writeFileSync(b, await encodePng(flatten(await decodeAny(output, outputFormat))));
      }
      const out = execFileSync('butteraugli_main', [a, b], { encoding: 'utf8', maxBuffer: 1 << 20 });
      const max = Number.parseFloat(out.trim().split(/\s+/)[0] ?? 'NaN');
      const pnorm = Number.parseFloat(out.match(/3-norm:\s*([\d.]+)/)?.[1] ?? 'NaN');
      return { value: pnorm, max };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const [x, y] = [flatten(await decodeAny(original, originalFormat)), flatten(await decodeAny(output, outputFormat))];
  if (x.width !== y.width || x.height !== y.height) return { value: Number.NaN };
  return { value: ssim(x, y).mssim };
}

function flatten(p: Pixels): Pixels {
  const d = new Uint8ClampedArray(p.data.length);
  for (let i = 0; i < d.length; i += 4) {
    const a = p.data[i + 3]! / 255;
    for (let c = 0; c < 3; c++) d[i + c] = p.data[i + c]! * a + 255 * (1 - a);
    d[i + 3] = 255;
  }
  return { data: d, width: p.width, height: p.height };
}

/** PNG colour type 4 or 6, or a tRNS chunk before IDAT. */
function hasAlpha(png: Uint8Array): boolean {
  if (png[25] === 4 || png[25] === 6) return true;
  const head = Buffer.from(png.subarray(0, Math.min(png.length, 1 << 16))).toString('latin1');
  const idat = head.indexOf('IDAT');
  const trns = head.indexOf('tRNS');
  return trns > 0 && (idat < 0 || trns < idat);
}
