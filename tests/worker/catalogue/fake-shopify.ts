// An in-memory AdminClient for the sync logic (paging, sweeping, webhook follow-ups). The end-to-end
// sync against the store emulator lives in sync-emulator.test.ts.
import type { AdminClient } from '../../../worker/shopify';

export type FakeMedia = {
  id: string;
  url: string;
  alt?: string;
  mimeType?: string;
  fileSize?: number;
  width?: number;
  height?: number;
  type?: string;
};
export type FakeProduct = {
  id: number;
  title: string;
  vendor?: string;
  productType?: string;
  published?: boolean;
  price?: string;
  variant?: string;
  media: FakeMedia[];
  updatedAt?: string;
};
export type FakeCollection = { id: number; title: string; image?: { url: string; altText?: string } };
export type FakeArticle = {
  id: number;
  title: string;
  blog: { id: number; title: string };
  published?: boolean;
  image?: { url: string; altText?: string };
};

export class FakeStore {
  products: FakeProduct[] = [];
  collections: FakeCollection[] = [];
  articles: FakeArticle[] = [];
  calls: { op: string; variables: Record<string, unknown> }[] = [];

  client(): AdminClient {
    return {
      shopDomain: 'fake.myshopify.com',
      request: async <T>(query: string, variables: Record<string, unknown> = {}) => this.answer(query, variables) as T,
    };
  }

  private page<T>(list: T[], variables: Record<string, unknown>) {
    const first = Number(variables.first ?? 10);
    const start = variables.after ? Number(variables.after) : 0;
    const slice = list.slice(start, start + first);
    const end = start + slice.length;
    return { pageInfo: { hasNextPage: end < list.length, endCursor: slice.length ? String(end) : null }, nodes: slice };
  }

  private rawProduct(p: FakeProduct, mediaFirst: number) {
    return {
      id: `gid://shopify/Product/${p.id}`,
      title: p.title,
      handle: p.title.toLowerCase().replace(/\W+/g, '-'),
      vendor: p.vendor ?? 'Acme',
      productType: p.productType ?? 'Shoes',
      status: 'ACTIVE',
      publishedAt: p.published === false ? null : '2026-01-01T00:00:00Z',
      updatedAt: p.updatedAt ?? '2026-01-02T00:00:00Z',
      featuredMedia: p.media[0] ? { preview: { image: { url: p.media[0].url } } } : null,
      variants: { nodes: [{ title: p.variant ?? 'Default Title', price: p.price ?? '10.00' }] },
      media: {
        nodes: p.media.slice(0, mediaFirst).map((m) => ({
          id: m.id,
          alt: m.alt ?? '',
          status: 'READY',
          mediaContentType: m.type ?? 'IMAGE',
          mimeType: m.mimeType ?? 'image/jpeg',
          updatedAt: null,
          image: { url: m.url, width: m.width ?? 800, height: m.height ?? 600 },
          originalSource: { fileSize: m.fileSize ?? 1000, url: m.url },
        })),
      },
    };
  }

  private rawCollection(c: FakeCollection) {
    return {
      id: `gid://shopify/Collection/${c.id}`,
      title: c.title,
      handle: 'c',
      updatedAt: '2026-01-01T00:00:00Z',
      image: c.image ? { id: null, url: c.image.url, altText: c.image.altText ?? null, width: 100, height: 100 } : null,
    };
  }

  private rawArticle(a: FakeArticle) {
    return {
      id: `gid://shopify/Article/${a.id}`,
      title: a.title,
      handle: 'a',
      updatedAt: '2026-01-01T00:00:00Z',
      isPublished: a.published !== false,
      blog: { id: `gid://shopify/Blog/${a.blog.id}`, title: a.blog.title },
      image: a.image ? { id: null, url: a.image.url, altText: a.image.altText ?? null, width: 100, height: 100 } : null,
    };
  }

  private answer(query: string, variables: Record<string, unknown>): unknown {
    const op = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? 'anonymous';
    this.calls.push({ op, variables });
    const idOf = (gid: unknown) => Number(String(gid).split('/').pop());
    switch (op) {
      case 'ProductsCount':
        return { productsCount: { count: this.products.length } };
      case 'ProductsWithMedia': {
        const page = this.page(this.products, variables);
        return {
          products: { pageInfo: page.pageInfo, nodes: page.nodes.map((p) => this.rawProduct(p, Number(variables.mediaFirst))) },
        };
      }
      case 'ProductWithMedia': {
        const p = this.products.find((x) => x.id === idOf(variables.id));
        return { product: p ? this.rawProduct(p, Number(variables.mediaFirst)) : null };
      }
      case 'CollectionsWithImage': {
        const page = this.page(this.collections, variables);
        return { collections: { pageInfo: page.pageInfo, nodes: page.nodes.map((c) => this.rawCollection(c)) } };
      }
      case 'CollectionWithImage': {
        const c = this.collections.find((x) => x.id === idOf(variables.id));
        return { collection: c ? this.rawCollection(c) : null };
      }
      case 'ArticlesWithImage': {
        const page = this.page(this.articles, variables);
        return { articles: { pageInfo: page.pageInfo, nodes: page.nodes.map((a) => this.rawArticle(a)) } };
      }
      case 'ArticleWithImage': {
        const a = this.articles.find((x) => x.id === idOf(variables.id));
        return { article: a ? this.rawArticle(a) : null };
      }
      default:
        throw new Error(`fake Shopify: unexpected operation ${op}`);
    }
  }
}

export function media(productId: number, n: number, extra: Partial<FakeMedia> = {}): FakeMedia[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `gid://shopify/MediaImage/${productId}${String(i).padStart(3, '0')}`,
    url: `https://cdn.shopify.com/s/files/1/p${productId}-${i}.jpg?v=1`,
    fileSize: 1000 + i,
    ...extra,
  }));
}
