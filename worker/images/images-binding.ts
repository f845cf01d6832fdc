// The production path for images above the isolate budget: Cloudflare's Images binding decodes and
// encodes outside the isolate and supports quality and overlays there. Locally, miniflare's binding
// ignores draw() and output quality, so this path is only selected for large images and its selection
// logic is what the tests pin down (budget.ts); its output still goes through the never-larger check.
import { readHeader, sniffFormat } from './sniff';
import type { EngineFormat, EngineSettings, WatermarkPosition } from './types';
import { placeWatermark, WatermarkError } from './watermark';

const stream = (bytes: Uint8Array) => new Blob([bytes]).stream();

/** Draw offsets for the binding (it knows top/left/bottom/right only): same placement as the WASM path. */
export function bindingDrawOffsets(imgW: number, imgH: number, logoW: number, logoH: number, position: WatermarkPosition, heightFraction: number) {
  const at = placeWatermark(imgW, imgH, logoW, logoH, position, heightFraction);
  return { place: at, draw: { left: at.x, top: at.y } satisfies ImageDrawOptions };
}

export async function encodeWithBinding(
  images: ImagesBinding,
  input: Uint8Array,
  size: { width: number; height: number },
  out: { format: EngineFormat; quality: number; flatten: boolean },
  settings: EngineSettings,
): Promise<Uint8Array> {
  let t = images.input(stream(input));
  if (settings.watermark) {
    const wm = settings.watermark;
    const fmt = sniffFormat(wm.bytes);
    if (fmt !== 'png' && fmt !== 'jpeg') throw new WatermarkError('File type must be .jpg .jpeg .png.');
    const logo = readHeader(wm.bytes, fmt);
    const { place, draw } = bindingDrawOffsets(size.width, size.height, logo.width, logo.height, wm.position, wm.heightFraction);
    const overlay = images.input(stream(wm.bytes)).transform({ width: place.width, height: place.height, fit: 'squeeze' });
    t = t.draw(overlay, { ...draw, opacity: wm.opacity });
  }
  const mime = `image/${out.format}` as 'image/jpeg' | 'image/png' | 'image/webp';
  const result = await t.output({ format: mime, quality: out.quality, ...(out.flatten ? { background: '#ffffff' } : {}) });
  return new Uint8Array(await new Response(result.image()).arrayBuffer());
}
