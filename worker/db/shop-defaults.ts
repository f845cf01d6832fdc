import type { Db } from './client';
import { catalogueSyncs } from './schema';

/** Rows every installed shop has from the start; idempotent so a reinstall or retry is harmless. */
export async function ensureShopDefaultRows(db: Db, shopId: number): Promise<void> {
  await db.insert(catalogueSyncs).values({ shopId, status: 'idle' }).onConflictDoNothing();
}
