// Jobs and their per-image progress rows (worker/optimise). Progress is always counted from job_images,
// never kept in counters, so a retried or duplicated message cannot make the numbers drift.
import { and, desc, eq, gte, inArray, or, sql } from 'drizzle-orm';
import type { Db } from './client';
import { images, jobImages, jobs } from './schema';

export type JobRow = typeof jobs.$inferSelect;

export type JobImageRow = typeof jobImages.$inferSelect;

export type ProcessType = 'optimize' | 'reoptimize' | 'restore' | 'upload' | 'auto';

/** queued: waiting; done / skipped / failed: finished; stopped: by the merchant; quota: plan limit reached. */
export type JobImageStatus = 'queued' | 'done' | 'skipped' | 'failed' | 'stopped' | 'quota';

export const ACTIVE_JOB_STATUSES = ['queued', 'running'] as const;

// D1 binds at most 100 parameters per statement; job_images rows have 5 bound columns.
const INSERT_CHUNK = 15;

const ID_CHUNK = 90;

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export async function createJob(
  db: Db,
  job: { id: string; shopId: number; dataType: number; processType: ProcessType; pageType: number; pattern: string },
  members: readonly { imageId: number; itemId: number }[],
): Promise<JobRow> {
  const row = await db
    .insert(jobs)
    .values({ ...job, status: 'queued', total: members.length })
    .returning()
    .get();
  const inserts = chunks(members, INSERT_CHUNK).map((part) =>
    db.insert(jobImages).values(part.map((m) => ({ jobId: job.id, imageId: m.imageId, itemId: m.itemId, shopId: job.shopId }))),
  );
  for (const batch of chunks(inserts, 50)) {
    const [first, ...rest] = batch;
    if (first) await db.batch([first, ...rest]);
  }
  return row;
}

export async function getJob(db: Db, shopId: number, jobId: string): Promise<JobRow | undefined> {
  return db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.shopId, shopId)))
    .get();
}

export async function getJobImage(db: Db, jobId: string, imageId: number): Promise<JobImageRow | undefined> {
  return db
    .select()
    .from(jobImages)
    .where(and(eq(jobImages.jobId, jobId), eq(jobImages.imageId, imageId)))
    .get();
}

/** Moves a queued member to a final status; false when it was no longer queued (duplicate delivery). */
export async function finishJobImage(
  db: Db,
  jobId: string,
  imageId: number,
  status: Exclude<JobImageStatus, 'queued'>,
  error: string | null = null,
): Promise<boolean> {
  const rows = await db
    .update(jobImages)
    .set({ status, error, updatedAt: Date.now() })
    .where(and(eq(jobImages.jobId, jobId), eq(jobImages.imageId, imageId), eq(jobImages.status, 'queued')))
    .returning({ id: jobImages.imageId })
    .all();
  return rows.length > 0;
}

/** One more failed attempt with its reason; the member stays queued for the retry. */
export async function recordAttempt(db: Db, jobId: string, imageId: number, error: string): Promise<void> {
  await db
    .update(jobImages)
    .set({ attempts: sql`${jobImages.attempts} + 1`, error, updatedAt: Date.now() })
    .where(and(eq(jobImages.jobId, jobId), eq(jobImages.imageId, imageId)));
}

export async function markJobRunning(db: Db, jobId: string): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'running', updatedAt: Date.now() })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, 'queued')));
}

/** Closes the job when no member is queued any more. */
export async function finishJobIfComplete(db: Db, jobId: string, now = Date.now()): Promise<boolean> {
  const left = await db
    .select({ n: sql<number>`count(*)` })
    .from(jobImages)
    .where(and(eq(jobImages.jobId, jobId), eq(jobImages.status, 'queued')))
    .get();
  if ((left?.n ?? 0) > 0) return false;
  const rows = await db
    .update(jobs)
    .set({ status: 'done', finishedAt: now, updatedAt: now })
    .where(and(eq(jobs.id, jobId), inArray(jobs.status, [...ACTIVE_JOB_STATUSES])))
    .returning({ id: jobs.id })
    .all();
  return rows.length > 0;
}

/**
 * Stop (merchant) or plan limit: the job ends and its queued members never run; finished ones stay.
 * A member whose image is half way through (original stored, maybe already on Shopify, waiting for a
 * retry) stays queued: its retry completes it, so a stop never leaves Shopify and D1 disagreeing.
 */
