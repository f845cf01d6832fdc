// PageSpeed Insights checks, one row per check, kept as the shop's history; the newest row is current.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from './client';
import { pagespeedScores } from './schema';

export type PagespeedCheckRow = typeof pagespeedScores.$inferSelect;

/** Row status values (the API's score status: 0 never checked has no row). */
export const CHECK_STATUS = { ready: 1, inProgress: 2, failed: 3 } as const;

export async function latestCheck(db: Db, shopId: number): Promise<PagespeedCheckRow | undefined> {
  return db
    .select()
    .from(pagespeedScores)
    .where(eq(pagespeedScores.shopId, shopId))
    .orderBy(desc(pagespeedScores.requestedAt), desc(pagespeedScores.id))
    .limit(1)
    .get();
}

export async function latestReadyCheck(db: Db, shopId: number): Promise<PagespeedCheckRow | undefined> {
  return db
    .select()
    .from(pagespeedScores)
    .where(and(eq(pagespeedScores.shopId, shopId), eq(pagespeedScores.status, CHECK_STATUS.ready)))
    .orderBy(desc(pagespeedScores.requestedAt), desc(pagespeedScores.id))
    .limit(1)
    .get();
}

/** The newest `limit` finished checks with scores, newest first. */
export async function latestReadyChecks(db: Db, shopId: number, limit: number): Promise<PagespeedCheckRow[]> {
  return db
    .select()
    .from(pagespeedScores)
    .where(and(eq(pagespeedScores.shopId, shopId), eq(pagespeedScores.status, CHECK_STATUS.ready)))
    .orderBy(desc(pagespeedScores.requestedAt), desc(pagespeedScores.id))
    .limit(limit)
    .all();
}

export async function findCheck(db: Db, shopId: number, checkId: number): Promise<PagespeedCheckRow | undefined> {
  return db
    .select()
    .from(pagespeedScores)
    .where(and(eq(pagespeedScores.id, checkId), eq(pagespeedScores.shopId, shopId)))
    .get();
}

/**
 * Inserts an in-progress check unless the shop already has one requested after `freshAfter`.
 * One statement, so two simultaneous refreshes cannot both start a check (D1 runs writes one at a time).
 * Returns the new row, or undefined when a check was already running.
 */
export async function insertCheckUnlessRunning(
  db: Db,
  shopId: number,
  url: string,
  now: number,
  freshAfter: number,
): Promise<PagespeedCheckRow | undefined> {
  const rows = await db.all<{ id: number }>(sql`
    INSERT INTO pagespeed_scores (shop_id, url, status, requested_at)
    SELECT ${shopId}, ${url}, ${CHECK_STATUS.inProgress}, ${now}
    WHERE NOT EXISTS (
      SELECT 1 FROM pagespeed_scores
      WHERE shop_id = ${shopId} AND status = ${CHECK_STATUS.inProgress} AND requested_at > ${freshAfter}
    )
    RETURNING id`);
  const id = rows[0]?.id;
  return id === undefined ? undefined : findCheck(db, shopId, id);
}

/** Stores one strategy's score on an in-progress check, so a retried message only runs what is missing. */
export async function saveStrategyScore(
  db: Db,
  shopId: number,
  checkId: number,
  scores: { desktop?: number; mobile?: number },
): Promise<void> {
  await db
    .update(pagespeedScores)
    .set(scores)
    .where(
      and(
        eq(pagespeedScores.id, checkId),
        eq(pagespeedScores.shopId, shopId),
        eq(pagespeedScores.status, CHECK_STATUS.inProgress),
      ),
    );
}

/** Ends an in-progress check (ready or failed). A check that already ended stays as it is. */
export async function finishCheck(
  db: Db,
  shopId: number,
  checkId: number,
  result: { status: typeof CHECK_STATUS.ready | typeof CHECK_STATUS.failed; error?: string | null; completedAt: number },
): Promise<void> {
  await db
    .update(pagespeedScores)
    .set({ status: result.status, error: result.error ?? null, completedAt: result.completedAt })
    .where(
      and(
        eq(pagespeedScores.id, checkId),
        eq(pagespeedScores.shopId, shopId),
        eq(pagespeedScores.status, CHECK_STATUS.inProgress),
      ),
    );
}

// Kept bounded: after each insert only the shop's newest rows stay (numbers in worker/lib/limits.ts).
export function keepNewestPagespeedRows(db: Db, shopId: number, keep: number) {
  return db.run(sql`delete from ${pagespeedScores} where ${pagespeedScores.shopId} = ${shopId} and ${pagespeedScores.id} not in
    (select id from ${pagespeedScores} where ${pagespeedScores.shopId} = ${shopId} order by requested_at desc, id desc limit ${keep})`);
}
