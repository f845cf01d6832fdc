// The billing columns of the shops table.
import { and, asc, eq, gt, isNotNull, isNull, lt } from 'drizzle-orm';
import type { Db } from './client';
import { shops } from './schema';
import type { ShopRow } from './shops';

/** The billing columns of a shop that the billing code changes. */
export type ShopBillingPatch = Partial<
  Pick<
    ShopRow,
    | 'planLevel'
    | 'overageEnabled'
    | 'hasUsageCap'
    | 'cappedAmountCents'
    | 'subscriptionId'
    | 'subscriptionStatus'
    | 'usageLineItemId'
    | 'pendingPlanLevel'
    | 'billingCycleDay'
    | 'quotaPeriodStart'
    | 'discountExpiresAt'
    | 'subscriptionDiscountCents'
    | 'subscriptionDiscountUntil'
    | 'isDevelopmentStore'
    | 'testChargesOnly'
  >
>;

export async function updateShopBilling(db: Db, shopId: number, patch: ShopBillingPatch): Promise<void> {
  await db
    .update(shops)
    .set({ ...patch, updatedAt: Date.now() })
    .where(eq(shops.id, shopId))
    .run();
}

/** Moves the quota period forward only if it is still older than `periodStart` (safe to run twice). */
export async function advanceQuotaPeriod(db: Db, shopId: number, periodStart: number): Promise<boolean> {
  const res = await db
    .update(shops)
    .set({ quotaPeriodStart: periodStart, updatedAt: Date.now() })
    .where(and(eq(shops.id, shopId), lt(shops.quotaPeriodStart, periodStart)))
    .run();
  return (res.meta.changes ?? 0) > 0;
}

/** Installed shops whose quota period started before `before` (candidates for the monthly reset). */
export async function listShopsWithPeriodBefore(
  db: Db,
  before: number,
  afterId: number,
  limit: number,
): Promise<Pick<ShopRow, 'id' | 'billingCycleDay' | 'quotaPeriodStart'>[]> {
  // Keyset pagination over shop ids keeps each cron batch small.
  return db
    .select({ id: shops.id, billingCycleDay: shops.billingCycleDay, quotaPeriodStart: shops.quotaPeriodStart })
    .from(shops)
    .where(
      and(lt(shops.quotaPeriodStart, before), isNotNull(shops.installedAt), isNull(shops.uninstalledAt), gt(shops.id, afterId)),
    )
    .orderBy(asc(shops.id))
    .limit(limit)
    .all();
}

export async function setOverQuota(db: Db, shopId: number, on: boolean): Promise<void> {
  await db.update(shops).set({ overageEnabled: on, updatedAt: Date.now() }).where(eq(shops.id, shopId)).run();
}
