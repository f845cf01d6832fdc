// Test doubles for the pipeline's outside world: a CDN + Shopify that really swaps bytes at a URL, a
// deterministic engine, fault switches; D1, R2 and the billing ledger are the real ones.
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { images, items, usageLedger } from '../../../worker/db/schema';
import { saveImageSettings } from '../../../worker/db/image-settings';
import type { EngineResult, EngineSettings } from '../../../worker/images/types';
import { createLogger } from '../../../worker/lib/log';
import { quotaPort } from '../../../worker/optimise/deps';
import type { ImageTarget, ImageUpdate, PipelineDeps } from '../../../worker/optimise/ports';
import { defaultImageSettings, type ImageSettings } from '../../../shared/image-settings';
import type { ShopRow } from '../../../worker/db/shops';
import { db } from '../helpers';

/** A JPEG-looking byte string: SOI marker then a fill byte, `size` bytes long. */
export function jpegBytes(size: number, fill = 7): Uint8Array {
  const b = new Uint8Array(size).fill(fill);
  b.set([0xff, 0xd8, 0xff, 0xe0]);
  return b;
}

/** The engine double: halves the bytes (keeping the JPEG marker), or reports already-optimal. */
export function fakeEngine(opts: { optimal?: boolean } = {}) {
  const calls: EngineSettings[] = [];
  const fn = async (input: Uint8Array, settings: EngineSettings): Promise<EngineResult> => {
    calls.push(settings);
    if (opts.optimal) return { kind: 'already-optimal', reason: 'not smaller', inputFormat: 'jpeg', bytesIn: input.byteLength };
    const out = input.slice(0, Math.max(8, Math.floor(input.byteLength / 2)));
    out[5] = (out[5]! + 1 + (settings.watermark ? 1 : 0)) % 256; // differs from any slice of the original
    return {
      kind: 'optimised',
      bytes: out,
      format: 'jpeg',
      mime: 'image/jpeg',
      width: 10,
      height: 10,
      inputFormat: 'jpeg',
      convertedToJpg: false,
      watermarked: !!settings.watermark,
      bytesIn: input.byteLength,
      bytesOut: out.byteLength,
    };
  };
  return { fn, calls };
}

/** Shopify + CDN double: updateImage replaces the bytes served at the target's URL, like fileUpdate. */
export function fakeShopify() {
  const cdn = new Map<string, Uint8Array>();
  const updates: { target: ImageTarget; update: ImageUpdate }[] = [];
  const faults = { failNextUpdates: 0, failAfterAccept: 0, failFetches: 0, error: () => new Error('HTTP 503 from Shopify') };
  return {
    cdn,
    updates,
    faults,
    fetchImage: async (url: string) => {
      if (faults.failFetches > 0) {
        faults.failFetches -= 1;
        throw faults.error();
      }
      const bytes = cdn.get(url);
      if (!bytes) throw new Error(`404 ${url}`);
      return bytes;
    },
    shopify: {
      currentImageUrl: async (_shop: ShopRow, target: ImageTarget) => target.src,
      updateImage: async (_shop: ShopRow, target: ImageTarget, update: ImageUpdate) => {
        if (faults.failNextUpdates > 0) {
          faults.failNextUpdates -= 1;
          throw faults.error();
        }
        updates.push({ target, update });
        if (update.file) cdn.set(target.src, update.file.bytes);
        if (faults.failAfterAccept > 0) {
          // Shopify accepted the file, then the worker died before hearing back.
          faults.failAfterAccept -= 1;
          throw new Error('worker died after Shopify accepted the file');
        }
        return { src: target.src };
      },
    },
  };
}

export type Fakes = ReturnType<typeof fakeShopify> & { engine: ReturnType<typeof fakeEngine> };

export function makeDeps(overrides: Partial<PipelineDeps> & { optimal?: boolean } = {}): { deps: PipelineDeps; fakes: Fakes } {
  const shop = fakeShopify();
  const engine = fakeEngine({ optimal: overrides.optimal });
  const d = db();
  const deps: PipelineDeps = {
    db: d,
    bucket: env.BUCKET,
    log: createLogger({ test: 'optimise' }),
    now: () => Date.now(),
    optimiseImage: engine.fn,
    fetchImage: shop.fetchImage,
    shopify: shop.shopify,
    quota: quotaPort(d),
    loadSettings: async (shopId) => {
      const { getStoredImageSettings } = await import('../../../worker/db/image-settings');
      return getStoredImageSettings(d, shopId);
    },
    leaseMs: 60_000,
    ...overrides,
  };
  return { deps, fakes: { ...shop, engine } };
}

export async function saveSettings(shopId: number, patch: (s: ImageSettings) => void = () => {}): Promise<ImageSettings> {
  const s = defaultImageSettings();
  s.is_default = 0;
  // The pipeline tests' baseline: compression only. The shop defaults write alt text where an image has
  // none; a test that wants alt text turns it on and gets it written over any alt unless it asks otherwise.
  s.alt_text = { ...s.alt_text, switch: 0, blank_replace: 0 };
  patch(s);
  await saveImageSettings(db(), shopId, s);
  return s;
}

let seq = 0;
/** One item of a tab with `count` images served by the fake CDN. */
export async function seedItem(
  shop: ShopRow,
  cdn: Map<string, Uint8Array>,
  opts: { dataType?: number; count?: number; title?: string; size?: number; alt?: string; published?: boolean } = {},
) {
  seq += 1;
  const item = await db()
    .insert(items)
    .values({
      shopId: shop.id,
      dataType: opts.dataType ?? 1,
      resourceId: String(9000 + seq),
      title: opts.title ?? `Linen Shirt ${seq}`,
      vendor: 'Acme',
      published: opts.published ?? true,
    })
    .returning()
    .get();
  const rows = [];
  for (let i = 0; i < (opts.count ?? 1); i++) {
    const src = `https://cdn.test/s/files/${shop.id}/${seq}-${i}.jpg`;
    const bytes = jpegBytes(opts.size ?? 4000, (seq * 10 + i) % 250);
    cdn.set(src, bytes);
    rows.push(
      await db()
        .insert(images)
        .values({
          shopId: shop.id,
          itemId: item.id,
          imgId: `gid://shopify/MediaImage/${seq * 100 + i}`,
          position: i,
          src,
          alt: opts.alt ?? '',
          fileName: `IMG_${i}.jpg`,
          fileType: 'jpg',
        })
        .returning()
        .get(),
    );
  }
  return { item, images: rows };
}

export async function imageRow(id: number) {
  return db().select().from(images).where(eq(images.id, id)).get();
}

export async function ledgerRows(shopId: number) {
  return db().select().from(usageLedger).where(eq(usageLedger.shopId, shopId)).all();
}

export async function r2Bytes(key: string | null | undefined): Promise<Uint8Array | null> {
  if (!key) return null;
  const obj = await env.BUCKET.get(key);
  return obj ? new Uint8Array(await obj.arrayBuffer()) : null;
}

/** A Queue double that records what planning sends. */
export function recordingQueue() {
  const sent: unknown[] = [];
  return {
    sent,
    queue: {
      send: async (body: unknown) => void sent.push(body),
      sendBatch: async (msgs: Iterable<{ body: unknown }>) => {
        for (const m of msgs) sent.push(m.body);
      },
    } as unknown as Queue<import('../../../worker/messages/optimise').OptimiseMessage>,
  };
}
