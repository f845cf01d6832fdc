import { and, eq, sql } from 'drizzle-orm';
import { CONTACT_ROWS_KEPT, USER_SELECTIONS_KEPT } from '../lib/limits';
import type { Db } from './client';
import { keepNewestContactMessages, keepNewestUserSelections } from './retention';
import { appSwitches, contactMessages, reviewScores, shops, userSelections } from './schema';

export type ContactKind = 'contact' | 'feedback' | 'quota_request';

export async function setShopLanguage(db: Db, shopId: number, language: string): Promise<void> {
  await db.update(shops).set({ language, updatedAt: Date.now() }).where(eq(shops.id, shopId)).run();
}

export async function insertContactMessage(
  db: Db,
  row: { shopId: number; kind: ContactKind; name: string; email: string; title: string; description: string; path: string },
): Promise<number> {
  const inserted = await db.insert(contactMessages).values(row).returning({ id: contactMessages.id }).get();
  await keepNewestContactMessages(db, row.shopId, CONTACT_ROWS_KEPT);
  return inserted.id;
}

export async function listContactMessages(db: Db, shopId: number) {
  return db.select().from(contactMessages).where(eq(contactMessages.shopId, shopId)).orderBy(contactMessages.id).all();
}

/** Records a review score and stops asking for one (review_tips 0), in one batch. */
export async function recordReviewScore(db: Db, shopId: number, score: number): Promise<void> {
  await db.batch([
    db.insert(reviewScores).values({ shopId, score }),
    db.update(shops).set({ reviewScore: score, showReviewRequest: false, updatedAt: Date.now() }).where(eq(shops.id, shopId)),
  ]);
}

export async function setOverQuota(db: Db, shopId: number, on: boolean): Promise<void> {
  await db.update(shops).set({ overageEnabled: on, updatedAt: Date.now() }).where(eq(shops.id, shopId)).run();
}

export async function upsertAppSwitch(db: Db, shopId: number, name: string, st: number, exp: number, now = Date.now()): Promise<void> {
  await db
    .insert(appSwitches)
    .values({ shopId, name, state: st, expiry: exp, savedAt: now })
    .onConflictDoUpdate({ target: [appSwitches.shopId, appSwitches.name], set: { state: st, expiry: exp, savedAt: now } })
    .run();
}

export async function listUserSelections(db: Db, shopId: number) {
  return db.select().from(userSelections).where(eq(userSelections.shopId, shopId)).all();
}

/** Stores the merchant's latest value for a UI choice and counts the clicks on it. */
export async function recordUserSelection(db: Db, shopId: number, key: string, value: string, now = Date.now()): Promise<void> {
  await db
    .insert(userSelections)
    .values({ shopId, key, value, clicks: 1, updatedAt: now })
    .onConflictDoUpdate({ target: [userSelections.shopId, userSelections.key], set: { value, clicks: sql`${userSelections.clicks} + 1`, updatedAt: now } })
    .run();
  await keepNewestUserSelections(db, shopId, USER_SELECTIONS_KEPT);
}

export async function findUserSelection(db: Db, shopId: number, key: string) {
  return db.select().from(userSelections).where(and(eq(userSelections.shopId, shopId), eq(userSelections.key, key))).get();
}
