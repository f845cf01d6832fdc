import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from './client';
import { usageCharges } from './schema';

export type UsageChargeRow = typeof usageCharges.$inferSelect;

/** Records that a block of overage images must be billed; a second call for the same key is a no-op. */
export async function ensureUsageCharge(
  db: Db,
  row: { shopId: number; idempotencyKey: string; periodStart: number; imageCount: number; amountCents: number },
): Promise<void> {
  await db
    .insert(usageCharges)
    .values(row)
    .onConflictDoNothing({ target: [usageCharges.shopId, usageCharges.idempotencyKey] })
    .run();
}

export async function listPendingUsageCharges(db: Db, shopId: number): Promise<UsageChargeRow[]> {
  return db
    .select()
    .from(usageCharges)
    .where(and(eq(usageCharges.shopId, shopId), eq(usageCharges.status, 'pending')))
    .orderBy(asc(usageCharges.id))
    .all();
}

/** Shops with overage blocks not yet sent to Shopify (the cron's work list). */
export async function listShopIdsWithPendingCharges(db: Db, limit = 200): Promise<number[]> {
  const rows = await db
    .selectDistinct({ shopId: usageCharges.shopId })
    .from(usageCharges)
    .where(eq(usageCharges.status, 'pending'))
    .limit(limit)
    .all();
  return rows.map((r) => r.shopId);
}

export async function markUsageCharge(
  db: Db,
  id: number,
  shopId: number,
  status: 'recorded' | 'failed',
  usageRecordId: string | null,
): Promise<void> {
  await db
    .update(usageCharges)
    .set({ status, usageRecordId })
    .where(and(eq(usageCharges.id, id), eq(usageCharges.shopId, shopId)))
    .run();
}

/** Cents billed (or about to be) in one quota period: what counts against the capped amount. */
export async function sumPeriodChargeCents(db: Db, shopId: number, periodStart: number): Promise<number> {
  const row = await db
    .select({ cents: sql<number>`coalesce(sum(${usageCharges.amountCents}), 0)` })
    .from(usageCharges)
    .where(
      and(eq(usageCharges.shopId, shopId), eq(usageCharges.periodStart, periodStart), sql`${usageCharges.status} != 'failed'`),
    )
    .get();
  return Number(row?.cents ?? 0);
}

export async function listPeriodUsageCharges(db: Db, shopId: number, periodStart: number): Promise<UsageChargeRow[]> {
  return db
    .select()
    .from(usageCharges)
    .where(and(eq(usageCharges.shopId, shopId), eq(usageCharges.periodStart, periodStart)))
    .orderBy(asc(usageCharges.id))
    .all();
}
