// Control API, part 2: the store's data as tests see it (files and their bytes), merchant actions
// that make Shopify send webhooks, the theme's app embed switch, and webhook deliveries.
import type { Context, Hono } from 'hono';
import { addFile, addProduct, settingsDataContent, type ImageSpec, type OtherAppEmbed, type ProductSpec } from '../store/factory';
import { blobFromBytes, SEED_IMAGE_NAMES, seedBlob, type SeedImageName } from '../store/images';
import { isoNow, type Emulator } from '../store/registry';
import { ensureCatalogue } from '../store/shop-state';
import { collectionPayload, deliver, deliverPending, enqueueWebhook, productPayload, shopPayload } from '../webhooks';
import { body, CONTROL, withShop } from './control-shops';
import { describeArticle, describeCollection, describeFile, describeProduct } from './describe';

/** Accepts a numeric id or a GID in the path. */
function idParam(c: Context): number {
  return Number((c.req.param('id') ?? '').replace(/^.*\//, ''));
}

type ImageBody = { seed?: string; base64?: string; alt?: string; filename?: string };

function toSpec(i: ImageBody): ImageSpec {
  if (i.base64)
    return {
      bytes: new Uint8Array(Buffer.from(i.base64, 'base64')),
      alt: i.alt,
      filename: i.filename ?? `upload-${Date.now()}.jpg`,
    };
  const seed = (SEED_IMAGE_NAMES as readonly string[]).includes(i.seed ?? '') ? (i.seed as SeedImageName) : 'rocket.jpg';
  return { seed, alt: i.alt, filename: i.filename };
}

const SHOP_RESOURCE_TOPICS: ReadonlySet<string> = new Set(['app/uninstalled', 'shop/update']);

const COMPLIANCE_PAYLOADS: Record<string, (shop: { domain: string; shopNumber: number }) => unknown> = {
  'shop/redact': (s) => ({ shop_id: s.shopNumber, shop_domain: s.domain }),
  'customers/redact': (s) => ({
    shop_id: s.shopNumber,
    shop_domain: s.domain,
    customer: { id: 191167, email: 'john@example.com', phone: '555-625-1199' },
    orders_to_redact: [299938, 280263],
  }),
  'customers/data_request': (s) => ({
    shop_id: s.shopNumber,
    shop_domain: s.domain,
    orders_requested: [299938],
    customer: { id: 191167, email: 'john@example.com', phone: '555-625-1199' },
    data_request: { id: 9999 },
  }),
};

export function mountControlResources(app: Hono, emu: Emulator): void {
  const S = `${CONTROL}/shops/:shop`;

  app.get(
    `${S}/products`,
    withShop(emu, (c, shop) => (ensureCatalogue(shop), c.json(shop.products.map((p) => describeProduct(emu, shop, p))))),
  );
  app.get(
    `${S}/collections`,
    withShop(emu, (c, shop) => (ensureCatalogue(shop), c.json(shop.collections.map((x) => describeCollection(emu, shop, x))))),
  );
  app.get(
    `${S}/articles`,
    withShop(emu, (c, shop) => (ensureCatalogue(shop), c.json(shop.articles.map((x) => describeArticle(emu, shop, x))))),
  );
  app.get(
    `${S}/files`,
    withShop(emu, (c, shop) => (ensureCatalogue(shop), c.json([...shop.files.values()].map((f) => describeFile(emu, shop, f))))),
  );
  app.get(
    `${S}/files/:id`,
    withShop(emu, (c, shop) => {
      const f = shop.files.get(idParam(c));
      return f ? c.json(describeFile(emu, shop, f)) : c.json({ error: 'no such file' }, 404);
    }),
  );
  app.get(
    `${S}/files/:id/bytes`,
    withShop(emu, (c, shop) => {
      const f = shop.files.get(idParam(c));
      return f
        ? c.body(f.blob.bytes as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': f.blob.mimeType })
        : c.json({ error: 'no such file' }, 404);
    }),
  );

  // Merchant actions (what happens in the Shopify admin), each followed by Shopify's webhook.
  app.post(
    `${S}/products`,
    withShop(emu, async (c, shop) => {
      ensureCatalogue(shop);
      const b = await body<Omit<ProductSpec, 'images'> & { images?: ImageBody[] }>(c);
      const p = addProduct(emu, shop, {
        ...b,
        title: b.title ?? 'New product',
        images: (b.images ?? [{ seed: 'rocket.jpg' }]).map(toSpec),
      });
      enqueueWebhook(emu, shop, 'products/create', productPayload(emu, shop, p));
      return c.json(describeProduct(emu, shop, p), 201);
    }),
  );
  app.patch(
    `${S}/products/:id`,
    withShop(emu, async (c, shop) => {
      ensureCatalogue(shop);
      const p = shop.products.find((x) => x.id === idParam(c));
      if (!p) return c.json({ error: 'no such product' }, 404);
      const b = await body<{
        title?: string;
        vendor?: string;
        productType?: string;
        status?: 'ACTIVE' | 'DRAFT' | 'ARCHIVED';
        published?: boolean;
      }>(c);
      if (b.title !== undefined) p.title = b.title;
      if (b.vendor !== undefined) p.vendor = b.vendor;
      if (b.productType !== undefined) p.productType = b.productType;
      if (b.status !== undefined) p.status = b.status;
      if (b.published !== undefined) p.publishedAt = b.published ? (p.publishedAt ?? isoNow()) : null;
      p.updatedAt = isoNow();
      enqueueWebhook(emu, shop, 'products/update', productPayload(emu, shop, p));
      return c.json(describeProduct(emu, shop, p));
    }),
  );
  app.post(
    `${S}/products/:id/media`,
    withShop(emu, async (c, shop) => {
      ensureCatalogue(shop);
      const p = shop.products.find((x) => x.id === idParam(c));
      if (!p) return c.json({ error: 'no such product' }, 404);
      const spec = toSpec(await body<ImageBody>(c));
      const blob = 'seed' in spec ? seedBlob(spec.seed) : blobFromBytes(spec.bytes);
      if (!blob) return c.json({ error: 'not an image' }, 400);
      const ext = blob.mimeType === 'image/png' ? 'png' : 'jpg';
      const f = addFile(emu, shop, blob, spec.filename ?? `${p.handle}-${p.mediaIds.length + 1}.${ext}`, spec.alt ?? '', [p.id]);
      p.mediaIds.push(f.id);
      p.updatedAt = isoNow();
      enqueueWebhook(emu, shop, 'products/update', productPayload(emu, shop, p));
      return c.json(describeProduct(emu, shop, p), 201);
    }),
  );
  app.delete(
    `${S}/products/:id`,
    withShop(emu, (c, shop) => {
      ensureCatalogue(shop);
      const id = idParam(c);
      const p = shop.products.find((x) => x.id === id);
      if (!p) return c.json({ error: 'no such product' }, 404);
      shop.products = shop.products.filter((x) => x !== p);
      for (const m of p.mediaIds) shop.files.delete(m);
      for (const col of shop.collections) col.productIds = col.productIds.filter((x) => x !== id);
      enqueueWebhook(emu, shop, 'products/delete', { id });
      return c.json({ deleted: `gid://shopify/Product/${id}` });
    }),
  );
  app.patch(
    `${S}/collections/:id`,
    withShop(emu, async (c, shop) => {
      ensureCatalogue(shop);
      const col = shop.collections.find((x) => x.id === idParam(c));
      if (!col) return c.json({ error: 'no such collection' }, 404);
      const b = await body<{ title?: string; published?: boolean }>(c);
      if (b.title !== undefined) col.title = b.title;
      if (b.published !== undefined) col.publishedAt = b.published ? (col.publishedAt ?? isoNow()) : null;
      col.updatedAt = isoNow();
      enqueueWebhook(emu, shop, 'collections/update', collectionPayload(emu, shop, col));
      return c.json(describeCollection(emu, shop, col));
    }),
  );
  app.delete(
    `${S}/collections/:id`,
    withShop(emu, (c, shop) => {
      ensureCatalogue(shop);
      const id = idParam(c);
      if (!shop.collections.some((x) => x.id === id)) return c.json({ error: 'no such collection' }, 404);
      shop.collections = shop.collections.filter((x) => x.id !== id);
      enqueueWebhook(emu, shop, 'collections/delete', {
        id,
        published_scope: 'web',
        updated_at: isoNow(),
        admin_graphql_api_id: `gid://shopify/Collection/${id}`,
      });
      return c.json({ deleted: `gid://shopify/Collection/${id}` });
    }),
  );

  // The merchant switches the app embed in the theme editor: enabled true/false, or null = never added;
  // `others`: other apps' embeds in the same theme (another app's `prefetch` block, on or off).
  app.post(
    `${S}/theme/embed`,
    withShop(emu, async (c, shop) => {
      const b = await body<{ enabled: boolean | null; others?: OtherAppEmbed[] }>(c);
      const main = shop.themes.find((t) => t.role === 'MAIN');
      if (!main) return c.json({ error: 'no main theme' }, 404);
      const now = isoNow();
      main.files.set('config/settings_data.json', {
        content: settingsDataContent(emu, b.enabled === null ? null : !b.enabled, b.others ?? []),
        createdAt: main.createdAt,
        updatedAt: now,
      });
      main.updatedAt = now;
      return c.json({ enabled: b.enabled, themeId: `gid://shopify/OnlineStoreTheme/${main.id}` });
    }),
  );
  app.get(
    `${S}/theme/settings-data`,
    withShop(emu, (c, shop) =>
      c.text(shop.themes.find((t) => t.role === 'MAIN')?.files.get('config/settings_data.json')?.content ?? '', 200, {
        'Content-Type': 'application/json',
      }),
    ),
  );

  app.get(
    `${S}/webhooks`,
    withShop(emu, (c, shop) => {
      const status = c.req.query('status');
      const topic = c.req.query('topic');
      return c.json(
        shop.webhooks.filter(
          (w) =>
            (!status || w.status === status || (status === 'pending' && w.status === 'failed')) && (!topic || w.topic === topic),
        ),
      );
    }),
  );
  app.post(
    `${S}/webhooks/:id/ack`,
    withShop(emu, (c, shop) => {
      const d = shop.webhooks.find((w) => w.id === (c.req.param('id') ?? ''));
      if (!d) return c.json({ error: 'no such delivery' }, 404);
      d.status = 'delivered';
      return c.json(d);
    }),
  );
  app.post(
    `${S}/webhooks/deliver`,
    withShop(emu, async (c, shop) => {
      const b = await body<{ url?: string; id?: string }>(c);
      if (b.id) {
        const d = shop.webhooks.find((w) => w.id === b.id);
        if (!d) return c.json({ error: 'no such delivery' }, 404);
        await deliver(d, b.url || d.url);
        return c.json([d]);
      }
      return c.json(await deliverPending(shop, b.url ?? ''));
    }),
  );
  app.post(
    `${S}/webhooks/trigger`,
    withShop(emu, async (c, shop) => {
      const b = await body<{ topic: string; payload?: unknown }>(c);
      // Compliance topics get Shopify's sample payloads; app/uninstalled and shop/update the Shop resource.
      const payload =
        b.payload ?? COMPLIANCE_PAYLOADS[b.topic]?.(shop) ?? (SHOP_RESOURCE_TOPICS.has(b.topic) ? shopPayload(shop) : {});
      const d = enqueueWebhook(emu, shop, b.topic, payload, { evenIfUninstalled: b.topic === 'shop/redact' });
      return d ? c.json(d, 201) : c.json({ error: 'app is not installed on this shop' }, 409);
    }),
  );
}
