// The public surface of worker/shopify, the outbound adapter: everything the rest of the Worker may call
// to talk to Shopify (clients, tokens, typed operations, errors). Inbound Shopify traffic (install, OAuth,
// session tokens, webhooks) is handled in worker/install, worker/auth and worker/webhooks.
export { SHOPIFY_API_VERSION, shopBaseUrl, graphqlUrl } from './api-version';
export * from './errors';
export {
  createAdminClient,
  type AdminClient,
  type AccessTokenSource,
  type AdminClientOptions,
  type RequestOptions,
} from './graphql-client';
export { shopifyClientFor } from './client';
export { getAccessToken, exchangeSessionToken, REFRESH_MARGIN_MS } from './tokens';
export { shopifyHostUrl } from './api-version';
export type { ThrottleStatus } from './throttle';

export { getShopId, getShopInfo, isPartnerDevelopmentShop, type ShopInfo } from './operations/shop';
export { numericId, gid, type Page, type PageInfo, type ImageRef } from './operations/common';
export {
  getProductsPage,
  getProduct,
  iterateProducts,
  countProducts,
  productsPageCost,
  PRODUCTS_PAGE_DEFAULTS,
  PRODUCTS_COUNT,
  type ProductWithMedia,
  type ProductMediaImage,
} from './operations/products';
export { ADMIN_GRAPHQL_DOCUMENTS, BULK_QUERY_DOCUMENTS } from './operations/documents';
export { getCollectionsPage, getCollection, updateCollectionImage, type CollectionWithImage } from './operations/collections';
export { getArticlesPage, getArticle, updateArticleImage, type ArticleWithImage } from './operations/articles';
export {
  startBulkQuery,
  getBulkOperation,
  waitForBulkOperation,
  readJsonl,
  assembleBulkProducts,
  bulkFetchProductsWithMedia,
  PRODUCTS_WITH_MEDIA_BULK_QUERY,
  type BulkOperation,
} from './operations/bulk';
export {
  createStagedUpload,
  uploadToStagedTarget,
  stageImage,
  updateFile,
  getFileState,
  waitForFileReady,
  acknowledgeFailedFiles,
  type StagedTarget,
  type FileState,
} from './operations/files';
export { getMainThemeSettingsData, type MainThemeSettings } from './operations/themes';
export { currentStoreImageUrl, replaceStoreImage, type StoreImageRef, type StoreImageChange } from './operations/images';
export {
  createAppSubscription,
  cancelAppSubscription,
  getActiveSubscriptions,
  createUsageRecord,
  updateUsageCap,
  type AppSubscription,
  type CreateSubscriptionArgs,
  type Money,
  type SubscriptionLineItem,
  type UsageRecord,
} from './operations/billing';
