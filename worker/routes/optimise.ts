import { Hono } from 'hono';
import { z } from 'zod';
import { ack } from '../lib/envelope';
import { english, type MessageKey } from '../../shared/messages';
import { MAX_IDS_PER_REQUEST, UPLOAD_MAX_BASE64_CHARS } from '../lib/limits';
import { parseInput, readBody, readQuery } from '../lib/validate';
import { planDeps } from '../optimise/deps';
import { UPLOAD_MAX_FILES } from '../optimise/errors';
import { planJob, type Selection } from '../optimise/plan';
import { getSchedule, stopShopJobs } from '../optimise/progress';
import { rejectionList, startUpload } from '../optimise/upload';
import type { AppEnv } from '../types';
import type { PlannedJob, Schedule, SchedulesByTab, StopAnswer, UploadAnswer } from '../../shared/api/image-opt';

// /api/v2/image-opt: optimise, re-optimise, restore, upload, progress and stop.
// Manual optimisation of rows selected in the manual list is reOptimize with page_type 1
// (a fresh optimisation of images not optimised yet); from the history (page_type 0) it re-optimises
// from the stored originals. re_opt_type 'all' covers the whole tab instead of data_list.
export const optimiseRoutes = new Hono<AppEnv>();

// Form posts carry nested values as JSON strings; JSON posts carry them as they are.
const jsonish = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  }, schema);
const int = z.coerce.number().int();
/** base64 of the whole request's bytes plus a data: prefix: no single file's data can be longer. */
const UPLOAD_MAX_DATA_CHARS = UPLOAD_MAX_BASE64_CHARS + 100;
// Zod messages are catalogue keys (worker/lib/validate.ts); {{field}} is the field's path, {{count}} a param.
const INVALID_VALUE: MessageKey = 'server.common.invalidValueFor';
const TOO_MANY_IDS: MessageKey = 'server.limits.tooManyIds';
const dataType = z.coerce.number().int().min(1, INVALID_VALUE).max(3, INVALID_VALUE);
/**
 * restore_type and re_opt_type are "empty or all" (image-optimisation.md section 7): any other text is refused,
 * not read as empty, so a typo ('ALL') never restores or re-optimises something else than was asked.
 */
const emptyOrAll = z.enum(['', 'all'], { error: INVALID_VALUE }).optional().nullable();
/** opt_cfg's pngtojpg and is_watermark: 0 or 1 (strings from forms). */
const optFlag = z.coerce
  .number({ error: INVALID_VALUE })
  .pipe(z.union([z.literal(0), z.literal(1)], { error: INVALID_VALUE }))
  .default(0);
const ids = z.array(int).max(MAX_IDS_PER_REQUEST, TOO_MANY_IDS).optional();
/** All rows and image ids of one request together stay within MAX_IDS_PER_REQUEST (one SELECT plans them). */
const withinIdCap = (list: { img_ids?: number[] | undefined }[]) =>
  list.reduce((n, r) => n + 1 + (r.img_ids?.length ?? 0), 0) <= MAX_IDS_PER_REQUEST;

const restoreSchema = z.object({
  data_type: dataType,
  data_list: jsonish(
    z
      .array(
        z.object({
          data_id: int,
          img_ids: jsonish(ids),
          blog_id: z.union([z.string(), z.number()]).optional().nullable(),
          restore_type: emptyOrAll,
        }),
      )
      .min(1, 'server.optimise.selectCorrectState' satisfies MessageKey)
      .max(MAX_IDS_PER_REQUEST, TOO_MANY_IDS)
      .refine(withinIdCap, TOO_MANY_IDS),
  ),
});

const reOptimizeSchema = z.object({
  data_type: dataType,
  data_list: jsonish(
    z
      .array(z.object({ data_id: int, img_ids: jsonish(ids) }))
      .max(MAX_IDS_PER_REQUEST, TOO_MANY_IDS)
      .refine(withinIdCap, TOO_MANY_IDS),
  ).default([]),
  re_opt_type: emptyOrAll,
  page_type: z.coerce.number().int().min(0).max(1).default(0),
});

