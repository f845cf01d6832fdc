// Which of a shop's charges are test charges, decided per shop: development stores (Shopify says so:
// shop.plan.partnerDevelopment) and stores Shopify allows only test charges (app review and staff
// stores, which answer a real charge with "The shop cannot accept the provided charge."). The
// BILLING_TEST_CHARGES flag stays as an override for local development. Everywhere else a charge is
// real, and a test subscription never counts as a paid plan.
import { updateShopBilling } from '../db/shop-billing';
import type { ShopRow } from '../db/shops';
import { isPartnerDevelopmentShop } from '../shopify';
import { ShopifyUserError } from '../shopify/errors';
import type { AdminClient } from '../shopify/graphql-client';
import type { SyncDeps } from './deps';

/** Shopify's userErrors message when the store can only accept test charges (it has no code). */
export const ONLY_TEST_CHARGES = /cannot accept the provided charge/i;

type FlagEnv = { BILLING_TEST_CHARGES?: string };

/** Test subscriptions count as paid plans only here: a dev store, a test-only store, or the local override. */
export function testChargesAllowed(env: FlagEnv, shop: Pick<ShopRow, 'isDevelopmentStore' | 'testChargesOnly'>): boolean {
  return env.BILLING_TEST_CHARGES === 'true' || shop.isDevelopmentStore || shop.testChargesOnly;
}

/**
 * Whether a new charge for this shop is a test charge. Asks Shopify whether it is a development store
 * (a store can change from development to paying, so the stored flag is only the fallback) and keeps
 * the answer on the shop row.
 */
export async function chargeIsTest(deps: SyncDeps, shop: ShopRow, client: AdminClient): Promise<boolean> {
  if (deps.env.BILLING_TEST_CHARGES === 'true' || shop.testChargesOnly) return true;
  try {
    const dev = await isPartnerDevelopmentShop(client);
    if (dev !== shop.isDevelopmentStore) await updateShopBilling(deps.db, shop.id, { isDevelopmentStore: dev });
    return dev;
  } catch (err) {
    deps.log?.warn('shop_plan_check_failed', { shop: shop.domain, error: err });
    return shop.isDevelopmentStore;
  }
}

/** Shopify refused a real charge because this store may only make test charges. */
export function refusedAsTestOnly(err: unknown): boolean {
  return err instanceof ShopifyUserError && err.userErrors.some((e) => ONLY_TEST_CHARGES.test(e.message));
}

/** Remembers a test-only store, so its later charges start as test charges and its test plan counts. */
export async function markTestChargesOnly(deps: SyncDeps, shop: ShopRow): Promise<void> {
  await updateShopBilling(deps.db, shop.id, { testChargesOnly: true });
}
