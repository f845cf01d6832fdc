// The contact_messages table: contact form, feedback and quota-increase requests.
import { eq, sql } from 'drizzle-orm';
import { CONTACT_ROWS_KEPT } from '../lib/limits';
import type { Db } from './client';
import { contactMessages } from './schema';

export type ContactKind = 'contact' | 'feedback' | 'quota_request';

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

// Kept bounded: after each insert only the shop's newest rows stay (numbers in worker/lib/limits.ts).
export function keepNewestContactMessages(db: Db, shopId: number, keep: number) {
  return db.run(sql`delete from ${contactMessages} where ${contactMessages.shopId} = ${shopId} and ${contactMessages.id} not in
    (select id from ${contactMessages} where ${contactMessages.shopId} = ${shopId} order by id desc limit ${keep})`);
}
