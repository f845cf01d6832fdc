// The pipeline's Shopify port, built on worker/shopify's typed operations (the replace-in-place sequence
// lives in worker/shopify/operations/images.ts). Product media keep their URL when replaced.
import type { Db } from '../db/client';
import { currentStoreImageUrl, replaceStoreImage, shopifyClientFor } from '../shopify';
import type { TokenEnv } from '../shopify/tokens';
import type { ShopifyImages } from './ports';

export function shopifyImages(env: TokenEnv, db: Db): ShopifyImages {
  return {
    currentImageUrl: (shop, target) => currentStoreImageUrl(shopifyClientFor(env, db, shop), target),
    updateImage: (shop, target, update) => replaceStoreImage(shopifyClientFor(env, db, shop), target, update),
  };
}
