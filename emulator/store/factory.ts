// Builders for shops and their resources, used by the seeds, the control API and merchant actions.
import { blobFromBytes, extensionOf, seedBlob, type SeedImageName } from './images';
import { isoNow, type Emulator } from './registry';
import type { ShopState } from './shop-state';
import type { ArticleRec, Blob, CollectionRec, FileRec, OwnedImage, ProductRec, ProductStatus, ThemeRec } from './types';

export function handleize(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'item'
  );
}

export function newShop(emu: Emulator, domain: string, name: string): ShopState {
  const shopNumber = emu.nextId() % 100_000_000_000;
  const now = isoNow();
  const handle = domain.replace(/\.myshopify\.com$/, '');
  return {
    domain,
    shopNumber,
    name,
    email: `owner@${handle}.example`,
    ownerName: 'Alex Merchant',
    currencyCode: 'USD',
    locales: ['en'],
    ianaTimezone: 'America/New_York',
    planName: 'Development',
    partnerDevelopment: true,
    // Chromium resolves *.localhost to loopback, so the storefront is reachable by this name.
    primaryDomainUrl: `${emu.origin.replace('//127.0.0.1', `//${handle}.localhost`).replace('//localhost', `//${handle}.localhost`)}`,
    createdAt: now,
    updatedAt: now,
    products: [],
    files: new Map(),
    takenFilenames: new Map(),
    takenProductHandles: new Set(),
    collections: [],
    blogs: [],
    articles: [],
    themes: [],
    lazyCatalogue: null,
    installed: false,
    scopes: [],
    subscriptions: [],
    usageRecords: [],
    recurringCharges: [],
    bulkOperations: [],
    webhookSubscriptions: [],
    webhooks: [],
    settings: { ...emu.defaultSettings },
    httpFaults: [],
    fileProcessingFaults: [],
    bucket: { available: emu.defaultSettings.maximumAvailable, updatedAt: Date.now() },
    stats: {
      graphqlRequests: 0,
      throttled: 0,
      injectedFaults: 0,
      tokenRefreshes: 0,
      tokenExchanges: 0,
      authorizationCodes: 0,
      unauthorized: 0,
    },
  };
}

/** `/cdn.shopify.com/s/files/1/0123/4567/8901/<folder>/<filename>`: the shape of Shopify's CDN paths. */
export function cdnPath(shop: ShopState, folder: 'files' | 'collections' | 'articles', filename: string): string {
  const n = String(shop.shopNumber).padStart(12, '0');
  return `/cdn.shopify.com/s/files/1/${n.slice(0, 4)}/${n.slice(4, 8)}/${n.slice(8)}/${folder}/${encodeURIComponent(filename)}`;
}

export function cdnUrl(emu: Emulator, path: string, version: number): string {
  return `${emu.origin}${path}?v=${version}`;
}

