import { and, desc, eq, gt, lt, notInArray } from 'drizzle-orm';
import type { Db } from './client';
import { adminTokens, shops } from './schema';
import type { ShopRow } from './shops';

export type AdminTokenRow = typeof adminTokens.$inferSelect;

/**
 * Stores a new token hash for the Shopify user who issued it. That user's earlier tokens are replaced
 * (one live token per user), and the shop keeps at most `maxPerShop` tokens (oldest dropped), all in
 * one batch.
 */
export async function insertAdminToken(
  db: Db,
  row: { shopId: number; tokenHash: string; userId: string; createdAt: number; expiresAt: number },
  maxPerShop: number,
): Promise<AdminTokenRow> {
  const [, inserted] = await db.batch([
    db.delete(adminTokens).where(and(eq(adminTokens.shopId, row.shopId), eq(adminTokens.userId, row.userId))),
    db.insert(adminTokens).values(row).returning(),
    db
      .delete(adminTokens)
      .where(
        and(
          eq(adminTokens.shopId, row.shopId),
          notInArray(
            adminTokens.id,
            db
              .select({ id: adminTokens.id })
              .from(adminTokens)
              .where(eq(adminTokens.shopId, row.shopId))
              .orderBy(desc(adminTokens.id))
              .limit(maxPerShop),
          ),
        ),
      ),
  ]);
  return inserted[0]!;
}

/** The shop and token behind a token hash, only while the token is live. */
export async function findLiveAdminToken(
  db: Db,
  tokenHash: string,
  now: number,
): Promise<{ shop: ShopRow; token: AdminTokenRow } | undefined> {
  return db
    .select({ shop: shops, token: adminTokens })
    .from(adminTokens)
    .innerJoin(shops, eq(shops.id, adminTokens.shopId))
    .where(and(eq(adminTokens.tokenHash, tokenHash), gt(adminTokens.expiresAt, now)))
    .get();
}

export async function listLiveAdminTokens(db: Db, shopId: number, now: number): Promise<AdminTokenRow[]> {
  return db
    .select()
    .from(adminTokens)
    .where(and(eq(adminTokens.shopId, shopId), gt(adminTokens.expiresAt, now)))
    .orderBy(desc(adminTokens.id))
    .all();
}

/** Revokes one token of the shop; false when the shop has no such token. */
/** Deletes one of the shop's tokens; with `userId`, only when that user issued it. */
export async function deleteAdminToken(db: Db, shopId: number, id: number, userId?: string): Promise<boolean> {
  const rows = await db
    .delete(adminTokens)
    .where(
      and(
        eq(adminTokens.shopId, shopId),
        eq(adminTokens.id, id),
        userId === undefined ? undefined : eq(adminTokens.userId, userId),
      ),
    )
    .returning({ id: adminTokens.id })
    .all();
  return rows.length === 1;
}

export async function deleteUserAdminTokens(db: Db, shopId: number, userId: string): Promise<void> {
  await db.delete(adminTokens).where(and(eq(adminTokens.shopId, shopId), eq(adminTokens.userId, userId)));
}

export function deleteShopAdminTokens(db: Db, shopId: number) {
  return db.delete(adminTokens).where(eq(adminTokens.shopId, shopId));
}

export async function deleteExpiredAdminTokens(db: Db, now: number): Promise<number> {
  const result = await db.delete(adminTokens).where(lt(adminTokens.expiresAt, now)).run();
  return result.meta.changes ?? 0;
}

/** Whether the shop holds a token with this id (any user's). */
export async function adminTokenExists(db: Db, shopId: number, id: number): Promise<boolean> {
  const row = await db
    .select({ id: adminTokens.id })
    .from(adminTokens)
    .where(and(eq(adminTokens.shopId, shopId), eq(adminTokens.id, id)))
    .get();
  return !!row;
}
