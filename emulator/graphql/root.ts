// Root fields of QueryRoot and Mutation. graphql-js calls each with (args, ctx, info).
import { isoNow } from '../store/registry';
import { ensureCatalogue } from '../store/shop-state';
import type { ProductRec } from '../store/types';
import { subscriptionView, usageRecordView } from './billing-views';
import { bulkOperationCancel, bulkOperationRunQuery, bulkOperationView, type Executor } from './bulk';
import { connection, count, type PageArgs } from './connection';
import type { Ctx } from './context';
import { gid, parseGid } from './ids';
import {
  appSubscriptionCancel,
  appSubscriptionCreate,
  appSubscriptionLineItemUpdate,
  appUsageRecordCreate,
} from './mutations-billing';
import {
  articleUpdate,
  collectionUpdate,
  fileAcknowledgeUpdateFailed,
  fileCreate,
  fileUpdate,
  stagedUploadsCreate,
} from './mutations-files';
import { filterSearch } from './search';
import {
  articleView,
  blogView,
  collectionView,
  fileView,
  filterArticles,
  nodeView,
  ONLINE_STORE_PUBLICATION_ID,
  productView,
  themeView,
} from './views';

type Args = Record<string, unknown>;

const PRODUCT_FIELDS = {
  id: (p: ProductRec) => p.id,
  title: (p: ProductRec) => p.title,
  handle: (p: ProductRec) => p.handle,
  vendor: (p: ProductRec) => p.vendor,
  product_type: (p: ProductRec) => p.productType,
  status: (p: ProductRec) => p.status,
  tag: (p: ProductRec) => p.tags,
  updated_at: (p: ProductRec) => p.updatedAt,
  created_at: (p: ProductRec) => p.createdAt,
  published_at: (p: ProductRec) => p.publishedAt,
  published_status: (p: ProductRec) => (p.status === 'ACTIVE' && p.publishedAt ? 'published' : 'unpublished'),
};

function sortBy<T>(items: T[], key: ((x: T) => string | number) | null): T[] {
  return key ? [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)) : items;
}

function productsFor(ctx: Ctx, a: PageArgs & { query?: string; sortKey?: string }): ProductRec[] {
  ensureCatalogue(ctx.shop);
  let list = filterSearch(ctx.shop.products, a.query, PRODUCT_FIELDS, (p) => `${p.title} ${p.vendor} ${p.tags.join(' ')}`);
  // published_status:published also means "visible on the online store" (Shopify's default channel).
  const key =
    a.sortKey === 'TITLE'
      ? (p: ProductRec) => p.title
      : a.sortKey === 'UPDATED_AT'
        ? (p: ProductRec) => p.updatedAt
        : a.sortKey === 'CREATED_AT'
          ? (p: ProductRec) => p.createdAt
          : null;
  list = sortBy(list, key);
  return list;
}

