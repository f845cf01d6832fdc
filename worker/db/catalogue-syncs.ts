// The catalogue_syncs table: catalogue sync progress per shop (getImageSyncStatus).
import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { catalogueSyncs } from './schema';

export type SyncStatusRow = typeof catalogueSyncs.$inferSelect;

export async function getSyncStatus(db: Db, shopId: number): Promise<SyncStatusRow | undefined> {
  return db.select().from(catalogueSyncs).where(eq(catalogueSyncs.shopId, shopId)).get();
}

/** Records a sync as queued unless the shop has a sync row already; true when this call created it. */
export async function claimFirstSync(db: Db, shopId: number): Promise<boolean> {
  const row = await db
    .insert(catalogueSyncs)
    .values({ shopId, status: 'queued' })
    .onConflictDoNothing()
    .returning({ shopId: catalogueSyncs.shopId })
    .get();
  return row !== undefined;
}

export async function beginSync(db: Db, shopId: number, startedAt: number): Promise<void> {
  const values = { status: 'running', imageCount: 0, error: null, startedAt, finishedAt: null, bulkOperationId: null };
  await db
    .insert(catalogueSyncs)
    .values({ shopId, ...values })
    .onConflictDoUpdate({ target: catalogueSyncs.shopId, set: values });
}

export async function updateSyncProgress(
  db: Db,
  shopId: number,
  fields: { imageCount?: number; bulkOperationId?: string | null },
): Promise<void> {
  await db.update(catalogueSyncs).set(fields).where(eq(catalogueSyncs.shopId, shopId));
}

export async function endSync(
  db: Db,
  shopId: number,
  outcome: { status: 'done' | 'failed'; imageCount?: number; error?: string | null },
): Promise<void> {
  await db
    .update(catalogueSyncs)
    .set({
      status: outcome.status,
      finishedAt: Date.now(),
      error: outcome.error ?? null,
      ...(outcome.imageCount === undefined ? {} : { imageCount: outcome.imageCount }),
    })
    .where(eq(catalogueSyncs.shopId, shopId));
}

/** Rows every installed shop has from the start; idempotent so a reinstall or retry is harmless. */
export async function ensureShopDefaultRows(db: Db, shopId: number): Promise<void> {
  await db.insert(catalogueSyncs).values({ shopId, status: 'idle' }).onConflictDoNothing();
}
