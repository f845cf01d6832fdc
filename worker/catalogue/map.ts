// Shopify catalogue objects onto item and image rows (pure). Titles, vendor, type, price, variant and
// blog title are kept for the alt-text and file-name templates.
import type { CatalogueImageInput, CatalogueItemInput } from '../db/items-sync';
import { numericId, type ArticleWithImage, type CollectionWithImage, type ImageRef, type ProductWithMedia } from '../shopify';

const MIME_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/heic': 'heic',
};

/** The file name of a CDN URL: ".../files/red-shoe.jpg?v=123" -> "red-shoe.jpg". */
export function fileNameOfUrl(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  try {
    return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  } catch {
    return path.slice(path.lastIndexOf('/') + 1);
  }
}

export function fileTypeOf(url: string, mimeType?: string | null): string {
  if (mimeType && MIME_TYPES[mimeType.toLowerCase()]) return MIME_TYPES[mimeType.toLowerCase()]!;
  const ext = fileNameOfUrl(url).split('.').pop()?.toLowerCase() ?? '';
  return ext === 'jpeg' ? 'jpg' : ext;
}

export function productRows(p: ProductWithMedia): { item: CatalogueItemInput; images: CatalogueImageInput[] } {
  const resourceId = numericId(p.id);
  const imgs = p.media
    .filter((m) => m.url)
    .map((m, position) => ({
      resourceId,
      imgId: m.id,
      position,
      src: m.url ?? '',
      alt: m.alt,
      fileName: fileNameOfUrl(m.url ?? ''),
      fileType: fileTypeOf(m.url ?? '', m.mimeType),
      width: m.width ?? 0,
      height: m.height ?? 0,
      originalSize: m.fileSize ?? 0,
    }));
  return {
    item: {
      resourceId,
      title: p.title,
      handle: p.handle,
      thumbnailUrl: p.featuredImageUrl ?? imgs[0]?.src ?? '',
      vendor: p.vendor,
      productType: p.productType,
      price: p.firstVariant?.price ?? '',
      // "Default Title" is Shopify's name for the only variant of a product without options.
      variant: p.firstVariant && p.firstVariant.title !== 'Default Title' ? p.firstVariant.title : '',
      resourceStatus: p.status,
      published: p.isPublished,
      resourceUpdatedAt: p.updatedAt,
    },
    images: imgs,
  };
}

/**
 * Collection and article images are replaced (new image id) when optimised, so their row is keyed by
 * the owner: `<owner gid>/image` keeps one stable row per collection or article.
 */
function singleImage(ownerGid: string, resourceId: string, image: ImageRef | null): CatalogueImageInput[] {
  if (!image?.url) return [];
  return [
    {
      resourceId,
      imgId: `${ownerGid}/image`,
      position: 0,
      src: image.url,
      alt: image.altText ?? '',
      fileName: fileNameOfUrl(image.url),
      fileType: fileTypeOf(image.url),
      width: image.width ?? 0,
      height: image.height ?? 0,
      originalSize: 0, // Shopify does not report the size of collection and article images; the job measures it
    },
  ];
}

export function collectionRows(c: CollectionWithImage): { item: CatalogueItemInput; images: CatalogueImageInput[] } {
  const resourceId = numericId(c.id);
  return {
    item: {
      resourceId,
      title: c.title,
      handle: c.handle,
      thumbnailUrl: c.image?.url ?? '',
      published: true,
      resourceUpdatedAt: c.updatedAt,
    },
    images: singleImage(c.id, resourceId, c.image),
  };
}

export function articleRows(a: ArticleWithImage): { item: CatalogueItemInput; images: CatalogueImageInput[] } {
  const resourceId = numericId(a.id);
  return {
    item: {
      resourceId,
      title: a.title,
      handle: a.handle,
      thumbnailUrl: a.image?.url ?? '',
      blogId: numericId(a.blog.id),
      blogTitle: a.blog.title,
      published: a.isPublished,
      resourceUpdatedAt: a.updatedAt,
    },
    images: singleImage(a.id, resourceId, a.image),
  };
}
