import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { appSwitches } from './schema';

export type AppSwitchRow = typeof appSwitches.$inferSelect;

export async function listAppSwitches(db: Db, shopId: number): Promise<AppSwitchRow[]> {
  return db.select().from(appSwitches).where(eq(appSwitches.shopId, shopId)).all();
}