export async function endJob(
  db: Db,
  jobId: string,
  jobStatus: 'stopped' | 'plan_limit',
  memberStatus: 'stopped' | 'quota',
  now = Date.now(),
): Promise<void> {
  const notMidway = sql`not exists (select 1 from ${images} where ${images.id} = ${jobImages.imageId} and ${images.status} = 'processing')`;
  await db.batch([
    db
      .update(jobs)
      .set({ status: jobStatus, finishedAt: now, updatedAt: now })
      .where(and(eq(jobs.id, jobId), inArray(jobs.status, [...ACTIVE_JOB_STATUSES]))),
    db
      .update(jobImages)
      .set({ status: memberStatus, updatedAt: now })
      .where(and(eq(jobImages.jobId, jobId), eq(jobImages.status, 'queued'), notMidway)),
  ]);
}

export async function listActiveJobs(db: Db, shopId: number): Promise<JobRow[]> {
  return db
    .select()
    .from(jobs)
    .where(and(eq(jobs.shopId, shopId), inArray(jobs.status, [...ACTIVE_JOB_STATUSES])))
    .all();
}

/** Image ids (of the given ones) already waiting in an active job of the shop: planning skips them. */
export async function imagesInActiveJobs(db: Db, shopId: number, imageIds: readonly number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (const part of chunks(imageIds, ID_CHUNK)) {
    const rows = await db
      .select({ id: jobImages.imageId })
      .from(jobImages)
      .innerJoin(jobs, eq(jobs.id, jobImages.jobId))
      .where(
        and(
          eq(jobImages.shopId, shopId),
          eq(jobImages.status, 'queued'),
          inArray(jobs.status, [...ACTIVE_JOB_STATUSES]),
          inArray(jobImages.imageId, part),
        ),
      )
      .all();
    for (const r of rows) out.add(r.id);
  }
  return out;
}

/** The job the progress panel shows for a tab: the newest one that is active or ended since `since`. */
export async function latestJobForTab(db: Db, shopId: number, dataType: number, since: number): Promise<JobRow | undefined> {
  return db
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.shopId, shopId),
        eq(jobs.dataType, dataType),
        or(inArray(jobs.status, [...ACTIVE_JOB_STATUSES]), gte(jobs.finishedAt, since)),
      ),
    )
    .orderBy(desc(jobs.createdAt))
    .get();
}

/** Per item of a job: members in total and still queued. */
export async function jobCountsByItem(
  db: Db,
  jobId: string,
): Promise<{ itemId: number; total: number; queued: number; done: number; failed: number }[]> {
  return db
    .select({
      itemId: jobImages.itemId,
      total: sql<number>`count(*)`,
      queued: sql<number>`sum(case when ${jobImages.status} = 'queued' then 1 else 0 end)`,
      done: sql<number>`sum(case when ${jobImages.status} in ('done', 'skipped') then 1 else 0 end)`,
      failed: sql<number>`sum(case when ${jobImages.status} = 'failed' then 1 else 0 end)`,
    })
    .from(jobImages)
    .where(eq(jobImages.jobId, jobId))
    .groupBy(jobImages.itemId)
    .all();
}

/** Members of a job still queued (e.g. to count what a plan limit left undone). */
export async function countQueued(db: Db, jobId: string): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(jobImages)
    .where(and(eq(jobImages.jobId, jobId), eq(jobImages.status, 'queued')))
    .get();
  return row?.n ?? 0;
}

export async function listJobImages(db: Db, jobId: string): Promise<JobImageRow[]> {
  return db.select().from(jobImages).where(eq(jobImages.jobId, jobId)).all();
}

/** Images of the shop still waiting in its active jobs: what it currently holds of the shared queue. */
export async function countQueuedImages(db: Db, shopId: number): Promise<number> {
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(jobImages)
    .innerJoin(jobs, eq(jobs.id, jobImages.jobId))
    .where(and(eq(jobImages.shopId, shopId), eq(jobImages.status, 'queued'), sql`${jobs.status} in ('queued', 'running')`))
    .get();
  return Number(row?.n ?? 0);
}

/**
 * Ended jobs (done, stopped) that finished before `before` go with their job_images rows (issue 25: a
 * restore and optimise loop must not grow D1 without limit). The progress panel shows an ended job for
 * minutes only (progress.ts FINISHED_VISIBLE_MS); history lives on images and items, not on jobs.
 * At most `limit` jobs per call; returns how many went.
 */
export async function deleteEndedJobsBefore(db: Db, before: number, limit = 500): Promise<number> {
  const ended = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(inArray(jobs.status, ['done', 'stopped']), sql`${jobs.finishedAt} < ${before}`))
    .limit(limit);
  const [, gone] = await db.batch([
    db.delete(jobImages).where(inArray(jobImages.jobId, ended)),
    db.delete(jobs).where(inArray(jobs.id, ended)).returning({ id: jobs.id }),
  ]);
  return gone.length;
}
