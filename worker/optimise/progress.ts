// Progress (getOptSchedule) and stop (stopImageOptTask). Counted from job_images every time.
import type { Db } from '../db/client';
import { endJob, jobCountsByItem, latestJobForTab, listActiveJobs, listJobImages } from '../db/jobs';
import { refreshItemSummary } from '../db/items';
import { planLimitMessage } from './errors';
import type { ItemProgress, Schedule } from '../../shared/api/image-opt';
import { TAB_KEYS } from '../../shared/api/vocabulary';
import { keyedFromEnglish } from '../../shared/messages';

/** Distinct failure reasons a schedule carries (the panel shows them; the detail page has every row's). */
const MAX_REASONS = 3;

/** A finished job stays visible this long, so a panel polling every 5-6 s sees process_result 1 once. */
export const FINISHED_VISIBLE_MS = 2 * 60 * 1000;
export { TAB_KEYS };

/** getOptSchedule's answer per tab: the contract's type (shared/api/image-opt.ts). */
export type { ItemProgress, Schedule };

function idle(dataType: number): Schedule {
  return {
    data_type: dataType,
    process_type: '',
    page_type: 0,
    process_result: 1,
    opt_in: 0,
    opt_total: 0,
    opt_done: 0,
    opt_failed: 0,
    fail_reasons: [],
    status: 'idle',
    plan_limit_message: null,
    list: [],
  };
}

export async function scheduleForTab(db: Db, shopId: number, dataType: number, now: number): Promise<Schedule> {
  const job = await latestJobForTab(db, shopId, dataType, now - FINISHED_VISIBLE_MS);
  if (!job) return idle(dataType);
  const perItem = await jobCountsByItem(db, job.id);
  const list = perItem.map((r) => ({ data_id: r.itemId, opt_in: Number(r.queued ?? 0), opt_total: Number(r.total) }));
  const optIn = list.reduce((n, r) => n + r.opt_in, 0);
  const optTotal = list.reduce((n, r) => n + r.opt_total, 0);
  const optDone = perItem.reduce((n, r) => n + Number(r.done ?? 0), 0);
  const optFailed = perItem.reduce((n, r) => n + Number(r.failed ?? 0), 0);
  let limitMessage: string | null = null;
  const members = job.status === 'plan_limit' || optFailed > 0 ? await listJobImages(db, job.id) : [];
  if (job.status === 'plan_limit') limitMessage = planLimitMessage(members.filter((m) => m.status === 'quota').length);
  const reasons = [...new Set(members.filter((m) => m.status === 'failed' && m.error).map((m) => m.error!))];
  const running = job.status === 'queued' || job.status === 'running';
  return {
    data_type: dataType,
    process_type: job.processType,
    page_type: job.pageType,
    process_result: running ? 0 : 1,
    opt_in: optIn,
    opt_total: optTotal,
    opt_done: optDone,
    opt_failed: optFailed,
    fail_reasons: reasons.slice(0, MAX_REASONS).map(keyedFromEnglish),
    status: job.status,
    plan_limit_message: limitMessage,
    list,
  };
}

/**
 * getOptSchedule: with data_type, that tab's schedule object (the detail page sends 1 and reads the
 * product object); without it, every tab keyed product / collection / blog / other, and the blog posts'
 * schedule also under `article`, its documented name ("per product, collection and article",
 * image-optimisation.md section 3).
 */
export async function getSchedule(
  db: Db,
  shopId: number,
  dataType: number | undefined,
  now: number,
): Promise<Schedule | Record<string, Schedule>> {
  if (dataType !== undefined) return scheduleForTab(db, shopId, dataType, now);
  const out: Record<string, Schedule> = {};
  for (const [type, key] of Object.entries(TAB_KEYS)) out[key] = await scheduleForTab(db, shopId, Number(type), now);
  if (out.blog) out.article = out.blog;
  return out;
}

/** Stops every queued or running job of the shop: waiting images never start, finished ones stay. */
export async function stopShopJobs(db: Db, shopId: number, now: number): Promise<number> {
  const active = await listActiveJobs(db, shopId);
  for (const job of active) {
    await endJob(db, job.id, 'stopped', 'stopped', now);
    const members = await listJobImages(db, job.id);
    for (const itemId of new Set(members.map((m) => m.itemId))) await refreshItemSummary(db, shopId, itemId);
  }
  return active.length;
}
