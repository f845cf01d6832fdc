// Talks to the store emulator's control API from tests running in workerd. The emulator is started by
// tests/global-setup.ts; its origin is the Worker's SHOPIFY_ORIGIN binding. Each test file should make
// its own shop (createEmulatorShop) so files never see each other's data, faults or webhooks.
import { env } from 'cloudflare:test';

export type ShopSettings = {
  restoreRate: number;
  maximumAvailable: number;
  fileProcessingMs: number;
  bulkOperationMs: number;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  deliverWebhooks: boolean;
  webhookUrl: string;
  storefrontTtfbMs: [number, number];
  storefrontPassword: boolean;
  refuseUpdatesOfFailedFiles: boolean;
};
/** Another app's embed in the main theme (emulator/store/factory.ts OtherAppEmbed; block defaults to `prefetch`). */
export type OtherAppEmbed = { app: string; enabled: boolean; block?: string; uuid?: string };
export type TokenAnswer = {
  access_token: string;
  scope: string;
  expires_in?: number;
  refresh_token?: string;
  refresh_token_expires_in?: number;
};
export type FileInfo = {
  id: string;
  filename: string;
  alt: string;
  status: 'UPLOADED' | 'PROCESSING' | 'READY' | 'FAILED';
  errors: { code: string; message: string }[];
  url: string;
  version: number;
  productIds: string[];
  mimeType: string;
  size: number;
  width: number;
  height: number;
  sha256: string;
};
export type ImageInfo = {
  filename: string;
  alt: string;
  url: string;
  mimeType: string;
  size: number;
  width: number;
  height: number;
  sha256: string;
};
export type ProductInfo = {
  id: string;
  title: string;
  handle: string;
  vendor: string;
  status: string;
  published: boolean;
  updatedAt: string;
  media: FileInfo[];
};
export type CollectionInfo = {
  id: string;
  title: string;
  handle: string;
  smart: boolean;
  productsCount: number;
  image: ImageInfo | null;
};
export type ArticleInfo = {
  id: string;
  blogId: string;
  title: string;
  handle: string;
  published: boolean;
  image: ImageInfo | null;
};
export type WebhookDelivery = {
  id: string;
  topic: string;
  url: string;
  body: string;
  headers: Record<string, string>;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
};
export type ShopInfo = {
  domain: string;
  installed: boolean;
  scopes: string[];
  storefrontUrl: string;
  settings: ShopSettings;
  stats: {
    graphqlRequests: number;
    throttled: number;
    injectedFaults: number;
    tokenRefreshes: number;
    tokenExchanges: number;
    authorizationCodes: number;
    unauthorized: number;
  };
  bucket: { available: number; maximumAvailable: number; restoreRate: number };
};
export type FaultSpec = {
  target?: 'graphql' | 'cdn' | 'staged-upload' | 'oauth' | 'all';
  status?: number;
  times?: number;
  delayMs?: number;
  retryAfter?: number;
};
export type PageSpeedRule = {
  host?: string;
  mode?: 'ok' | 'rate-limited' | 'password' | 'unreachable' | 'error';
  desktop?: number;
  mobile?: number;
  delayMs?: number;
  remaining?: number;
};
/** One interval of a recurring line on the shop's bill (emulator/store/types.ts RecurringChargeRec). */
export type RecurringCharge = {
  id: number;
  subscriptionId: number;
  amount: { amount: string; currencyCode: string };
  price: { amount: string; currencyCode: string };
  discounted: boolean;
  periodStart: string;
  periodEnd: string;
};

export type ImageBody = { seed?: string; base64?: string; alt?: string; filename?: string };

/** The emulator's origin (also the Worker's SHOPIFY_ORIGIN and PAGESPEED_ORIGIN in tests). */
export function emulatorOrigin(): string {
  if (!env.SHOPIFY_ORIGIN) throw new Error('SHOPIFY_ORIGIN is empty: is tests/global-setup.ts in vitest.config.ts?');
  return env.SHOPIFY_ORIGIN;
}

async function control<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${emulatorOrigin()}/__emulator${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`emulator ${method} ${path}: ${res.status} ${await res.text()}`);
  const type = res.headers.get('Content-Type') ?? '';
  return (type.includes('json') ? await res.json() : await res.text()) as T;
}

const idPart = (id: string) => encodeURIComponent(id);

export type EmulatorShop = Awaited<ReturnType<typeof createEmulatorShop>>;

/**
 * A fresh shop in the emulator. seed 'dev' (default) copies the dev store's catalogue; 'empty' has only
 * a theme; 'large' generates `products` x `imagesPerProduct` on first access. With install: true the
 * app is installed at once and `tokens` holds Shopify's token answer (expiring offline token).
 */
