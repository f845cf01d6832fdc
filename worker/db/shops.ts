import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { shops } from './schema';

export type ShopRow = typeof shops.$inferSelect;
export type NewShop = typeof shops.$inferInsert;

export async function findShopByDomain(db: Db, domain: string): Promise<ShopRow | undefined> {
  return db.select().from(shops).where(eq(shops.domain, domain)).get();
}

export async function findShopById(db: Db, id: number): Promise<ShopRow | undefined> {
  return db.select().from(shops).where(eq(shops.id, id)).get();
}

export async function findShopByAdminTokenHash(db: Db, hash: string): Promise<ShopRow | undefined> {
  return db.select().from(shops).where(eq(shops.adminTokenHash, hash)).get();
}
