// What the billing functions need from the outside, typed once (routes, crons and the webhook pass it).
import type { Db } from '../db/client';
import type { Logger } from '../lib/log';
import type { AdminClient } from '../shopify/graphql-client';
import type { TokenEnv } from '../shopify/tokens';
import type { OfferEnv } from './terms';

/** What reading and syncing subscriptions needs (the webhook passes no more than this). */
export type SyncDeps = {
  env: TokenEnv & Partial<Pick<Env, 'BILLING_TEST_CHARGES'>>;
  db: Db;
  log?: Logger;
  client?: AdminClient;
  now?: number;
};
/** Creating subscriptions also needs the return URL's origin, the test-charge flag and the new-user offer. */
export type BillingDeps = SyncDeps & { env: TokenEnv & Pick<Env, 'APP_URL' | 'BILLING_TEST_CHARGES'> & OfferEnv };