export async function createEmulatorShop(
  opts: {
    domain?: string;
    seed?: 'dev' | 'empty' | 'large';
    products?: number;
    imagesPerProduct?: number;
    install?: boolean;
    scopes?: string[];
    settings?: Partial<ShopSettings>;
  } = {},
) {
  const created = await control<ShopInfo & { tokens: TokenAnswer | null }>('POST', '/shops', opts);
  const domain = created.domain;
  const S = `/shops/${domain}`;
  return {
    domain,
    tokens: created.tokens,
    /** `${SHOPIFY_ORIGIN}/<shop>`: the base the app's client builds its URLs on. */
    base: `${emulatorOrigin()}/${domain}`,
    info: () => control<ShopInfo>('GET', S),
    setSettings: (s: Partial<ShopSettings>) => control<ShopInfo>('PATCH', `${S}/settings`, s),
    /** Changes shop fields (name, email, locales, currencyCode...) and sends shop/update. */
    update: (fields: Record<string, unknown>) => control<ShopInfo>('PATCH', S, fields),
    install: (scopes?: string[], expiring = true) => control<TokenAnswer>('POST', `${S}/install`, { scopes, expiring }),
    uninstall: () => control<{ webhook: WebhookDelivery | null }>('POST', `${S}/uninstall`),
    expireTokens: () => control<{ expired: number }>('POST', `${S}/tokens/expire`),
    sessionToken: async () => (await control<{ token: string }>('POST', `${S}/session-token`)).token,
    /** The signed launch URL; `idToken` adds Shopify's session token (`id_token`) as the embedded admin does. */
    launchUrl: async (path = '/shopify/app', opts: { idToken?: boolean } = {}) =>
      (
        await control<{ url: string }>(
          'GET',
          `${S}/launch-url?path=${encodeURIComponent(path)}${opts.idToken ? '&idToken=1' : ''}`,
        )
      ).url,

    products: () => control<ProductInfo[]>('GET', `${S}/products`),
    collections: () => control<CollectionInfo[]>('GET', `${S}/collections`),
    articles: () => control<ArticleInfo[]>('GET', `${S}/articles`),
    files: () => control<FileInfo[]>('GET', `${S}/files`),
    file: (id: string) => control<FileInfo>('GET', `${S}/files/${idPart(id)}`),
    fileBytes: async (id: string) =>
      new Uint8Array(await (await fetch(`${emulatorOrigin()}/__emulator${S}/files/${idPart(id)}/bytes`)).arrayBuffer()),
    /** Waits until the file leaves PROCESSING/UPLOADED. */
    waitForFile: async (id: string, timeoutMs = 5000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const f = await control<FileInfo>('GET', `${S}/files/${idPart(id)}`);
        if (f.status === 'READY' || f.status === 'FAILED' || Date.now() > until) return f;
        await new Promise((r) => setTimeout(r, 25));
      }
    },

    // Merchant actions in the Shopify admin; each queues Shopify's webhook.
    createProduct: (p: {
      title: string;
      status?: 'ACTIVE' | 'DRAFT' | 'ARCHIVED';
      published?: boolean;
      vendor?: string;
      images?: ImageBody[];
    }) => control<ProductInfo>('POST', `${S}/products`, p),
    updateProduct: (
      id: string,
      patch: { title?: string; vendor?: string; status?: 'ACTIVE' | 'DRAFT' | 'ARCHIVED'; published?: boolean },
    ) => control<ProductInfo>('PATCH', `${S}/products/${idPart(id)}`, patch),
    addProductImage: (id: string, image: ImageBody) => control<ProductInfo>('POST', `${S}/products/${idPart(id)}/media`, image),
    deleteProduct: (id: string) => control<{ deleted: string }>('DELETE', `${S}/products/${idPart(id)}`),
    updateCollection: (id: string, patch: { title?: string; published?: boolean }) =>
      control<CollectionInfo>('PATCH', `${S}/collections/${idPart(id)}`, patch),
    deleteCollection: (id: string) => control<{ deleted: string }>('DELETE', `${S}/collections/${idPart(id)}`),

    // What a merchant (or another app) does to images after we optimised them (emulator/http/control-images.ts).
    /** Files > Replace: new bytes in the same MediaImage (same id and path, new `?v=`). */
    replaceFile: (id: string, image: ImageBody) => control<FileInfo>('POST', `${S}/files/${idPart(id)}/replace`, image),
    /** Alt text edited or the file renamed in the admin. */
    editFile: (id: string, patch: { alt?: string; filename?: string }) =>
      control<FileInfo>('PATCH', `${S}/files/${idPart(id)}`, patch),
    /** A product image removed and another one added in its place (a new MediaImage). */
    replaceProductMedia: (productId: string, mediaId: string, image: ImageBody) =>
      control<ProductInfo>('POST', `${S}/products/${idPart(productId)}/media-replace/${idPart(mediaId)}`, image),
    removeProductMedia: (productId: string, mediaId: string) =>
      control<ProductInfo>('DELETE', `${S}/products/${idPart(productId)}/media/${idPart(mediaId)}`),
    setCollectionImage: (id: string, image: ImageBody) =>
      control<CollectionInfo>('PUT', `${S}/collections/${idPart(id)}/image`, image),
    setArticleImage: (id: string, image: ImageBody) => control<ArticleInfo>('PUT', `${S}/articles/${idPart(id)}/image`, image),

    /** Next `times` matching requests fail with `status` (0 = only slow, with delayMs). */
    injectFault: (f: FaultSpec) => control<FaultSpec & { id: number }>('POST', `${S}/faults`, f),
    failFileProcessing: (times = 1, code = 'IMAGE_PROCESSING_FAILURE') =>
      control('POST', `${S}/faults/file-processing`, { times, code }),
    clearFaults: () => control('DELETE', `${S}/faults`),

    /**
     * The merchant switches the app embed on/off in the theme editor (null: the block was never added);
     * `others`: other apps' embeds in the theme, e.g. another app's `prefetch` block.
     */
    setEmbed: (enabled: boolean | null, others: OtherAppEmbed[] = []) => control('POST', `${S}/theme/embed`, { enabled, others }),
    /** The main theme's config/settings_data.json as Shopify stores it (a comment, then JSON: read as text). */
    settingsData: async () => (await fetch(`${emulatorOrigin()}/__emulator${S}/theme/settings-data`)).text(),

    webhooks: (filter: { status?: 'pending' | 'delivered' | 'failed'; topic?: string } = {}) =>
      control<WebhookDelivery[]>('GET', `${S}/webhooks?${new URLSearchParams(filter as Record<string, string>)}`),
    ackWebhook: (id: string) => control<WebhookDelivery>('POST', `${S}/webhooks/${id}/ack`),
    /** POSTs the pending deliveries to `url` over HTTP (a Worker started elsewhere). */
    deliverWebhooks: (url?: string) => control<WebhookDelivery[]>('POST', `${S}/webhooks/deliver`, { url }),
    /** Queues a webhook of any topic; compliance topics get Shopify's sample payloads. */
    triggerWebhook: (topic: string, payload?: unknown) =>
      control<WebhookDelivery>('POST', `${S}/webhooks/trigger`, { topic, payload }),
    /**
     * Hands every pending delivery, as the exact signed Request Shopify would send to the URL the app's
     * shopify.app.toml resolves to (`delivery.url`, or `url` when given), to `post` (e.g. the in-process
     * app: (req) => app.fetch(req, env, ctx)), then marks it delivered. Topics the app does not subscribe
     * (no URL) are not sent, as Shopify would not send them. Returns the responses.
     */
    postPendingWebhooks: async (post: (req: Request) => Promise<Response>, url?: string) => {
      const pending = await control<WebhookDelivery[]>('GET', `${S}/webhooks?status=pending`);
      const results: { delivery: WebhookDelivery; status: number }[] = [];
      for (const d of pending) {
        if (!(url || d.url)) continue;
        const res = await post(new Request(url || d.url, { method: 'POST', headers: d.headers, body: d.body }));
        results.push({ delivery: d, status: res.status });
        if (res.ok) await control('POST', `${S}/webhooks/${d.id}/ack`);
      }
      return results;
    },

    billing: () =>
      control<{
        subscriptions: { id: number; name: string; status: string; test: boolean; lineItems: unknown[] }[];
        usageRecords: unknown[];
        recurringCharges: RecurringCharge[];
      }>('GET', `${S}/billing`),
    /** A billing cycle passes: each active subscription bills its next interval. */
    nextBillingCycle: () => control<{ recurringCharges: RecurringCharge[] }>('POST', `${S}/billing/next-cycle`),
    /** Approves (or declines) a charge as the merchant would on the confirmation page; returns the returnUrl with charge_id. */
    decideCharge: async (chargeIdOrGid: string | number, approve = true) =>
      (
        await control<{ returnUrl: string }>(
          'POST',
          `${S}/billing/${String(chargeIdOrGid).replace(/^.*\//, '')}/${approve ? 'approve' : 'decline'}`,
        )
      ).returnUrl,

    /** A GraphQL call straight to the emulator (for tests of the emulator itself). */
    graphql: async <T = unknown>(
      query: string,
      variables: Record<string, unknown> = {},
      token = created.tokens?.access_token ?? '',
    ) => {
      const res = await fetch(`${emulatorOrigin()}/${domain}/admin/api/2026-10/graphql.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': token },
        body: JSON.stringify({ query, variables }),
      });
      return {
        status: res.status,
        headers: res.headers,
        body: await res.json<{
          data?: T;
          errors?: unknown;
          extensions?: {
            cost: {
              requestedQueryCost: number;
              actualQueryCost: number | null;
              throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
            };
          };
        }>(),
      };
    },
  };
}

/** PageSpeed emulator behaviour for one storefront host ('*' for all). */
export const pageSpeed = {
  set: (rule: PageSpeedRule) => control('PUT', '/pagespeed', rule),
  reset: () => control('DELETE', '/pagespeed'),
  calls: () => control<{ url: string; strategy: string; status: number }[]>('GET', '/pagespeed/calls'),
};
