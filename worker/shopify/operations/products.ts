import type { AdminClient } from '../graphql-client';
import type { Page } from './common';

/** One product image (MediaImage) with what the optimiser needs to fetch, replace and restore it. */
export type ProductMediaImage = {
  id: string; // gid://shopify/MediaImage/...
  alt: string;
  status: string; // MediaStatus: READY, PROCESSING, FAILED, UPLOADED
  url: string | null;
  width: number | null;
  height: number | null;
  mimeType: string | null;
  fileSize: number | null; // originalSource.fileSize, bytes
  updatedAt: string | null;
};

export type ProductWithMedia = {
  id: string;
  title: string;
  handle: string;
  vendor: string;
  productType: string;
  /** ProductStatus: ACTIVE, DRAFT, ARCHIVED; a string, as Shopify may add values. */
  status: string;
  /** Published on the Online Store (publishedAt is set), the documents' "published" flag. */
  isPublished: boolean;
  updatedAt: string;
  firstVariant: { title: string; price: string } | null;
  featuredImageUrl: string | null;
  media: ProductMediaImage[];
};

// MediaImage fields shared by the paginated and the bulk query.
export const MEDIA_IMAGE_FIELDS = /* GraphQL */ `
  id
  alt
  status
  mediaContentType
  ... on MediaImage {
    mimeType
    updatedAt
    image { url width height }
    originalSource { fileSize url }
  }
`;

export const PRODUCTS_PAGE = /* GraphQL */ `
  query ProductsWithMedia($first: Int!, $after: String, $query: String, $mediaFirst: Int!) {
    products(first: $first, after: $after, query: $query, sortKey: ID) {
      pageInfo { hasNextPage endCursor }
      nodes {
        id title handle vendor productType status publishedAt updatedAt
        featuredMedia { preview { image { url } } }
        variants(first: 1) { nodes { title price } }
        media(first: $mediaFirst) { nodes { ${MEDIA_IMAGE_FIELDS} } }
      }
    }
  }
`;

export const PRODUCT_BY_ID = /* GraphQL */ `
  query ProductWithMedia($id: ID!, $mediaFirst: Int!) {
    product(id: $id) {
      id title handle vendor productType status publishedAt updatedAt
      featuredMedia { preview { image { url } } }
      variants(first: 1) { nodes { title price } }
      media(first: $mediaFirst) { nodes { ${MEDIA_IMAGE_FIELDS} } }
    }
  }
`;

/** How many products the shop has (1 point; Shopify caps the count at 10,000 by default). */
export const PRODUCTS_COUNT = /* GraphQL */ `
  query ProductsCount {
    productsCount { count }
  }
`;

/**
 * The product count decides between paginated reads and a bulk query. Cost: 1 point. Shopify caps the
 * count at 10,000 by default, which is far above the bulk threshold, so the cap never changes the decision.
 */
export async function countProducts(client: AdminClient): Promise<number> {
  const d = await client.request<{ productsCount: { count: number } | null }>(PRODUCTS_COUNT, {}, { expectedCost: 1 });
  return d.productsCount?.count ?? 0;
}

export type RawMedia = {
  id: string;
  alt?: string | null;
  status?: string;
  mediaContentType?: string;
  mimeType?: string | null;
  updatedAt?: string | null;
  image?: { url: string; width: number | null; height: number | null } | null;
  originalSource?: { fileSize: number | string | null; url?: string | null } | null;
};

export type RawProduct = {
  id: string;
  title: string;
  handle: string;
  vendor: string;
  productType: string;
  status: string;
  publishedAt: string | null;
  updatedAt: string;
  featuredMedia?: { preview?: { image?: { url: string } | null } | null } | null;
  variants?: { nodes: { title: string; price: string }[] };
  media?: { nodes: RawMedia[] };
};

