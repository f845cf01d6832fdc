// Monthly quota reset ("Quotas reset monthly (cron), on the shop's billing-cycle day").
// The daily cron moves every shop whose cycle boundary has passed to its newest period start. It moves
// to the boundary, not to "now", so periods stay aligned; a missed day is caught up on the next run;
// and running it twice changes nothing (advanceQuotaPeriod only moves a period forward).
import { advanceQuotaPeriod, listShopsWithPeriodBefore } from '../db/shop-billing';
import type { Db } from '../db/client';
import { createDb } from '../db/client';
import { createLogger } from '../lib/log';
import { currentPeriodStart } from './cycle';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The shortest gap between two period starts is 27 days (a mid-day start before a February boundary). */
const MIN_PERIOD_MS = 26 * DAY_MS;
const BATCH = 200;

export async function resetDueQuotas(db: Db, now: number): Promise<{ reset: number; checked: number }> {
  let afterId = 0;
  let reset = 0;
  let checked = 0;
  for (;;) {
    const batch = await listShopsWithPeriodBefore(db, now - MIN_PERIOD_MS, afterId, BATCH);
    for (const shop of batch) {
      checked += 1;
      const boundary = currentPeriodStart(shop.billingCycleDay, now);
      if (shop.quotaPeriodStart < boundary && (await advanceQuotaPeriod(db, shop.id, boundary))) reset += 1;
    }
    if (batch.length < BATCH) break;
    afterId = batch[batch.length - 1]!.id;
  }
  return { reset, checked };
}

/** The scheduled task registered under CRON.quotaReset. */
export async function quotaResetTask(controller: ScheduledController, env: Env): Promise<void> {
  const result = await resetDueQuotas(createDb(env.DB), controller.scheduledTime);
  createLogger({ task: 'quota_reset' }).info('quota_reset_done', result);
}