/** A filename not yet used in the shop's Files (Shopify appends a suffix to duplicates). */
export function uniqueFilename(shop: ShopState, wanted: string): string {
  const taken = shop.takenFilenames;
  if (!taken.has(wanted)) return wanted;
  const ext = extensionOf(wanted);
  const base = ext ? wanted.slice(0, -(ext.length + 1)) : wanted;
  for (let i = 1; ; i++) {
    const candidate = `${base}_${i}${ext ? `.${ext}` : ''}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export function addFile(
  emu: Emulator,
  shop: ShopState,
  blob: Blob,
  filename: string,
  alt: string,
  productIds: number[] = [],
): FileRec {
  const now = isoNow();
  const file: FileRec = {
    id: emu.nextId(),
    imageId: emu.nextId(),
    kind: 'MediaImage',
    filename: uniqueFilename(shop, filename),
    alt,
    blob,
    pendingSource: null,
    pendingFilename: null,
    status: 'READY',
    everReady: true,
    errors: [],
    version: Math.floor(Date.now() / 1000),
    productIds,
    createdAt: now,
    updatedAt: now,
  };
  shop.files.set(file.id, file);
  shop.takenFilenames.set(file.filename, file.id);
  emu.cdnPaths.set(cdnPath(shop, 'files', file.filename), { shop: shop.domain, kind: 'file', id: file.id });
  return file;
}

export function ownedImage(
  emu: Emulator,
  shop: ShopState,
  folder: 'collections' | 'articles',
  ownerId: number,
  blob: Blob,
  filename: string,
  alt: string,
): OwnedImage {
  const image: OwnedImage = { id: emu.nextId(), filename, alt, blob, version: Math.floor(Date.now() / 1000) };
  emu.cdnPaths.set(cdnPath(shop, folder, filename), {
    shop: shop.domain,
    kind: folder === 'collections' ? 'collection' : 'article',
    id: ownerId,
  });
  return image;
}

export type ImageSpec =
  { seed: SeedImageName; alt?: string; filename?: string } | { bytes: Uint8Array; alt?: string; filename: string };

function specBlob(spec: ImageSpec): Blob {
  if ('seed' in spec) return seedBlob(spec.seed);
  const blob = blobFromBytes(spec.bytes);
  if (!blob) throw new Error(`${spec.filename} is not an image`);
  return blob;
}

export type ProductSpec = {
  title: string;
  vendor?: string;
  productType?: string;
  status?: ProductStatus;
  published?: boolean;
  price?: string;
  variants?: string[];
  tags?: string[];
  images?: ImageSpec[];
};

export function addProduct(emu: Emulator, shop: ShopState, spec: ProductSpec): ProductRec {
  const now = isoNow();
  const id = emu.nextId();
  const handle = uniqueHandle(shop.takenProductHandles, handleize(spec.title));
  shop.takenProductHandles.add(handle);
  const status = spec.status ?? 'ACTIVE';
  const product: ProductRec = {
    id,
    title: spec.title,
    handle,
    vendor: spec.vendor ?? shop.name,
    productType: spec.productType ?? '',
    status,
    descriptionHtml: `<p>${spec.title}: a product of the emulated store.</p>`,
    tags: spec.tags ?? [],
    publishedAt: (spec.published ?? status === 'ACTIVE') ? now : null,
    mediaIds: [],
    variants: (spec.variants ?? ['Default Title']).map((title, i) => ({
      id: emu.nextId(),
      title,
      price: spec.price ?? '19.99',
      sku: `${handle.toUpperCase().slice(0, 12)}-${i + 1}`,
    })),
    createdAt: now,
    updatedAt: now,
  };
  (spec.images ?? []).forEach((img, i) => {
    const blob = specBlob(img);
    const ext =
      blob.mimeType === 'image/png'
        ? 'png'
        : blob.mimeType === 'image/gif'
          ? 'gif'
          : blob.mimeType === 'image/webp'
            ? 'webp'
            : 'jpg';
    const file = addFile(emu, shop, blob, img.filename ?? `${handle}-${i + 1}.${ext}`, img.alt ?? '', [id]);
    product.mediaIds.push(file.id);
  });
  shop.products.push(product);
  return product;
}

function uniqueHandle(taken: Iterable<string>, wanted: string): string {
  const set = taken instanceof Set ? (taken as Set<string>) : new Set(taken);
  if (!set.has(wanted)) return wanted;
  for (let i = 1; ; i++) if (!set.has(`${wanted}-${i}`)) return `${wanted}-${i}`;
}

export function addCollection(
  emu: Emulator,
  shop: ShopState,
  spec: { title: string; image?: ImageSpec; productIds?: number[]; rules?: CollectionRec['rules']; published?: boolean },
): CollectionRec {
  const id = emu.nextId();
  const handle = uniqueHandle(
    shop.collections.map((c) => c.handle),
    handleize(spec.title),
  );
  const collection: CollectionRec = {
    id,
    title: spec.title,
    handle,
    descriptionHtml: `<p>${spec.title}</p>`,
    image: null,
    productIds: spec.productIds ?? [],
    rules: spec.rules ?? null,
    publishedAt: spec.published === false ? null : isoNow(),
    updatedAt: isoNow(),
  };
  if (spec.image) {
    const blob = specBlob(spec.image);
    collection.image = ownedImage(
      emu,
      shop,
      'collections',
      id,
      blob,
      spec.image.filename ?? `${handle}.${blob.mimeType === 'image/png' ? 'png' : 'jpg'}`,
      spec.image.alt ?? '',
    );
  }
  shop.collections.push(collection);
  return collection;
}

export function addBlog(emu: Emulator, shop: ShopState, title: string) {
  const now = isoNow();
  const blog = {
    id: emu.nextId(),
    title,
    handle: uniqueHandle(
      shop.blogs.map((b) => b.handle),
      handleize(title),
    ),
    createdAt: now,
    updatedAt: now,
  };
  shop.blogs.push(blog);
  return blog;
}

export function addArticle(
  emu: Emulator,
  shop: ShopState,
  blogId: number,
  spec: { title: string; image?: ImageSpec; published?: boolean; author?: string },
): ArticleRec {
  const now = isoNow();
  const id = emu.nextId();
  const handle = uniqueHandle(
    shop.articles.filter((a) => a.blogId === blogId).map((a) => a.handle),
    handleize(spec.title),
  );
  const published = spec.published ?? true;
  const article: ArticleRec = {
    id,
    blogId,
    title: spec.title,
    handle,
    body: `<p>${spec.title}. Notes from the emulated store.</p>`,
    summary: `<p>${spec.title}</p>`,
    author: spec.author ?? 'Alex Merchant',
    tags: [],
    image: null,
    isPublished: published,
    publishedAt: published ? now : null,
    createdAt: now,
    updatedAt: now,
  };
  if (spec.image) {
    const blob = specBlob(spec.image);
    article.image = ownedImage(
      emu,
      shop,
      'articles',
      id,
      blob,
      spec.image.filename ?? `${handle}.${blob.mimeType === 'image/png' ? 'png' : 'jpg'}`,
      spec.image.alt ?? '',
    );
  }
  shop.articles.push(article);
  return article;
}

/** The uid Shopify gives the app's theme app extension; part of the embed block's type string. */
export const EMBED_EXTENSION_UID = '0c6f3d8e-5b1a-4a8e-9d2f-7e4b1c9a6f30';
export const EMBED_BLOCK_HANDLE = 'prefetch';
/** Shopify keys each block instance by a random numeric-looking id. */
export const EMBED_BLOCK_INSTANCE = '16845218947520836459';

/** A theme block type as Shopify writes it: `shopify://apps/<app handle>/blocks/<block handle>/<extension uuid>`. */
export function appBlockType(appHandle: string, blockHandle: string, extensionUuid: string): string {
  return `shopify://apps/${appHandle}/blocks/${blockHandle}/${extensionUuid}`;
}

/** Our embed block: the app's handle (shopify.app.toml's, as `shopify app deploy` registers it) and our extension's uuid. */
export function embedBlockType(emu: Emulator): string {
  return appBlockType(emu.app.handle, EMBED_BLOCK_HANDLE, EMBED_EXTENSION_UID);
}

/**
 * Another app's embed in the same theme. Block handles are each app's own: another app may call its
 * embed `prefetch` too (the default block handle here), under its own app handle and extension uuid.
 */
export type OtherAppEmbed = { app: string; enabled: boolean; block?: string; uuid?: string };
const OTHER_EXTENSION_UID = '7d1e4c2a-93b5-4f60-8a1d-2c5e9b7f0a48';

/** The comment block Shopify writes at the top of every generated config/settings_data.json. */
export const SETTINGS_DATA_HEADER = `/*
 * ------------------------------------------------------------
 * IMPORTANT: The contents of this file are auto-generated.
 *
 * This file may be updated by the Shopify admin theme editor
 * or related systems. Please exercise caution as any changes
 * made to this file may be overwritten.
 * ------------------------------------------------------------
 */
`;

export function settingsDataContent(emu: Emulator, embedDisabled: boolean | null, others: OtherAppEmbed[] = []): string {
  const current: Record<string, unknown> = {
    logo_width: 90,
    color_schemes: { 'scheme-1': { settings: { background: '#FFFFFF', text: '#121212' } } },
    type_header_font: 'assistant_n4',
    sections: { 'announcement-bar': { type: 'announcement-bar', settings: {} } },
    content_for_index: [],
  };
  const blocks: Record<string, unknown> = {};
  // Other apps' embeds first: the one of ours is not simply the first block.
  others.forEach((o, i) => {
    const type = appBlockType(o.app, o.block ?? EMBED_BLOCK_HANDLE, o.uuid ?? OTHER_EXTENSION_UID);
    blocks[String(BigInt(EMBED_BLOCK_INSTANCE) + BigInt(i + 1))] = { type, disabled: !o.enabled, settings: {} };
  });
  if (embedDisabled !== null) {
    blocks[EMBED_BLOCK_INSTANCE] = { type: embedBlockType(emu), disabled: embedDisabled, settings: {} };
  }
  if (Object.keys(blocks).length > 0) current.blocks = blocks;
  return SETTINGS_DATA_HEADER + JSON.stringify({ current, presets: { Default: {} } }, null, 2) + '\n';
}

export function addMainTheme(emu: Emulator, shop: ShopState, embedDisabled: boolean | null = true): ThemeRec {
  const now = isoNow();
  const files = new Map([
    ['config/settings_data.json', { content: settingsDataContent(emu, embedDisabled), createdAt: now, updatedAt: now }],
    [
      'config/settings_schema.json',
      { content: '[{"name":"theme_info","theme_name":"Dawn","theme_version":"15.4.0"}]\n', createdAt: now, updatedAt: now },
    ],
    [
      'layout/theme.liquid',
      {
        content: '<!doctype html><html><head>{{ content_for_header }}</head><body>{{ content_for_layout }}</body></html>\n',
        createdAt: now,
        updatedAt: now,
      },
    ],
  ]);
  const main: ThemeRec = { id: emu.nextId(), name: 'Dawn', role: 'MAIN', files, createdAt: now, updatedAt: now };
  const draft: ThemeRec = {
    id: emu.nextId(),
    name: 'Dawn (draft)',
    role: 'UNPUBLISHED',
    files: new Map(files),
    createdAt: now,
    updatedAt: now,
  };
  shop.themes.push(main, draft);
  return main;
}
