// The optimisation of one image as a resumable state machine (architecture.md "The optimisation path of
// one image"). Each step persists `step` before the next begins, so a worker that dies anywhere leaves a
// row the retry completes:
//   start -> original_saved   the original is in R2 (content-addressed key, so rewriting it is harmless)
//         -> result_saved     the engine's result is in R2 (or no_result: not smaller / not applicable)
//         -> (charged)        the ledger slot is reserved before Shopify changes (idempotent per image)
//         -> replacing        about to change Shopify; a retry first checks whether Shopify already has it
//         -> replaced         Shopify serves the new file (READY)
//         -> done             the row records the result
import type { JobRow } from '../db/jobs';
import { listItemImages, updateImageLocked, type ImageRow, type ItemRow } from '../db/optimise';
import type { ShopRow } from '../db/shops';
import { sha256HexOfBytes } from '../lib/crypto';
import { r2Key } from '../lib/r2-keys';
import { compressionApplies, decideMetadata, engineSettingsOf, extOf, kindOfDataType, mimeOf, type UploadOptions } from './decide';
import { MSG_EXPIRED, PermanentImageError } from './errors';
import type { ImageTarget, ImageUpdate, PipelineDeps } from './ports';

export const KEEP_MS = 30 * 24 * 60 * 60 * 1000;

/** Where one image's time went (logged per image; the pipeline benchmark sums them). */
export type Timings = { fetchMs: number; engineMs: number; shopifyMs: number };

export type RunContext = {
  job: JobRow;
  shop: ShopRow;
  image: ImageRow;
  item: ItemRow;
  /** Lease holder before this claim: a different job's half-done result is recomputed, not trusted. */
  previousLockJobId: string | null;
  upload?: UploadOptions;
};

export type Outcome =
  | { kind: 'done'; status: 'done' | 'skipped'; note?: string; charged?: boolean; timings?: Timings }
  /** The plan limit stops the job; imageDone says whether this image itself was finished first. */
  | { kind: 'plan_limit'; imageDone: boolean };

const MID_STEPS = ['original_saved', 'result_saved', 'no_result', 'replacing', 'replaced'];

export function targetOf(image: ImageRow, item: ItemRow): ImageTarget {
  const kind = kindOfDataType(item.dataType);
  return { kind: kind === 'upload' ? 'product' : kind, imgId: image.imgId, resourceId: item.resourceId, blogId: item.blogId, src: image.src };
}

async function readR2(deps: PipelineDeps, key: string | null): Promise<Uint8Array | null> {
  if (!key) return null;
  const obj = await deps.bucket.get(key);
  return obj ? new Uint8Array(await obj.arrayBuffer()) : null;
}

function sniffExt(bytes: Uint8Array, fallback: string): string {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'jpg';
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return 'png';
  if (bytes[0] === 0x47 && bytes[1] === 0x49) return 'gif';
  if (bytes[8] === 0x57 && bytes[9] === 0x45) return 'webp';
  return fallback || 'bin';
}

