import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { contactMessages, pagespeedScores, userSelections } from './schema';

// Per-shop tables a caller can grow by repeating a request stay bounded: after each insert only the
// newest rows of that shop are kept (numbers in worker/lib/limits.ts). One statement each.

export function keepNewestContactMessages(db: Db, shopId: number, keep: number) {
  return db.run(sql`delete from ${contactMessages} where ${contactMessages.shopId} = ${shopId} and ${contactMessages.id} not in
    (select id from ${contactMessages} where ${contactMessages.shopId} = ${shopId} order by id desc limit ${keep})`);
}

export function keepNewestPagespeedRows(db: Db, shopId: number, keep: number) {
  return db.run(sql`delete from ${pagespeedScores} where ${pagespeedScores.shopId} = ${shopId} and ${pagespeedScores.id} not in
    (select id from ${pagespeedScores} where ${pagespeedScores.shopId} = ${shopId} order by requested_at desc, id desc limit ${keep})`);
}

/** Selections are keyed by name: the least recently touched keys go first. */
export function keepNewestUserSelections(db: Db, shopId: number, keep: number) {
  return db.run(sql`delete from ${userSelections} where ${userSelections.shopId} = ${shopId} and ${userSelections.key} not in
    (select key from ${userSelections} where ${userSelections.shopId} = ${shopId} order by updated_at desc, key limit ${keep})`);
}
