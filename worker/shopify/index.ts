// The public surface of worker/shopify: everything the rest of the Worker may call.
export { SHOPIFY_API_VERSION, shopBaseUrl, graphqlUrl } from './api-version';
export * from './errors';
export { createAdminClient, type AdminClient, type AccessTokenSource, type AdminClientOptions, type RequestOptions } from './graphql-client';
export { shopifyClientFor } from './client';
export { getAccessToken, exchangeSessionToken, REFRESH_MARGIN_MS } from './tokens';
export { isShopDomain } from './session-token';
export { issueAdminToken, listAdminTokens, revokeAdminTokenById, revokeUserAdminTokens } from './admin-token';
export { shopifyHostUrl } from './api-version';
export type { ThrottleStatus } from './throttle';
export type { SyncQueueMessage, SyncCatalogueMessage, ResourceChangedMessage } from './queue-messages';

export { getShopInfo, isPartnerDevelopmentShop, type ShopInfo } from './operations/shop';
export { numericId, gid, type Page, type PageInfo, type ImageRef } from './operations/common';
export { getProductsPage, getProduct, iterateProducts, productsPageCost, PRODUCTS_PAGE_DEFAULTS, PRODUCTS_COUNT, type ProductWithMedia, type ProductMediaImage } from './operations/products';
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
