// The shop_allowances table: per-shop allowances counted per window.
import { lt, sql } from 'drizzle-orm';
import type { Db } from './client';
import { shopAllowances } from './schema';

export type AllowanceKind = 'uploads' | 'reoptimise';

/**
 * Takes `n` from a shop's allowance for one window, only while used + n stays within `limit`, in ONE
 * statement (an upsert whose update is conditional): concurrent requests can never overshoot it.
 * Returns whether the allowance was taken.
 */
export async function takeAllowance(
  db: Db,
  shopId: number,
  kind: AllowanceKind,
  windowStart: number,
  n: number,
  limit: number,
): Promise<boolean> {
  const result = await db.run(sql`
    insert into ${shopAllowances} (shop_id, kind, window_start, used)
    select ${shopId}, ${kind}, ${windowStart}, ${n} where ${n} <= ${limit}
    on conflict (shop_id, kind, window_start) do update set used = used + excluded.used
    where ${shopAllowances.used} + excluded.used <= ${limit}`);
  return (result.meta.changes ?? 0) > 0;
}

/** Windows that ended long ago are of no use: the daily cron drops them. */
export async function deleteAllowancesBefore(db: Db, before: number): Promise<number> {
  const result = await db.delete(shopAllowances).where(lt(shopAllowances.windowStart, before)).run();
  return result.meta.changes ?? 0;
}
