import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from './client';
import { usageLedger } from './schema';

export type UsageLedgerRow = typeof usageLedger.$inferSelect;

/** An image is charged once in its life, under this key. */
export function imageChargeKey(imageId: number): string {
  return `image:${imageId}`;
}

/** Whether the image of these columns was charged already: its ledger row exists (one index lookup). */
export function imageChargedSql(shopId: SQLiteColumn, imageId: SQLiteColumn): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${usageLedger} where ${usageLedger.shopId} = ${shopId} and ${usageLedger.chargeKey} = 'image:' || ${imageId})`.mapWith(
    Boolean,
  );
}

/** Charged images of one quota period: all of them, and those beyond the plan (overage). */
export async function countPeriodUsage(
  db: Db,
  shopId: number,
  periodStart: number,
): Promise<{ used: number; overageUsed: number }> {
  const row = await db
    .select({
      used: sql<number>`count(*)`,
      overageUsed: sql<number>`coalesce(sum(${usageLedger.overage}), 0)`,
    })
    .from(usageLedger)
    .where(and(eq(usageLedger.shopId, shopId), eq(usageLedger.periodStart, periodStart)))
    .get();
  return { used: Number(row?.used ?? 0), overageUsed: Number(row?.overageUsed ?? 0) };
}

export async function findLedgerRow(db: Db, shopId: number, chargeKey: string): Promise<UsageLedgerRow | undefined> {
  return db
    .select()
    .from(usageLedger)
    .where(and(eq(usageLedger.shopId, shopId), eq(usageLedger.chargeKey, chargeKey)))
    .get();
}

/**
 * Inserts one ledger row only while the period's count is below `limit`, in ONE statement: D1 runs a
 * statement atomically, so two queue consumers charging at the same moment can never both take the
 * last free slot, and the unique charge key makes a duplicate delivery a no-op. The row is marked
 * overage when the plan's own images are already used up. Returns whether a row was inserted.
 */
export async function insertLedgerRowWithinLimit(
  db: Db,
  row: { shopId: number; chargeKey: string; imageId: number | null; jobId: string | null; periodStart: number },
  planImages: number,
  limit: number,
): Promise<boolean> {
  const periodCount = sql`(select count(*) from ${usageLedger} where ${usageLedger.shopId} = ${row.shopId} and ${usageLedger.periodStart} = ${row.periodStart})`;
  const result = await db.run(sql`
    insert into ${usageLedger} (shop_id, charge_key, image_id, job_id, period_start, is_overage)
    select ${row.shopId}, ${row.chargeKey}, ${row.imageId}, ${row.jobId}, ${row.periodStart},
           case when ${periodCount} >= ${planImages} then 1 else 0 end
    where ${periodCount} < ${limit}
    on conflict (shop_id, charge_key) do nothing`);
  return (result.meta.changes ?? 0) > 0;
}

/**
 * Moves a period's charges to a new period start (a new subscription starts a new billing cycle mid-period):
 * the images stay charged, so climbing the plan ladder never adds up every plan's quota. Overage marks
 * are cleared: those blocks were billed under the old subscription, the new plan counts them as used.
 */
export async function moveLedgerPeriod(db: Db, shopId: number, fromStart: number, toStart: number): Promise<number> {
  const result = await db
    .update(usageLedger)
    .set({ periodStart: toStart, overage: false })
    .where(and(eq(usageLedger.shopId, shopId), eq(usageLedger.periodStart, fromStart)))
    .run();
  return result.meta.changes ?? 0;
}

/**
 * The slot a job reserved for an image before replacing it on Shopify is given back when the image fails
 * before Shopify confirmed the new file (step not 'replaced' or 'done'): nothing was delivered, nothing
 * is owed, as when the charge came after the replacement.
 * Only that job's own reservation goes; a charge from an earlier run of the image stays.
 */
export async function releaseReservedCharge(db: Db, shopId: number, imageId: number, jobId: string): Promise<boolean> {
  const result = await db.run(sql`
    delete from ${usageLedger}
    where ${usageLedger.shopId} = ${shopId} and ${usageLedger.chargeKey} = ${imageChargeKey(imageId)} and ${usageLedger.jobId} = ${jobId}
      and not exists (select 1 from images where id = ${imageId} and step in ('replaced', 'done'))`);
  return (result.meta.changes ?? 0) > 0;
}
