// The emulator's in-memory model of a Shopify store. Numeric ids are unique across all types (like
// Shopify's large integer ids); GIDs are built from them at the GraphQL edge.

/** Bytes as the CDN serves them. Blobs are immutable: replacing a file swaps the blob. */
export type Blob = { bytes: Uint8Array; mimeType: string; width: number; height: number };

export type FileStatus = 'UPLOADED' | 'PROCESSING' | 'READY' | 'FAILED';
export type FileError = { code: string; details: string | null; message: string };

/** A MediaImage (product media or a Files-section image) or a GenericFile. */
export type FileRec = {
  id: number;
  imageId: number; // the ImageSource id of its `image`
  kind: 'MediaImage' | 'GenericFile';
  filename: string;
  alt: string;
  blob: Blob;
  pendingSource: string | null; // URL being processed after fileUpdate/fileCreate
  pendingFilename: string | null;
  status: FileStatus;
  everReady: boolean; // a file still in its first processing has no image yet
  errors: FileError[];
  version: number; // the ?v= of the CDN URL, bumped whenever bytes change
  productIds: number[];
  createdAt: string;
  updatedAt: string;
};

/** An image that belongs to one collection or article (replaced through that resource's mutation). */
export type OwnedImage = { id: number; filename: string; alt: string; blob: Blob; version: number };

export type ProductStatus = 'ACTIVE' | 'DRAFT' | 'ARCHIVED';
export type Variant = { id: number; title: string; price: string; sku: string };
export type ProductRec = {
  id: number;
  title: string;
  handle: string;
  vendor: string;
  productType: string;
  status: ProductStatus;
  descriptionHtml: string;
  tags: string[];
  publishedAt: string | null; // null: not published on the Online Store
  mediaIds: number[];
  variants: Variant[];
  createdAt: string;
  updatedAt: string;
};

export type CollectionRule = { column: string; relation: string; condition: string };
export type CollectionRec = {
  id: number;
  title: string;
  handle: string;
  descriptionHtml: string;
  image: OwnedImage | null;
  productIds: number[];
  rules: CollectionRule[] | null; // null: a custom (manual) collection; else automated (smart)
  publishedAt: string | null;
  updatedAt: string;
};

export type BlogRec = { id: number; title: string; handle: string; createdAt: string; updatedAt: string };
export type ArticleRec = {
  id: number;
  blogId: number;
  title: string;
  handle: string;
  body: string;
  summary: string;
  author: string;
  tags: string[];
  image: OwnedImage | null;
  isPublished: boolean;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

export type ThemeRole = 'MAIN' | 'UNPUBLISHED' | 'DEVELOPMENT' | 'DEMO' | 'ARCHIVED' | 'LOCKED';
export type ThemeFile = { content: string; updatedAt: string; createdAt: string };
export type ThemeRec = {
  id: number;
  name: string;
  role: ThemeRole;
  files: Map<string, ThemeFile>;
  createdAt: string;
  updatedAt: string;
};

export type Money = { amount: string; currencyCode: string };
/**
 * A discount on the recurring line (AppSubscriptionDiscountInput): a percentage (0 < p <= 1) or a fixed
 * amount off every billing interval, for `durationLimitInIntervals` intervals (null: indefinitely).
 * `remainingDurationInIntervals` counts the intervals still to be billed at the discounted price.
 */
export type RecurringDiscount = {
  value: { percentage: number } | { amount: Money };
  durationLimitInIntervals: number | null;
  remainingDurationInIntervals: number | null;
  priceAfterDiscount: Money;
};
export type RecurringLine = {
  id: number;
  kind: 'recurring';
  price: Money;
  interval: 'EVERY_30_DAYS' | 'ANNUAL';
  discount: RecurringDiscount | null;
};
export type UsageLine = {
  id: number;
  kind: 'usage';
  cappedAmount: Money;
  balanceUsed: Money;
  terms: string;
  pendingCappedAmount: Money | null;
};
export type SubscriptionLine = RecurringLine | UsageLine;
export type SubscriptionStatus = 'PENDING' | 'ACTIVE' | 'DECLINED' | 'EXPIRED' | 'FROZEN' | 'CANCELLED' | 'ACCEPTED';
export type SubscriptionRec = {
  id: number;
  name: string;
  status: SubscriptionStatus;
  test: boolean;
  returnUrl: string;
  trialDays: number;
  lineItems: SubscriptionLine[];
  createdAt: string;
  currentPeriodEnd: string | null;
  /** Set while a capped-amount change awaits the merchant's approval. */
  pendingLineItemUpdate: { lineItemId: number; cappedAmount: Money } | null;
};
/** One billing interval of a recurring line on the shop's bill: what the merchant is charged. */
export type RecurringChargeRec = {
  id: number;
  subscriptionId: number;
  lineItemId: number;
  /** The amount billed for the interval (the discounted price while the discount lasts). */
  amount: Money;
  /** The line's undiscounted price. */
  price: Money;
  discounted: boolean;
  periodStart: string;
  periodEnd: string;
  createdAt: string;
};
export type UsageRecordRec = {
  id: number;
  lineItemId: number;
  description: string;
  price: Money;
  idempotencyKey: string | null;
  createdAt: string;
};

export type BulkStatus = 'CREATED' | 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELED' | 'CANCELING' | 'EXPIRED';
export type BulkOperationRec = {
  id: number;
  type: 'QUERY' | 'MUTATION';
  status: BulkStatus;
  query: string;
  createdAt: string;
  completedAt: string | null;
  objectCount: number;
  rootObjectCount: number;
  jsonl: string | null;
  errorCode: string | null;
};

export type WebhookDelivery = {
  id: string;
  topic: string;
  /** Where Shopify posts it (webhooks.ts targetFor); '' for a topic the app does not subscribe. */
  url: string;
  body: string; // the raw JSON body, exactly the bytes that were signed
  headers: Record<string, string>;
  createdAt: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  lastResponseStatus: number | null;
};

export type WebhookSubscriptionRec = { id: number; topic: string; callbackUrl: string; format: 'JSON'; createdAt: string };
