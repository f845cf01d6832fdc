// The user_selections table: the merchant's UI choices and clicks (getUserSelectData).
import { and, eq, sql } from 'drizzle-orm';
import { USER_SELECTIONS_KEPT } from '../lib/limits';
import type { Db } from './client';
import { userSelections } from './schema';

export async function listUserSelections(db: Db, shopId: number) {
  return db.select().from(userSelections).where(eq(userSelections.shopId, shopId)).all();
}

/** Stores the merchant's latest value for a UI choice and counts the clicks on it. */
export async function recordUserSelection(db: Db, shopId: number, key: string, value: string, now = Date.now()): Promise<void> {
  await db
    .insert(userSelections)
    .values({ shopId, key, value, clicks: 1, updatedAt: now })
    .onConflictDoUpdate({
      target: [userSelections.shopId, userSelections.key],
      set: { value, clicks: sql`${userSelections.clicks} + 1`, updatedAt: now },
    })
    .run();
  await keepNewestUserSelections(db, shopId, USER_SELECTIONS_KEPT);
}

export async function findUserSelection(db: Db, shopId: number, key: string) {
  return db
    .select()
    .from(userSelections)
    .where(and(eq(userSelections.shopId, shopId), eq(userSelections.key, key)))
    .get();
}

// Kept bounded: after each insert only the shop's newest rows stay (numbers in worker/lib/limits.ts).
/** Selections are keyed by name: the least recently touched keys go first. */
export function keepNewestUserSelections(db: Db, shopId: number, keep: number) {
  return db.run(sql`delete from ${userSelections} where ${userSelections.shopId} = ${shopId} and ${userSelections.key} not in
    (select key from ${userSelections} where ${userSelections.shopId} = ${shopId} order by updated_at desc, key limit ${keep})`);
}
