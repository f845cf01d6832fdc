// GraphQL views of the store records: plain objects whose function-valued fields graphql-js calls with
// (args, ctx), so every selection of existing fields resolves lazily.
import { createHash } from 'node:crypto';
import { cdnPath, cdnUrl } from '../store/factory';
import { ensureCatalogue } from '../store/shop-state';
import type { ArticleRec, BlogRec, CollectionRec, FileRec, OwnedImage, ProductRec, ThemeRec } from '../store/types';
import { connection, count, type PageArgs } from './connection';
import type { Ctx } from './context';
import { gid, parseGid } from './ids';
import { filterSearch } from './search';

export const ONLINE_STORE_PUBLICATION_ID = 1;

type View = Record<string, unknown>;

function imageView(ctx: Ctx, id: string, path: string, version: number, alt: string, width: number, height: number): View {
  const url = cdnUrl(ctx.emu, path, version);
  return { __typename: 'Image', id, url, src: url, originalSrc: url, transformedSrc: url, altText: alt || null, width, height };
}

export function fileUrl(ctx: Ctx, f: FileRec): string {
  return cdnUrl(ctx.emu, cdnPath(ctx.shop, 'files', f.filename), f.version);
}

export function fileView(ctx: Ctx, f: FileRec): View {
  // A file that was just created has no image until processing finishes; a replaced one keeps its old image.
  const hasImage = f.everReady;
  const image =
    hasImage && f.kind === 'MediaImage'
      ? imageView(
          ctx,
          gid('ImageSource', f.imageId),
          cdnPath(ctx.shop, 'files', f.filename),
          f.version,
          f.alt,
          f.blob.width,
          f.blob.height,
        )
      : null;
  const common = {
    id: gid(f.kind, f.id),
    alt: f.alt,
    fileStatus: f.status,
    fileErrors: f.errors,
    preview: { image, status: f.status },
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    mimeType: f.blob.mimeType,
  };
  if (f.kind === 'GenericFile')
    return { __typename: 'GenericFile', ...common, url: fileUrl(ctx, f), originalFileSize: f.blob.bytes.length };
  return {
    __typename: 'MediaImage',
    ...common,
    image,
    mediaContentType: 'IMAGE',
    status: f.status,
    mediaErrors: f.errors.map((e) => ({ code: e.code, details: e.details, message: e.message })),
    originalSource: { fileSize: f.blob.bytes.length, url: fileUrl(ctx, f) },
  };
}

function isPublished(p: ProductRec): boolean {
  return p.status === 'ACTIVE' && p.publishedAt !== null;
}