const uploadSchema = z.object({
  // Maximums in the schema: at most UPLOAD_MAX_FILES files, none longer than the whole request may be.
  file_list: jsonish(
    z
      .array(
        z.object({
          name: z.string().max(300),
          data: z.string().max(UPLOAD_MAX_DATA_CHARS, 'server.upload.requestTooLarge' satisfies MessageKey),
          type: z.string().max(100).optional(),
        }),
      )
      .max(UPLOAD_MAX_FILES, 'server.upload.tooMany' satisfies MessageKey)
      .default([]),
  ),
  opt_cfg: jsonish(z.object({ pngtojpg: optFlag, is_watermark: optFlag }).default({ pngtojpg: 0, is_watermark: 0 })),
});

/** Rows name items; rows with img_ids name those images (only when they belong to that item). */
function selectionOf(
  list: { data_id: number; img_ids?: number[] | undefined; restore_type?: string | null | undefined }[],
): Selection[] {
  const byItem = list.filter((r) => !r.img_ids?.length || r.restore_type === 'all').map((r) => r.data_id);
  const byImage = list
    .filter((r) => r.img_ids?.length && r.restore_type !== 'all')
    .flatMap((r) => (r.img_ids ?? []).map((id) => ({ id, item: r.data_id })));
  const out: Selection[] = [];
  if (byItem.length) out.push({ itemIds: byItem });
  if (byImage.length) out.push({ imageIds: byImage.map((x) => x.id), onlyItemIds: [...new Set(byImage.map((x) => x.item))] });
  return out;
}

optimiseRoutes.get('/api/v2/image-opt/getOptSchedule', async (c) => {
  const q = parseInput(z.object({ data_type: z.coerce.number().int().min(1).max(4).optional() }), readQuery(c));
  return ack<Schedule | SchedulesByTab>(c, await getSchedule(c.get('db'), c.get('shop').id, q.data_type, Date.now()));
});

optimiseRoutes.get('/api/v2/image-opt/stopImageOptTask', async (c) => {
  const stopped = await stopShopJobs(c.get('db'), c.get('shop').id, Date.now());
  return ack<StopAnswer>(c, { stopped });
});

optimiseRoutes.post('/api/v2/image-opt/restore', async (c) => {
  const body = parseInput(restoreSchema, await readBody(c));
  const deps = planDeps(c.env, c.get('db'), c.get('log'));
  const selections = selectionOf(body.data_list);
  const result = await planJob(deps, {
    shop: c.get('shop'),
    dataType: body.data_type,
    processType: 'restore',
    pageType: 0,
    pattern: 'manual',
    selection: mergeSelections(selections),
  });
  return ack<PlannedJob>(c, { job_id: result.jobId, total: result.total });
});

optimiseRoutes.post('/api/v2/image-opt/reOptimize', async (c) => {
  const body = parseInput(reOptimizeSchema, await readBody(c));
  const deps = planDeps(c.env, c.get('db'), c.get('log'));
  const manual = body.page_type === 1;
  const selection: Selection = body.re_opt_type === 'all' ? { wholeTab: true } : mergeSelections(selectionOf(body.data_list));
  const result = await planJob(deps, {
    shop: c.get('shop'),
    dataType: body.data_type,
    processType: manual ? 'optimize' : 'reoptimize',
    pageType: body.page_type,
    pattern: 'manual',
    selection,
  });
  return ack<PlannedJob>(c, { job_id: result.jobId, total: result.total });
});

optimiseRoutes.post('/api/v2/image-opt/uploadImagesOpt', async (c) => {
  const body = parseInput(uploadSchema, await readBody(c));
  const deps = { ...planDeps(c.env, c.get('db'), c.get('log')), bucket: c.env.BUCKET };
  const result = await startUpload(deps, c.get('shop'), body.file_list, {
    pngToJpg: body.opt_cfg.pngtojpg === 1,
    watermark: body.opt_cfg.is_watermark === 1,
  });
  const message = result.rejected.length
    ? english('server.upload.rejected', { list: rejectionList(result.rejected) })
    : 'success';
  return ack<UploadAnswer>(c, { job_id: result.jobId, accepted: result.accepted, rejected: result.rejected }, message);
});

/** One planning pass over items and chosen images together (a job covers one tab). */
function mergeSelections(list: Selection[]): Selection {
  if (list.length === 0) return { itemIds: [] };
  if (list.length === 1) return list[0]!;
  return {
    itemIds: list.flatMap((s) => s.itemIds ?? []),
    imageIds: list.flatMap((s) => s.imageIds ?? []),
    onlyItemIds: list.flatMap((s) => s.onlyItemIds ?? []),
  };
}