export async function runOptimise(deps: PipelineDeps, ctx: RunContext): Promise<Outcome> {
  const { job, shop, item } = ctx;
  let image = ctx.image;
  const timings: Timings = { fetchMs: 0, engineMs: 0, shopifyMs: 0 };
  const timed = async <T>(key: keyof Timings, fn: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    try {
      return await fn();
    } finally {
      timings[key] += Date.now() - t0;
    }
  };
  const write = async (patch: Parameters<typeof updateImageLocked>[4]) => {
    if (!(await updateImageLocked(deps.db, shop.id, image.id, job.id, patch))) throw new Error('processing lease lost to another job');
    image = { ...image, ...patch } as ImageRow;
  };
  const stored = await deps.loadSettings(shop.id);
  const settings = stored.settings;
  const isUpload = item.dataType === 4;
  let step = image.step && MID_STEPS.includes(image.step) ? image.step : 'start';
  const foreign = ctx.previousLockJobId !== null && ctx.previousLockJobId !== job.id;
  if (foreign && (step === 'result_saved' || step === 'no_result')) step = 'original_saved';
  // Shopify holds our earlier result when the row says so: a re-optimise that ends "not smaller" must
  // then put the original back, or the merchant keeps a result made with the old settings.
  const shopifyHasOldResult = image.status === 'compressed' || (step !== 'start' && image.isCompress === 1);

  // ---- 1. the original in R2 before anything on Shopify changes ----
  let original: Uint8Array | null = null;
  if (step === 'start') {
    const fromR2 = isUpload || (job.processType === 'reoptimize' && image.beforeFilePath);
    if (fromR2) {
      original = await readR2(deps, image.beforeFilePath);
      if (!original) throw new PermanentImageError(MSG_EXPIRED);
    } else {
      const current = await timed('fetchMs', () => deps.fetchImage(image.src));
      const sha = await sha256HexOfBytes(current);
      if (image.resultSha256 && sha === image.resultSha256 && image.beforeFilePath) {
        // Our own output (a products/update webhook after our fileUpdate): nothing new to optimise.
        await write({ status: 'compressed', step: 'done', failReason: null });
        return { kind: 'done', status: 'skipped', note: 'own output' };
      }
      original = current;
      if (!(image.beforeFilePath && sha === image.originalSha256)) {
        const key = r2Key('originals', shop.id, `${image.id}-${sha.slice(0, 16)}.${sniffExt(current, image.fileType)}`);
        await deps.bucket.put(key, current, { customMetadata: { sha256: sha, imageId: String(image.id) } });
        await write({ beforeFilePath: key, originalSha256: sha, imgSize: current.byteLength, originalAlt: image.alt, originalFileName: image.fileName });
      }
    }
    await write({ step: 'original_saved', status: 'processing', failReason: null });
    step = 'original_saved';
  }

  // ---- 2. the new bytes ----
  let result: { bytes: Uint8Array; format: string; width: number; height: number } | null = null;
  let note: string | undefined;
  let unsupported = false;
  if (step === 'original_saved') {
    original ??= await readR2(deps, image.beforeFilePath);
    if (!original) throw new PermanentImageError(MSG_EXPIRED);
    if (compressionApplies(settings, item)) {
      // Checked before work starts; an image charged before (re-optimise) needs no new quota.
      if (image.isCompress !== 1 && !(await deps.quota.canOptimise(shop))) return { kind: 'plan_limit', imageDone: false };
      const wantsWatermark = ctx.upload ? ctx.upload.watermark : settings.image_opt.watermark.switch === 1;
      const watermark = wantsWatermark && stored.watermarkKey ? await readR2(deps, stored.watermarkKey) : null;
      const input = original;
      const out = await timed('engineMs', () => deps.optimiseImage(input, engineSettingsOf(settings, watermark, ctx.upload)));
      // Never larger (decisions.md), except a watermark the merchant asked for: the settings warn that a
      // watermark may increase file size, so that result is kept; it is not charged (step 4).
      if (out.kind === 'optimised' && (out.bytesOut < out.bytesIn || out.watermarked)) {
        const sha = await sha256HexOfBytes(out.bytes);
        const key = r2Key('results', shop.id, `${image.id}-${sha.slice(0, 16)}.${extOf(out.format)}`);
        await deps.bucket.put(key, out.bytes, { httpMetadata: { contentType: out.mime } });
        await write({
          step: 'result_saved',
          afterFilePath: key,
          resultSha256: sha,
          compSize: out.bytesOut,
          isToJpg: out.convertedToJpg ? 1 : 0,
          isWatermark: out.watermarked ? 1 : 0,
          width: out.width,
          height: out.height,
        });
        result = { bytes: out.bytes, format: out.format, width: out.width, height: out.height };
      } else {
        note = out.kind === 'optimised' ? 'already optimal: result not smaller' : out.reason;
        unsupported = out.kind === 'unsupported';
      }
    } else {
      note = 'compression not enabled for this image';
    }
    if (!result) await write({ step: 'no_result', afterFilePath: null });
    step = result ? 'result_saved' : 'no_result';
  } else if (step === 'result_saved' || ((step === 'replacing' || step === 'replaced') && image.afterFilePath)) {
    const bytes = await readR2(deps, image.afterFilePath);
    if (!bytes) throw new PermanentImageError(MSG_EXPIRED);
    result = { bytes, format: sniffExt(bytes, 'jpg') === 'jpg' ? 'jpeg' : sniffExt(bytes, 'jpg'), width: image.width, height: image.height };
  }

  // ---- 3. reserve the charge, then Shopify in place ----
  // The ledger slot is taken BEFORE Shopify changes: an image the quota can no longer pay for (another job
  // took the last slot) is not replaced at all. Only an image that really got smaller is charged (a
  // watermark that made it larger is free). Charging is idempotent per image, so a retry that resumes
  // here is not charged twice. A row already half way into Shopify (older runs) is finished either way.
  let charged = false;
  let limitReached = false;
  if (result && result.bytes.byteLength < image.imgSize) {
    const c = await deps.quota.charge(shop, { imageId: image.id, jobId: job.id });
    charged = c.charged;
    if (!c.ok) {
      deps.log.warn('quota_exhausted_before_replace', { shopId: shop.id, imageId: image.id, jobId: job.id });
      if (step !== 'replacing' && step !== 'replaced') return { kind: 'plan_limit', imageDone: false };
      limitReached = true;
    }
  }

  const siblings = isUpload ? [image] : await listItemImages(deps.db, shop.id, item.id);
  const meta = decideMetadata(settings, item, image, siblings, shop.name);
  const update: ImageUpdate = {};
  let expectedSha: string | null = null;
  if (result) {
    update.file = { bytes: result.bytes, mime: mimeOf(result.format), filename: meta.fileName ?? image.fileName };
    expectedSha = image.resultSha256;
  } else if (shopifyHasOldResult && !isUpload) {
    original ??= await readR2(deps, image.beforeFilePath);
    if (!original) throw new PermanentImageError(MSG_EXPIRED);
    update.file = { bytes: original, mime: mimeOf(sniffExt(original, 'jpg') === 'jpg' ? 'jpeg' : sniffExt(original, 'jpg')), filename: meta.fileName ?? image.fileName };
    expectedSha = image.originalSha256;
  }
  if (meta.alt !== null) update.alt = meta.alt;
  if (meta.fileName !== null) update.fileName = meta.fileName;
  const changesShopify = !isUpload && (update.file || update.alt !== undefined || update.fileName !== undefined);

  if (changesShopify && step !== 'replaced') {
    let alreadyThere = false;
    if (step === 'replacing' && update.file && expectedSha) {
      // The previous attempt may have died after Shopify accepted the file: never upload twice.
      const url = await deps.shopify.currentImageUrl(shop, targetOf(image, item));
      const now = url ? await deps.fetchImage(url).catch(() => null) : null;
      alreadyThere = !!now && (await sha256HexOfBytes(now)) === expectedSha;
    }
    if (!alreadyThere) {
      await write({ step: 'replacing' });
      const res = await timed('shopifyMs', () => deps.shopify.updateImage(shop, targetOf(image, item), update));
      if (res.src && res.src !== image.src) await write({ src: res.src });
    }
    await write({ step: 'replaced' });
  }

  // ---- 4. record ----
  const now = deps.now();
  const size = image.imgSize;
  const compSize = result ? result.bytes.byteLength : size;
  await write({
    status: result ? 'compressed' : unsupported && !changesShopify ? 'skipped' : 'optimal',
    step: 'done',
    failReason: null,
    compSize,
    compRatio: result && size > 0 ? Math.round(((size - compSize) / size) * 10000) / 100 : 0,
    isCompress: result ? 1 : 0,
    isToJpg: result ? image.isToJpg : 0,
    isWatermark: result ? image.isWatermark : 0,
    isEditAlt: meta.alt !== null ? 1 : image.isEditAlt,
    isEditName: meta.fileName !== null ? 1 : image.isEditName,
    ...(meta.alt !== null ? { alt: meta.alt } : {}),
    ...(meta.fileName !== null ? { fileName: meta.fileName } : {}),
    ...(result ? {} : { afterFilePath: null }),
    isRestore: 0,
    isOverdue: 0,
    optimisedAt: now,
    expiresAt: now + KEEP_MS,
    lockJobId: null,
    lockExpiresAt: null,
  });
  if (limitReached) return { kind: 'plan_limit', imageDone: true };
  return { kind: 'done', status: result || meta.alt !== null || meta.fileName !== null ? 'done' : 'skipped', ...(note ? { note } : {}), charged, timings };
}