export function productView(ctx: Ctx, p: ProductRec): View {
  const mediaFiles = () => p.mediaIds.map((id) => ctx.shop.files.get(id)).filter((f): f is FileRec => Boolean(f));
  const published = isPublished(p);
  const prices = p.variants.map((v) => Number(v.price));
  const money = (n: number) => ({ amount: n.toFixed(2), currencyCode: ctx.shop.currencyCode });
  return {
    __typename: 'Product',
    id: gid('Product', p.id),
    legacyResourceId: String(p.id),
    title: p.title,
    handle: p.handle,
    vendor: p.vendor,
    productType: p.productType,
    status: p.status,
    description: (a: { truncateAt?: number }) => truncate(stripHtml(p.descriptionHtml), a.truncateAt),
    descriptionHtml: p.descriptionHtml,
    tags: p.tags,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    publishedAt: p.publishedAt,
    onlineStoreUrl: published ? `${ctx.shop.primaryDomainUrl}/products/${p.handle}` : null,
    onlineStorePreviewUrl: `${ctx.shop.primaryDomainUrl}/products/${p.handle}`,
    publishedOnCurrentPublication: published,
    publishedOnPublication: (a: { publicationId: string }) =>
      published && parseGid(a.publicationId, 'Publication') === ONLINE_STORE_PUBLICATION_ID,
    resourcePublicationsCount: (a: { onlyPublished?: boolean }) => count(published || a.onlyPublished === false ? 1 : 0),
    featuredMedia: () => {
      const f = mediaFiles()[0];
      return f ? fileView(ctx, f) : null;
    },
    featuredImage: () => {
      const f = mediaFiles()[0];
      return f ? fileView(ctx, f).image : null;
    },
    media: (a: PageArgs & { query?: string }) =>
      connection(
        ctx,
        filterSearch(mediaFiles(), a.query, { media_type: () => 'IMAGE' }, (f) => f.alt),
        a,
        (f) => fileView(ctx, f),
      ),
    mediaCount: () => count(mediaFiles().length),
    images: (a: PageArgs) => connection(ctx, mediaFiles(), a, (f) => fileView(ctx, f).image as View),
    variants: (a: PageArgs) =>
      connection(ctx, p.variants, a, (v) => ({
        __typename: 'ProductVariant',
        id: gid('ProductVariant', v.id),
        title: v.title,
        price: v.price,
        sku: v.sku,
        displayName: `${p.title} - ${v.title}`,
      })),
    variantsCount: () => count(p.variants.length),
    priceRangeV2: { minVariantPrice: money(Math.min(...prices)), maxVariantPrice: money(Math.max(...prices)) },
    totalInventory: 10 * p.variants.length,
    collections: (a: PageArgs) =>
      connection(
        ctx,
        ctx.shop.collections.filter((c) => c.productIds.includes(p.id)),
        a,
        (c) => collectionView(ctx, c),
      ),
  };
}

function ownedImageView(
  ctx: Ctx,
  type: 'CollectionImage' | 'ArticleImage',
  folder: 'collections' | 'articles',
  img: OwnedImage | null,
): View | null {
  return img
    ? imageView(
        ctx,
        gid(type, img.id),
        cdnPath(ctx.shop, folder, img.filename),
        img.version,
        img.alt,
        img.blob.width,
        img.blob.height,
      )
    : null;
}

export function collectionView(ctx: Ctx, c: CollectionRec): View {
  const products = () =>
    c.productIds.map((id) => ctx.shop.products.find((p) => p.id === id)).filter((p): p is ProductRec => Boolean(p));
  const published = c.publishedAt !== null;
  return {
    __typename: 'Collection',
    id: gid('Collection', c.id),
    legacyResourceId: String(c.id),
    title: c.title,
    handle: c.handle,
    description: (a: { truncateAt?: number }) => truncate(stripHtml(c.descriptionHtml), a.truncateAt),
    descriptionHtml: c.descriptionHtml,
    image: ownedImageView(ctx, 'CollectionImage', 'collections', c.image),
    ruleSet: c.rules ? { appliedDisjunctively: false, rules: c.rules } : null,
    sortOrder: 'BEST_SELLING',
    updatedAt: c.updatedAt,
    productsCount: () => count(products().length),
    products: (a: PageArgs) => connection(ctx, products(), a, (p) => productView(ctx, p)),
    publishedOnCurrentPublication: published,
    publishedOnPublication: (a: { publicationId: string }) =>
      published && parseGid(a.publicationId, 'Publication') === ONLINE_STORE_PUBLICATION_ID,
  };
}

export function blogView(ctx: Ctx, b: BlogRec): View {
  const articles = () => ctx.shop.articles.filter((a) => a.blogId === b.id);
  return {
    __typename: 'Blog',
    id: gid('Blog', b.id),
    title: b.title,
    handle: b.handle,
    createdAt: b.createdAt,
    updatedAt: b.updatedAt,
    articles: (a: PageArgs) => connection(ctx, articles(), a, (x) => articleView(ctx, x)), // Blog.articles takes no query: or sortKey: in 2026-10
    articlesCount: () => count(articles().length),
  };
}

export function filterArticles(items: ArticleRec[], query: string | null | undefined): ArticleRec[] {
  return filterSearch(
    items,
    query,
    {
      id: (a) => a.id,
      blog_id: (a) => a.blogId,
      title: (a) => a.title,
      handle: (a) => a.handle,
      updated_at: (a) => a.updatedAt,
      created_at: (a) => a.createdAt,
      published_at: (a) => a.publishedAt,
      published_status: (a) => (a.isPublished ? 'published' : 'unpublished'),
      author: (a) => a.author,
      tag: (a) => a.tags,
    },
    (a) => a.title,
  );
}

