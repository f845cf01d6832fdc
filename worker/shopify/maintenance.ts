// Scheduled upkeep of the Shopify grants (registered in worker/jobs/scheduled.ts).
import { createDb } from '../db/client';
import { listShopsWithRefreshTokenExpiringBefore } from '../db/shops';
import { createLogger } from '../lib/log';
import { refreshWithLease } from './tokens';

/** Refresh tokens lapse if unused (Shopify: about 90 days); renew those within a week of lapsing. */
const REFRESH_TOKEN_HORIZON_MS = 7 * 24 * 60 * 60_000;

/** Half-hourly: shops idle long enough for their refresh token to near expiry get a fresh grant. */
export async function refreshLapsingGrantsTask(_controller: ScheduledController, env: Env): Promise<void> {
  const db = createDb(env.DB);
  const log = createLogger({ task: 'refresh_lapsing_grants' });
  const shops = await listShopsWithRefreshTokenExpiringBefore(db, Date.now() + REFRESH_TOKEN_HORIZON_MS);
  let refreshed = 0;
  for (const shop of shops) {
    try {
      await refreshWithLease(env, db, shop.id, shop.accessTokenExpiresAt);
      refreshed += 1;
    } catch (err) {
      log.warn('grant_refresh_failed', { shop: shop.domain, error: err });
    }
  }
  log.info('grants_refreshed', { candidates: shops.length, refreshed });
}
