// Entry point of the Worker that `npm run bench:images` starts (bench/images.ts): the real engine inside
// workerd with the real memory budget, one image per request. Not part of the deployed Worker (worker/index.ts never imports it).
// POST /optimise, body = original bytes, header x-settings = EngineSettings JSON (watermark omitted).
// Answers the output bytes (the original when kept) and x-result with the engine's verdict.
import { optimiseImage, ImageDecodeError } from '.';
import { wasmHeapBytes } from './jsquash';
import type { EngineSettings } from '.';

export default {
  async fetch(request: Request): Promise<Response> {
    const input = new Uint8Array(await request.arrayBuffer());
    const settings = JSON.parse(request.headers.get('x-settings') ?? '{}') as EngineSettings & { budgetBytes?: number };
    try {
      // The product's own budget (128 MB minus the reserve) unless a measurement run names another one
      // (bench --budget-mb, e.g. to see what an image left unchanged would need).
      const r = await optimiseImage(input, settings, settings.budgetBytes ? { budgetBytes: settings.budgetBytes } : {});
      const { bytes, ...meta } = r.kind === 'optimised' ? r : { ...r, bytes: input };
      return new Response(bytes, { headers: { 'x-result': JSON.stringify({ ...meta, wasmHeapBytes: wasmHeapBytes() }) } });
    } catch (e) {
      const kind = e instanceof ImageDecodeError ? 'decode-error' : 'crash';
      return new Response(null, { status: 500, headers: { 'x-result': JSON.stringify({ kind, reason: String(e) }) } });
    }
  },
};
