// Every Admin GraphQL document the Worker sends, by operation name. tests/worker/emulator/
// graphql-documents.test.ts validates each against Shopify's published schema for SHOPIFY_API_VERSION
// (and fails when a document in worker/ is missing here), so a field or argument that Shopify does not
// have is caught before a real store answers with errors. A new document goes here too.
import { ARTICLE_BY_ID, ARTICLE_UPDATE_IMAGE, ARTICLES_PAGE } from './articles';
import { ACTIVE_SUBSCRIPTIONS, LINE_ITEM_UPDATE, SUBSCRIPTION_CANCEL, SUBSCRIPTION_CREATE, USAGE_RECORD_CREATE } from './billing';
import { BULK_STATUS, PRODUCTS_WITH_MEDIA_BULK_QUERY, RUN_QUERY } from './bulk';
import { COLLECTION_BY_ID, COLLECTION_UPDATE_IMAGE, COLLECTIONS_PAGE } from './collections';
import { FILE_ACKNOWLEDGE_UPDATE_FAILED, FILE_STATUS, FILE_UPDATE, STAGED_UPLOADS_CREATE } from './files';
import { PRODUCT_BY_ID, PRODUCTS_COUNT, PRODUCTS_PAGE } from './products';
import { SHOP_ID, SHOP_INFO, SHOP_PLAN } from './shop';
import { MAIN_THEME_SETTINGS } from './themes';

/** Documents sent to the Admin GraphQL endpoint, keyed by their operation name. */
export const ADMIN_GRAPHQL_DOCUMENTS: Readonly<Record<string, string>> = {
  ShopInfo: SHOP_INFO,
  ShopPlan: SHOP_PLAN,
  ShopId: SHOP_ID,
  MainThemeSettingsData: MAIN_THEME_SETTINGS,
  ProductsWithMedia: PRODUCTS_PAGE,
  ProductWithMedia: PRODUCT_BY_ID,
  ProductsCount: PRODUCTS_COUNT,
  CollectionsWithImage: COLLECTIONS_PAGE,
  CollectionWithImage: COLLECTION_BY_ID,
  CollectionImageUpdate: COLLECTION_UPDATE_IMAGE,
  ArticlesWithImage: ARTICLES_PAGE,
  ArticleWithImage: ARTICLE_BY_ID,
  ArticleImageUpdate: ARTICLE_UPDATE_IMAGE,
  StagedUploadsCreate: STAGED_UPLOADS_CREATE,
  FileUpdate: FILE_UPDATE,
  FileStatus: FILE_STATUS,
  FileAcknowledgeUpdateFailed: FILE_ACKNOWLEDGE_UPDATE_FAILED,
  BulkRunQuery: RUN_QUERY,
  BulkStatus: BULK_STATUS,
  AppSubscriptionCreate: SUBSCRIPTION_CREATE,
  AppSubscriptionCancel: SUBSCRIPTION_CANCEL,
  ActiveSubscriptions: ACTIVE_SUBSCRIPTIONS,
  AppUsageRecordCreate: USAGE_RECORD_CREATE,
  AppSubscriptionLineItemUpdate: LINE_ITEM_UPDATE,
};

/** Queries handed to bulkOperationRunQuery (same schema; Shopify runs them without pagination). */
export const BULK_QUERY_DOCUMENTS: Readonly<Record<string, string>> = {
  productsWithMedia: PRODUCTS_WITH_MEDIA_BULK_QUERY,
};