export function toMediaImage(m: RawMedia): ProductMediaImage | null {
  if (m.mediaContentType && m.mediaContentType !== 'IMAGE') return null; // videos and 3D models are not images
  const size = m.originalSource?.fileSize;
  return {
    id: m.id,
    alt: m.alt ?? '',
    status: m.status ?? 'READY',
    url: m.image?.url ?? null,
    width: m.image?.width ?? null,
    height: m.image?.height ?? null,
    mimeType: m.mimeType ?? null,
    fileSize: size == null ? null : Number(size),
    updatedAt: m.updatedAt ?? null,
  };
}

export function toProduct(
  p: RawProduct,
  media: RawMedia[] = p.media?.nodes ?? [],
  variant = p.variants?.nodes[0],
): ProductWithMedia {
  return {
    id: p.id,
    title: p.title,
    handle: p.handle,
    vendor: p.vendor,
    productType: p.productType,
    status: p.status,
    isPublished: p.publishedAt != null,
    updatedAt: p.updatedAt,
    firstVariant: variant ? { title: variant.title, price: String(variant.price) } : null,
    featuredImageUrl: p.featuredMedia?.preview?.image?.url ?? null,
    media: media.map(toMediaImage).filter((m): m is ProductMediaImage => m !== null),
  };
}

/**
 * Requested cost of one product in PRODUCTS_PAGE / PRODUCT_BY_ID by Shopify's formula (objects 1,
 * scalars 0, connections 2 + first x node): product 1, featuredMedia.preview.image 3, variants(first: 1)
 * 2 + 1, media 2 + mediaFirst x 3 (node, image, originalSource).
 */
export const productCost = (mediaFirst: number): number => 9 + 3 * mediaFirst;

/** Requested cost of a products page: 2 + first x productCost. 50 x 50 was 7,952 (MAX_COST_EXCEEDED). */
export const productsPageCost = (first: number, mediaFirst: number): number => 2 + first * productCost(mediaFirst);

/**
 * Defaults of a products page: 10 products x 20 images costs 692 points, under Shopify's 1,000 per query
 * with room to spare; a product with 20 images or more is read again with getProduct (up to 250: 759).
 */
export const PRODUCTS_PAGE_DEFAULTS = { first: 10, mediaFirst: 20 } as const;

/** One page of products with their images. `query` is Shopify search syntax, e.g. "updated_at:>2026-01-01". */
export async function getProductsPage(
  client: AdminClient,
  args: { first?: number; after?: string | null; query?: string; mediaFirst?: number } = {},
): Promise<Page<ProductWithMedia>> {
  const first = args.first ?? PRODUCTS_PAGE_DEFAULTS.first;
  const mediaFirst = args.mediaFirst ?? PRODUCTS_PAGE_DEFAULTS.mediaFirst;
  const d = await client.request<{ products: { pageInfo: Page<unknown>['pageInfo']; nodes: RawProduct[] } }>(
    PRODUCTS_PAGE,
    { first, after: args.after ?? null, query: args.query ?? null, mediaFirst },
    { expectedCost: productsPageCost(first, mediaFirst) },
  );
  return { items: d.products.nodes.map((p) => toProduct(p)), pageInfo: d.products.pageInfo };
}

/** A single product (webhook follow-up, detail page); null when it no longer exists. */
export async function getProduct(client: AdminClient, id: string, mediaFirst = 100): Promise<ProductWithMedia | null> {
  const d = await client.request<{ product: RawProduct | null }>(
    PRODUCT_BY_ID,
    { id, mediaFirst },
    { expectedCost: productCost(mediaFirst) },
  );
  return d.product ? toProduct(d.product) : null;
}

/** Every product, page after page (small shops; large ones use the bulk operation). */
export async function* iterateProducts(
  client: AdminClient,
  pageSize: number = PRODUCTS_PAGE_DEFAULTS.first,
): AsyncGenerator<ProductWithMedia> {
  let after: string | null = null;
  for (;;) {
    const page = await getProductsPage(client, { first: pageSize, after });
    yield* page.items;
    if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return;
    after = page.pageInfo.endCursor;
  }
}
