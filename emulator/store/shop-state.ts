// One emulated store: catalogue, files, theme, billing, tokens' bookkeeping, settings and faults.
import type {
  ArticleRec,
  BlogRec,
  BulkOperationRec,
  CollectionRec,
  FileRec,
  ProductRec,
  RecurringChargeRec,
  SubscriptionRec,
  ThemeRec,
  UsageRecordRec,
  WebhookDelivery,
  WebhookSubscriptionRec,
} from './types';

export type ShopSettings = {
  /** Leaky bucket (Shopify's Standard plan default is 100 points/s restore). */
  restoreRate: number;
  maximumAvailable: number;
  /** How long a file stays PROCESSING after fileCreate/fileUpdate. */
  fileProcessingMs: number;
  /** How long a bulk operation stays RUNNING. */
  bulkOperationMs: number;
  /** Lifetime of expiring offline access tokens (Shopify: 1 hour). */
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Post each webhook at once to the URL resolved from shopify.app.toml (`npm start`); false keeps them pending. */
  deliverWebhooks: boolean;
  /** Overrides that URL for every topic (and posts at once); '' uses the resolved URL. */
  webhookUrl: string;
  /** Storefront time to first byte, picked uniformly in [min, max] per page. */
  storefrontTtfbMs: [number, number];
  /** A password-protected storefront (PageSpeed then fails like on real development stores). */
  storefrontPassword: boolean;
  /**
   * Shopify 2026-10 refuses fileUpdate on a FAILED file (INVALID_FAILED_MEDIA_STATE) until
   * fileAcknowledgeUpdateFailed resets it. On by default (Shopify's behaviour); off only to test an old client.
   */
  refuseUpdatesOfFailedFiles: boolean;
  /**
   * A store Shopify lets make only test charges although it is no development store (app review and
   * staff stores): a real appSubscriptionCreate answers "The shop cannot accept the provided charge.".
   */
  testChargesOnly: boolean;
};

/** Fault injection. HTTP faults apply to the next `remaining` matching requests (-1: until cleared). */
export type HttpFault = {
  id: number;
  target: FaultTarget;
  status: number;
  delayMs: number;
  retryAfter: number | null;
  remaining: number;
};
export type FaultTarget = 'graphql' | 'cdn' | 'staged-upload' | 'oauth' | 'all';
export type FileProcessingFault = { remaining: number; code: string };

export type ShopState = {
  domain: string;
  shopNumber: number; // the numeric part of gid://shopify/Shop/<n> and of CDN paths
  name: string;
  email: string;
  ownerName: string;
  currencyCode: string;
  /** Published shop locales, primary first (e.g. ['de', 'en']). */
  locales: string[];
  ianaTimezone: string;
  planName: string;
  partnerDevelopment: boolean;
  primaryDomainUrl: string;
  createdAt: string;
  updatedAt: string;

  products: ProductRec[];
  files: Map<number, FileRec>;
  /**
   * Filenames in use, each with the file that holds it (Shopify keeps them unique per shop). A renamed
   * file keeps its old name too (the old URL keeps answering): no other file gets it, but the file itself
   * may take it back (a restore renames "shirt.jpg" back to "shirt.png").
   */
  takenFilenames: Map<string, number>;
  /** Product handles in use (unique per shop). */
  takenProductHandles: Set<string>;
  collections: CollectionRec[];
  blogs: BlogRec[];
  articles: ArticleRec[];
  themes: ThemeRec[];
  /** Generates the catalogue on first access (large shops); null once materialised. */
  lazyCatalogue: (() => void) | null;

  installed: boolean;
  scopes: string[];
  subscriptions: SubscriptionRec[];
  usageRecords: UsageRecordRec[];
  /** The recurring charges billed to the shop, one per subscription interval (the shop's bill). */
  recurringCharges: RecurringChargeRec[];
  bulkOperations: BulkOperationRec[];
  webhookSubscriptions: WebhookSubscriptionRec[];
  webhooks: WebhookDelivery[];

  settings: ShopSettings;
  httpFaults: HttpFault[];
  fileProcessingFaults: FileProcessingFault[];
  bucket: { available: number; updatedAt: number };
  stats: {
    graphqlRequests: number;
    throttled: number;
    injectedFaults: number;
    tokenRefreshes: number;
    tokenExchanges: number;
    authorizationCodes: number;
    unauthorized: number;
  };
};

export const DEFAULT_SETTINGS: ShopSettings = {
  restoreRate: 100,
  maximumAvailable: 2000,
  fileProcessingMs: 150,
  bulkOperationMs: 200,
  accessTokenTtlSeconds: 3600,
  refreshTokenTtlSeconds: 90 * 24 * 3600,
  deliverWebhooks: false,
  webhookUrl: '',
  storefrontTtfbMs: [300, 600],
  storefrontPassword: false,
  refuseUpdatesOfFailedFiles: true,
  testChargesOnly: false,
};

export function ensureCatalogue(shop: ShopState): void {
  if (shop.lazyCatalogue) {
    const make = shop.lazyCatalogue;
    shop.lazyCatalogue = null;
    make();
  }
}