export function buildRoot(ctx: Ctx, execute: Executor): Record<string, unknown> {
  const { shop, emu } = ctx;
  const installation = () => ({
    id: gid('AppInstallation', shop.shopNumber),
    app: { id: gid('App', 1), title: 'Image Optimizer & Page Speed', handle: emu.app.handle, apiKey: emu.app.apiKey },
    launchUrl: `${emu.origin}/${shop.domain}/admin/apps/${emu.app.handle}`,
    accessScopes: shop.scopes.map((handle) => ({ handle, description: handle })),
    activeSubscriptions: () => shop.subscriptions.filter((s) => s.status === 'ACTIVE').map((s) => subscriptionView(ctx, s)),
    allSubscriptions: (a: PageArgs) => connection(ctx, shop.subscriptions, a, (s) => subscriptionView(ctx, s)),
  });
  const node = (id: string) => {
    const n = parseGid(id);
    if (id.startsWith('gid://shopify/BulkOperation/')) {
      const op = shop.bulkOperations.find((o) => o.id === n);
      return op ? bulkOperationView(ctx, op) : null;
    }
    if (id.startsWith('gid://shopify/AppSubscription/')) {
      const s = shop.subscriptions.find((o) => o.id === n);
      return s ? subscriptionView(ctx, s) : null;
    }
    if (id.startsWith('gid://shopify/AppUsageRecord/')) {
      const r = shop.usageRecords.find((o) => o.id === n);
      return r ? usageRecordView(ctx, r) : null;
    }
    return nodeView(ctx, id);
  };
  const withCatalogue =
    <T>(f: () => T) =>
    () => (ensureCatalogue(shop), f());
  return {
    // ---- QueryRoot
    shop: () => ({
      __typename: 'Shop',
      id: gid('Shop', shop.shopNumber),
      name: shop.name,
      email: shop.email,
      contactEmail: shop.email,
      shopOwnerName: shop.ownerName,
      myshopifyDomain: shop.domain,
      url: shop.primaryDomainUrl,
      primaryDomain: {
        id: gid('Domain', shop.shopNumber),
        host: new URL(shop.primaryDomainUrl).host,
        url: shop.primaryDomainUrl,
        sslEnabled: shop.primaryDomainUrl.startsWith('https'),
      },
      currencyCode: shop.currencyCode,
      ianaTimezone: shop.ianaTimezone,
      timezoneAbbreviation: 'EST',
      plan: {
        displayName: shop.planName,
        publicDisplayName: shop.planName,
        partnerDevelopment: shop.partnerDevelopment,
        shopifyPlus: false,
      },
      billingAddress: { countryCodeV2: 'US', country: 'United States', city: 'New York' },
      description: `${shop.name}, an emulated Shopify store`,
      createdAt: shop.createdAt,
      updatedAt: shop.updatedAt,
    }),
    shopLocales: () => shop.locales.map((locale, i) => ({ locale, name: locale, primary: i === 0, published: true })),
    node: (a: { id: string }) => node(a.id),
    nodes: (a: { ids: string[] }) => a.ids.map(node),
    product: (a: { id: string }) => nodeView(ctx, a.id.startsWith('gid://shopify/Product/') ? a.id : 'gid://shopify/Invalid/0'),
    productByHandle: (a: { handle: string }) => {
      ensureCatalogue(shop);
      const p = shop.products.find((x) => x.handle === a.handle);
      return p ? productView(ctx, p) : null;
    },
    products: (a: PageArgs & { query?: string; sortKey?: string }) =>
      connection(ctx, productsFor(ctx, a), a, (p) => productView(ctx, p)),
    productsCount: (a: { query?: string; limit?: number }) => count(productsFor(ctx, a).length, a.limit ?? 10_000),
    collection: (a: { id: string }) => (a.id.startsWith('gid://shopify/Collection/') ? nodeView(ctx, a.id) : null),
    collections: (a: PageArgs & { query?: string }) =>
      connection(
        ctx,
        (ensureCatalogue(shop),
        filterSearch(
          shop.collections,
          a.query,
          {
            id: (c) => c.id,
            title: (c) => c.title,
            handle: (c) => c.handle,
            updated_at: (c) => c.updatedAt,
            collection_type: (c) => (c.rules ? 'smart' : 'custom'),
          },
          (c) => c.title,
        )),
        a,
        (c) => collectionView(ctx, c),
      ),
    collectionsCount: withCatalogue(() => count(shop.collections.length)),
    blog: (a: { id: string }) => (a.id.startsWith('gid://shopify/Blog/') ? nodeView(ctx, a.id) : null),
    blogs: (a: PageArgs) => connection(ctx, (ensureCatalogue(shop), shop.blogs), a, (b) => blogView(ctx, b)),
    blogsCount: withCatalogue(() => count(shop.blogs.length)),
    article: (a: { id: string }) => (a.id.startsWith('gid://shopify/Article/') ? nodeView(ctx, a.id) : null),
    articles: (a: PageArgs & { query?: string }) =>
      connection(ctx, (ensureCatalogue(shop), filterArticles(shop.articles, a.query)), a, (x) => articleView(ctx, x)),
    files: (a: PageArgs & { query?: string }) =>
      connection(
        ctx,
        (ensureCatalogue(shop),
        filterSearch(
          [...shop.files.values()],
          a.query,
          {
            id: (f) => f.id,
            filename: (f) => f.filename,
            media_type: (f) => (f.kind === 'MediaImage' ? 'IMAGE' : 'GENERIC_FILE'),
            status: (f) => f.status,
            updated_at: (f) => f.updatedAt,
            created_at: (f) => f.createdAt,
            product_id: (f) => f.productIds.map(String),
            used_in: (f) => (f.productIds.length ? ['product'] : ['none']),
          },
          (f) => f.filename,
        )),
        a,
        (f) => fileView(ctx, f),
      ),
    publications: (a: PageArgs) =>
      connection(ctx, [{ id: ONLINE_STORE_PUBLICATION_ID }], a, (p) => ({
        id: gid('Publication', p.id),
        name: 'Online Store',
        autoPublish: false,
        supportsFuturePublishing: true,
      })),
    theme: (a: { id: string }) => (a.id.startsWith('gid://shopify/OnlineStoreTheme/') ? nodeView(ctx, a.id) : null),
    themes: (a: PageArgs & { roles?: string[]; names?: string[] }) =>
      connection(
        ctx,
        shop.themes.filter((t) => (!a.roles || a.roles.includes(t.role)) && (!a.names || a.names.includes(t.name))),
        a,
        (t) => themeView(ctx, t),
      ),
    currentBulkOperation: (a: { type?: string }) => {
      const ops = shop.bulkOperations.filter((o) => o.type === (a.type ?? 'QUERY'));
      const op = ops[ops.length - 1];
      return op ? bulkOperationView(ctx, op) : null;
    },
    bulkOperation: (a: { id: string }) => node(a.id),
    currentAppInstallation: installation,
    webhookSubscriptions: (a: PageArgs & { topics?: string[] }) =>
      connection(
        ctx,
        shop.webhookSubscriptions.filter((s) => !a.topics || a.topics.includes(s.topic)),
        a,
        (s) => webhookSubscriptionView(s),
      ),

    // ---- Mutation
    stagedUploadsCreate: (a: Args) => stagedUploadsCreate(a as Parameters<typeof stagedUploadsCreate>[0], ctx),
    fileCreate: (a: Args) => fileCreate(a as Parameters<typeof fileCreate>[0], ctx),
    fileUpdate: (a: Args) => fileUpdate(a as Parameters<typeof fileUpdate>[0], ctx),
    fileAcknowledgeUpdateFailed: (a: { fileIds: string[] }) => fileAcknowledgeUpdateFailed(a, ctx),
    collectionUpdate: (a: Args) => collectionUpdate(a, ctx),
    articleUpdate: (a: Args) => articleUpdate(a as Parameters<typeof articleUpdate>[0], ctx),
    bulkOperationRunQuery: (a: { query: string }) => bulkOperationRunQuery(a, ctx, execute),
    bulkOperationCancel: (a: { id: string }) => bulkOperationCancel(a, ctx),
    appSubscriptionCreate: (a: Args) => appSubscriptionCreate(a as Parameters<typeof appSubscriptionCreate>[0], ctx),
    appSubscriptionCancel: (a: { id: string }) => appSubscriptionCancel(a, ctx),
    appSubscriptionLineItemUpdate: (a: Args) =>
      appSubscriptionLineItemUpdate(a as Parameters<typeof appSubscriptionLineItemUpdate>[0], ctx),
    appUsageRecordCreate: (a: Args) => appUsageRecordCreate(a as Parameters<typeof appUsageRecordCreate>[0], ctx),
    webhookSubscriptionCreate: (a: { topic: string; webhookSubscription: { callbackUrl?: string; uri?: string } }) => {
      const callbackUrl = a.webhookSubscription.callbackUrl ?? a.webhookSubscription.uri ?? '';
      if (!/^https?:\/\//.test(callbackUrl))
        return {
          webhookSubscription: null,
          userErrors: [{ field: ['webhookSubscription', 'callbackUrl'], message: 'Address is invalid' }],
        };
      if (shop.webhookSubscriptions.some((s) => s.topic === a.topic && s.callbackUrl === callbackUrl)) {
        return {
          webhookSubscription: null,
          userErrors: [
            { field: ['webhookSubscription', 'callbackUrl'], message: 'Address for this topic has already been taken' },
          ],
        };
      }
      const sub = { id: emu.nextId(), topic: a.topic, callbackUrl, format: 'JSON' as const, createdAt: isoNow() };
      shop.webhookSubscriptions.push(sub);
      return { webhookSubscription: webhookSubscriptionView(sub), userErrors: [] };
    },
    webhookSubscriptionDelete: (a: { id: string }) => {
      const before = shop.webhookSubscriptions.length;
      shop.webhookSubscriptions = shop.webhookSubscriptions.filter((s) => s.id !== parseGid(a.id, 'WebhookSubscription'));
      return before === shop.webhookSubscriptions.length
        ? { deletedWebhookSubscriptionId: null, userErrors: [{ field: ['id'], message: 'Webhook subscription does not exist' }] }
        : { deletedWebhookSubscriptionId: a.id, userErrors: [] };
    },
  };
}

function webhookSubscriptionView(s: { id: number; topic: string; callbackUrl: string; createdAt: string }) {
  return {
    __typename: 'WebhookSubscription',
    id: gid('WebhookSubscription', s.id),
    topic: s.topic,
    format: 'JSON',
    uri: s.callbackUrl,
    endpoint: { __typename: 'WebhookHttpEndpoint', callbackUrl: s.callbackUrl },
    createdAt: s.createdAt,
    updatedAt: s.createdAt,
  };
}