export function articleView(ctx: Ctx, a: ArticleRec): View {
  const blog = ctx.shop.blogs.find((b) => b.id === a.blogId)!;
  return {
    __typename: 'Article',
    id: gid('Article', a.id),
    title: a.title,
    handle: a.handle,
    body: a.body,
    summary: a.summary,
    author: { name: a.author },
    blog: () => blogView(ctx, blog),
    image: ownedImageView(ctx, 'ArticleImage', 'articles', a.image),
    isPublished: a.isPublished,
    publishedAt: a.publishedAt,
    tags: a.tags,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
}

export function themeView(ctx: Ctx, t: ThemeRec): View {
  return {
    __typename: 'OnlineStoreTheme',
    id: gid('OnlineStoreTheme', t.id),
    name: t.name,
    role: t.role,
    processing: false,
    processingFailed: false,
    themeStoreId: 887,
    prefix: '/t/1',
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    files: (a: { filenames?: string[] | null; first?: number; after?: string }) => {
      const all = [...t.files.entries()].map(([filename, f], i) => ({ id: i + 1, filename, ...f }));
      const wanted = a.filenames ?? null;
      const picked = wanted ? all.filter((f) => wanted.some((w) => globToRegExp(w).test(f.filename))) : all;
      const missing = (wanted ?? [])
        .filter((w) => !w.includes('*') && !t.files.has(w))
        .map((filename) => ({ code: 'NOT_FOUND', filename }));
      const conn = connection({ ...ctx, bulk: false }, picked, { first: a.first ?? 50, after: a.after }, (f) => ({
        filename: f.filename,
        body: { __typename: 'OnlineStoreThemeFileBodyText', content: f.content },
        checksumMd5: createHash('md5').update(f.content).digest('hex'),
        contentType: f.filename.endsWith('.json')
          ? 'application/json'
          : f.filename.endsWith('.liquid')
            ? 'application/x-liquid'
            : 'text/plain',
        size: String(Buffer.byteLength(f.content)),
        createdAt: f.createdAt,
        updatedAt: f.updatedAt,
      }));
      return { ...conn, userErrors: missing };
    },
  };
}

export function stripHtml(html: string): string {
  return html.replace(/<[^>]+>/g, '').trim();
}

function truncate(s: string, n?: number): string {
  return n && s.length > n ? `${s.slice(0, n)}…` : s;
}

/** Every resource a GID can name, for node/nodes. */
export function nodeView(ctx: Ctx, id: string): View | null {
  const n = parseGid(id);
  if (n === null) return null;
  const type = /^gid:\/\/shopify\/([A-Za-z]+)\//.exec(id)![1]!;
  const shop = ctx.shop;
  if (['Product', 'Collection', 'MediaImage', 'Article', 'Blog'].includes(type)) ensureCatalogue(shop);
  switch (type) {
    case 'Product': {
      const p = shop.products.find((x) => x.id === n);
      return p ? productView(ctx, p) : null;
    }
    case 'MediaImage':
    case 'GenericFile': {
      const f = shop.files.get(n);
      return f && f.kind === type ? fileView(ctx, f) : null;
    }
    case 'Collection': {
      const c = shop.collections.find((x) => x.id === n);
      return c ? collectionView(ctx, c) : null;
    }
    case 'Article': {
      const a = shop.articles.find((x) => x.id === n);
      return a ? articleView(ctx, a) : null;
    }
    case 'Blog': {
      const b = shop.blogs.find((x) => x.id === n);
      return b ? blogView(ctx, b) : null;
    }
    case 'OnlineStoreTheme': {
      const t = shop.themes.find((x) => x.id === n);
      return t ? themeView(ctx, t) : null;
    }
    default:
      return null;
  }
}
