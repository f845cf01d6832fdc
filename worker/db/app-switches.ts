import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { appSwitches } from './schema';

export type AppSwitchRow = typeof appSwitches.$inferSelect;

export async function listAppSwitches(db: Db, shopId: number): Promise<AppSwitchRow[]> {
  return db.select().from(appSwitches).where(eq(appSwitches.shopId, shopId)).all();
}

export async function upsertAppSwitch(
  db: Db,
  shopId: number,
  name: string,
  st: number,
  exp: number,
  now = Date.now(),
): Promise<void> {
  await db
    .insert(appSwitches)
    .values({ shopId, name, state: st, expiry: exp, savedAt: now })
    .onConflictDoUpdate({ target: [appSwitches.shopId, appSwitches.name], set: { state: st, expiry: exp, savedAt: now } })
    .run();
}
