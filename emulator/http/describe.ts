// JSON summaries the control API returns (what tests assert on: URLs, bytes' hashes, statuses).
import { createHash } from 'node:crypto';
import { cdnPath, cdnUrl } from '../store/factory';
import type { Emulator } from '../store/registry';
import type { ShopState } from '../store/shop-state';
import type { ArticleRec, Blob, CollectionRec, FileRec, OwnedImage, ProductRec } from '../store/types';

// Blobs are immutable and shared (a large shop's 40,000 images are a few seed blobs): hash each once.
const hashes = new WeakMap<Uint8Array, string>();

export function sha256(bytes: Uint8Array): string {
  let h = hashes.get(bytes);
  if (!h) {
    h = createHash('sha256').update(bytes).digest('hex');
    hashes.set(bytes, h);
  }
  return h;
}

function blobInfo(b: Blob) {
  return { mimeType: b.mimeType, size: b.bytes.length, width: b.width, height: b.height, sha256: sha256(b.bytes) };
}

export function describeFile(emu: Emulator, shop: ShopState, f: FileRec) {
  return {
    id: `gid://shopify/${f.kind}/${f.id}`,
    filename: f.filename,
    alt: f.alt,
    status: f.status,
    errors: f.errors,
    url: cdnUrl(emu, cdnPath(shop, 'files', f.filename), f.version),
    version: f.version,
    productIds: f.productIds.map((id) => `gid://shopify/Product/${id}`),
    updatedAt: f.updatedAt,
    ...blobInfo(f.blob),
  };
}

function describeOwned(emu: Emulator, shop: ShopState, folder: 'collections' | 'articles', img: OwnedImage | null) {
  return img
    ? {
        filename: img.filename,
        alt: img.alt,
        url: cdnUrl(emu, cdnPath(shop, folder, img.filename), img.version),
        ...blobInfo(img.blob),
      }
    : null;
}

export function describeProduct(emu: Emulator, shop: ShopState, p: ProductRec) {
  return {
    id: `gid://shopify/Product/${p.id}`,
    title: p.title,
    handle: p.handle,
    vendor: p.vendor,
    status: p.status,
    published: p.publishedAt !== null,
    updatedAt: p.updatedAt,
    media: p.mediaIds
      .map((id) => shop.files.get(id))
      .filter((f): f is FileRec => Boolean(f))
      .map((f) => describeFile(emu, shop, f)),
  };
}

export function describeCollection(emu: Emulator, shop: ShopState, c: CollectionRec) {
  return {
    id: `gid://shopify/Collection/${c.id}`,
    title: c.title,
    handle: c.handle,
    smart: c.rules !== null,
    productsCount: c.productIds.length,
    updatedAt: c.updatedAt,
    image: describeOwned(emu, shop, 'collections', c.image),
  };
}

export function describeArticle(emu: Emulator, shop: ShopState, a: ArticleRec) {
  return {
    id: `gid://shopify/Article/${a.id}`,
    blogId: `gid://shopify/Blog/${a.blogId}`,
    title: a.title,
    handle: a.handle,
    published: a.isPublished,
    updatedAt: a.updatedAt,
    image: describeOwned(emu, shop, 'articles', a.image),
  };
}

export function describeShop(emu: Emulator, shop: ShopState) {
  const lazy = shop.lazyCatalogue !== null;
  return {
    domain: shop.domain,
    name: shop.name,
    shopNumber: shop.shopNumber,
    installed: shop.installed,
    scopes: shop.scopes,
    storefrontUrl: shop.primaryDomainUrl,
    storefrontPathUrl: `${emu.origin}/${shop.domain}/`,
    counts: lazy
      ? { generatedOnFirstAccess: true }
      : {
          products: shop.products.length,
          files: shop.files.size,
          collections: shop.collections.length,
          blogs: shop.blogs.length,
          articles: shop.articles.length,
        },
    settings: shop.settings,
    stats: shop.stats,
    bucket: {
      available: Math.floor(shop.bucket.available),
      maximumAvailable: shop.settings.maximumAvailable,
      restoreRate: shop.settings.restoreRate,
    },
    faults: { http: shop.httpFaults, fileProcessing: shop.fileProcessingFaults },
    pendingWebhooks: shop.webhooks.filter((w) => w.status !== 'delivered').length,
  };
}
