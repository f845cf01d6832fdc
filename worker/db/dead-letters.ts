// Dead letters (schema `dead_letters`): messages that exhausted their queue's retries. Recorded once per
// (queue, message id) by the dead-letter consumers (worker/jobs/dead-letters.ts); read and replayed by
// operators (scripts/dead-letters.mjs) and by the 5-minute cron.
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from './client';
import { deadLetters } from './schema';

export type DeadLetterRow = typeof deadLetters.$inferSelect;
export type DeadLetterStatus = 'open' | 'replay' | 'replayed' | 'done';

/** Records a dead letter; a redelivery of the same message changes nothing. True when it is new. */
export async function recordDeadLetter(
  db: Db,
  d: { queue: string; messageId: string; shop: string | null; kind: string; body: unknown; mustComplete: boolean },
  now = Date.now(),
): Promise<boolean> {
  const rows = await db
    .insert(deadLetters)
    .values({
      queue: d.queue,
      messageId: d.messageId,
      shop: d.shop,
      kind: d.kind,
      body: JSON.stringify(d.body),
      mustComplete: d.mustComplete,
      nextRetryAt: d.mustComplete ? now : null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: deadLetters.id });
  return rows.length === 1;
}

/** Work that must finish, due for another try, oldest first. */
export async function dueMustComplete(db: Db, now: number, limit: number): Promise<DeadLetterRow[]> {
  return db
    .select()
    .from(deadLetters)
    .where(and(eq(deadLetters.status, 'open'), eq(deadLetters.mustComplete, true), lte(deadLetters.nextRetryAt, now)))
    .orderBy(asc(deadLetters.nextRetryAt))
    .limit(limit);
}

/** Rows an operator asked to replay. */
export async function replayRequested(db: Db, limit: number): Promise<DeadLetterRow[]> {
  return db.select().from(deadLetters).where(eq(deadLetters.status, 'replay')).orderBy(asc(deadLetters.id)).limit(limit);
}

export async function markDeadLetter(db: Db, ids: number[], status: DeadLetterStatus, now = Date.now()): Promise<void> {
  if (!ids.length) return;
  await db.update(deadLetters).set({ status, nextRetryAt: null, updatedAt: now }).where(inArray(deadLetters.id, ids));
}

/** A failed try: counted, the error kept, the next try at `nextRetryAt`. */
export async function deferDeadLetter(
  db: Db,
  id: number,
  nextRetryAt: number,
  error: string | null,
  now = Date.now(),
): Promise<void> {
  await db
    .update(deadLetters)
    .set({
      retries: sql`${deadLetters.retries} + ${error === null ? 0 : 1}`,
      nextRetryAt,
      ...(error === null ? {} : { lastError: error.slice(0, 500) }),
      updatedAt: now,
    })
    .where(eq(deadLetters.id, id));
}

export async function findDeadLetter(db: Db, id: number): Promise<DeadLetterRow | undefined> {
  return db.select().from(deadLetters).where(eq(deadLetters.id, id)).get();
}

/** After a shop/redact finished: the row keeps no shop domain and no payload. */
export async function scrubDeadLetter(db: Db, id: number, now = Date.now()): Promise<void> {
  await db.update(deadLetters).set({ shop: null, body: '{}', updatedAt: now }).where(eq(deadLetters.id, id));
}

/**
 * The daily prune: rows handled (replayed, done) more than `keepMs` ago, and rows of shops that no longer
 * exist (redacted: nothing of the shop may stay), except work that must still complete.
 */
export async function pruneDeadLetters(db: Db, now: number, keepMs: number): Promise<number> {
  const rows = await db
    .delete(deadLetters)
    .where(
      sql`(${deadLetters.status} IN ('replayed', 'done') AND ${deadLetters.updatedAt} < ${now - keepMs})
        OR (${deadLetters.shop} IS NOT NULL
          AND ${deadLetters.shop} NOT IN (SELECT domain FROM shops)
          AND ${deadLetters.shop} NOT IN (SELECT CAST(id AS TEXT) FROM shops)
          AND NOT (${deadLetters.mustComplete} = 1 AND ${deadLetters.status} = 'open'))`,
    )
    .returning({ id: deadLetters.id });
  return rows.length;
}
