// The steps of one image's optimisation, in the order run-optimise.ts calls them. Each step persists
// `step` before the next begins and passes over work an earlier attempt already finished, so a worker
// that dies anywhere leaves a row the retry completes:
//   start -> original_saved   the original is in R2 (content-addressed key, so rewriting it is harmless)
//         -> result_saved     the engine's result is in R2 (or no_result: not smaller / not applicable)
//         -> (charged)        the ledger slot is reserved before Shopify changes (idempotent per image)
//         -> replacing        about to change Shopify; a retry first checks whether Shopify already has it
//         -> replaced         Shopify serves the new file (READY)
//         -> done             the row records the result
import type { StoredImageSettings } from '../db/image-settings';
import { LEASE_RELEASED, listItemImages, type ImageRow } from '../db/images';
import { sha256HexOfBytes } from '../lib/crypto';
import { extensionOf, withFormatExtension } from '../../shared/templates';
import { r2Key } from '../lib/r2-keys';
import { compressionApplies, DATA_TYPES, decideMetadata, engineSettingsOf, extOf, mimeOf } from './decide';
import { leasedImage, type LeasedImage } from './lease';
import { replaceOnShopify, targetOf, underFreeName } from './on-shopify';
import type { ImageUpdate, PipelineDeps } from './ports';
import { KEEP_MS, type Outcome, type RunContext, type Timings } from './run-context';
import { english } from '../../shared/messages';
import { MSG_DELETED, MSG_EXPIRED, PermanentImageError } from './errors';
import { holdsVersion, moveToNewPicture, readServed } from './served';
import { formatOf, readKept, readStored, sniffExt } from './stored-bytes';

/** The persisted steps a retry resumes from ('done' ends a run; anything else starts afresh). */
type Step = 'start' | 'original_saved' | 'result_saved' | 'no_result' | 'replacing' | 'replaced';
const MID_STEPS: readonly string[] = ['original_saved', 'result_saved', 'no_result', 'replacing', 'replaced'];

/** What every step reads: the image under our lease, the shop's settings, where the last attempt stopped. */
export type OptimiseRun = {
  deps: PipelineDeps;
  ctx: RunContext;
  lease: LeasedImage;
  stored: StoredImageSettings;
  isUpload: boolean;
  resumeAt: Step;
  /**
   * Shopify holds our earlier result: a re-optimise that ends "not smaller" must then put the original
   * back, or the merchant keeps a result made with the old settings.
   */
  shopifyHasOldResult: boolean;
  /** What Shopify served when this run read the image (step 1): the picture its change is made from. */
  read: { url: string; sha: string } | null;
  timings: Timings;
};

type Result = { bytes: Uint8Array; format: string; width: number; height: number };

/** Where the image stands after a step, and the bytes this attempt already holds. */
export type Progress = { step: Step; original: Uint8Array | null };
export type Made = Progress & { result: Result | null; note?: string; unsupported: boolean };
export type Slot = { charged: boolean; limitReached: boolean };
export type Change = {
  update: ImageUpdate;
  expectedSha: string | null;
  meta: { alt: string | null; fileName: string | null };
  changesShopify: boolean;
  /** The file name the templates wanted, when Shopify had given it to another file (meta holds the one used). */
  nameTaken?: string;
};

async function timed<T>(timings: Timings, key: keyof Timings, fn: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  try {
    return await fn();
  } finally {
    timings[key] += Date.now() - t0;
  }
}

function resumePoint(ctx: RunContext): Step {
  const { image, job } = ctx;
  const step = image.step && MID_STEPS.includes(image.step) ? (image.step as Step) : 'start';
  // A different job's half-done result was made with its settings: make it again from the original.
  const foreign = ctx.previousLockJobId !== null && ctx.previousLockJobId !== job.id;
  return foreign && (step === 'result_saved' || step === 'no_result') ? 'original_saved' : step;
}

/** The run's inputs: the row under our lease (the consumer claimed it), the settings, the resume point. */
export async function openRun(deps: PipelineDeps, ctx: RunContext): Promise<OptimiseRun> {
  const resumeAt = resumePoint(ctx);
  return {
    deps,
    ctx,
    lease: leasedImage(deps, ctx.leaseToken, ctx.image),
    stored: await deps.loadSettings(ctx.shop.id),
    isUpload: ctx.item.dataType === DATA_TYPES.upload,
    resumeAt,
    shopifyHasOldResult: ctx.image.status === 'compressed' || (resumeAt !== 'start' && ctx.image.compressed),
    read: null,
    timings: { fetchMs: 0, engineMs: 0, shopifyMs: 0 },
  };
}

type Fetched = { bytes: Uint8Array; sha: string };

/**
 * Step 1a, the original's bytes. Uploads: from R2. Catalogue images: Shopify is asked what it serves
 * first (served.ts), so a picture the merchant or another app put there is never overwritten by what
 * the row remembers: it becomes the new original (optimise) or stops the run (re-optimise). Our own
 * result ends an optimisation as 'own_output'; a re-optimisation starts again from the stored original.
 * null when an earlier attempt stored the original already and Shopify still serves that original or
 * our result. A resumed run looks too: its retry may come minutes after the merchant replaced the picture,
 * and what it would put up was made from the older one. Then the run starts over from the newer picture.
 */
export async function fetchOriginal(run: OptimiseRun): Promise<Fetched | 'own_output' | 'changed' | null> {
  const { deps, ctx, lease } = run;
  const image = lease.row;
  if (run.isUpload)
    return run.resumeAt === 'start' ? { bytes: await readKept(deps, image.originalKey), sha: image.originalSha256 ?? '' } : null;
  const reoptimise = ctx.job.processType === 'reoptimize';
  const served = await timed(run.timings, 'fetchMs', () => readServed(deps, ctx.shop, ctx.item, image));
  if (served.kind === 'gone' || !served.bytes || !served.sha || !served.url) throw new PermanentImageError(MSG_DELETED);
  run.read = { url: served.url, sha: served.sha };
  if (run.resumeAt !== 'start') {
    if (served.kind !== 'other') return null; // the picture the last attempt worked on, or ours already
    run.resumeAt = 'start';
  }
  if (served.kind === 'result') {
    if (!reoptimise) return 'own_output';
    // Our own result is never taken for an original: once the original is gone (30 days), so is re-optimising.
    if (!holdsVersion(image) || image.expired) throw new PermanentImageError(MSG_EXPIRED);
    return { bytes: await readKept(deps, image.originalKey), sha: image.originalSha256! };
  }
  if (served.kind === 'other' && image.originalSha256) {
    await moveToNewPicture(deps, image, served, 'server.optimise.changedInShopify', lease);
    run.shopifyHasOldResult = false; // Shopify serves the merchant's picture, not a result of ours
    if (reoptimise) return 'changed';
  }
  return { bytes: served.bytes, sha: served.sha };
}

/** A re-optimisation found a picture we did not write: the row moved on to it, nothing was uploaded. */
export function changedOutcome(): Outcome {
  return { kind: 'done', status: 'failed', note: english('server.optimise.changedNotReoptimised') };
}

/**
 * Shopify already serves our result for this image (an earlier run replaced it and then failed, e.g. while
 * waiting for Shopify's file processing): the row says so, and the image is charged as for any delivered
 * result (issue 25, item 11: that earlier failure returned its quota slot). Charged once in its life, so
 * an image charged before costs nothing more.
 */
export async function markOwnOutput(run: OptimiseRun): Promise<Outcome> {
  const { deps, ctx, lease } = run;
  const c = await deps.quota.charge(ctx.shop, { imageId: lease.row.id, jobId: ctx.job.id });
  if (!c.ok) deps.log.warn('own_output_uncharged', { shopId: ctx.shop.id, imageId: lease.row.id, reason: 'quota_exhausted' });
  await lease.write({ status: 'compressed', step: 'done', failReason: null, checkServed: false });
  return { kind: 'done', status: 'skipped', note: 'own output' };
}

/**
 * Step 1b: the original in R2 before anything on Shopify changes. It is written on every run, even when
 * R2 holds it already (the key is content-addressed): R2's lifecycle rule deletes an original 30 days
 * after its last write, and the restore date the admin shows is counted from this same write.
 */
export async function storeOriginal(run: OptimiseRun, fetched: Fetched | null): Promise<Progress> {
  if (!fetched) return { step: run.resumeAt, original: null };
  const { lease, ctx, deps } = run;
  const image = lease.row;
  const { bytes, sha } = fetched;
  if (!run.isUpload) {
    const known = image.originalKey && sha === image.originalSha256;
    const key = known
      ? image.originalKey!
      : r2Key('originals', ctx.shop.id, `${image.id}-${sha.slice(0, 16)}.${sniffExt(bytes, image.fileType)}`);
    const storedAt = deps.now();
    await lease.renew(); // the bytes were fetched under our lease: still ours before R2 is written
    await deps.bucket.put(key, bytes, { customMetadata: { sha256: sha, imageId: String(image.id), storedAt: String(storedAt) } });
    await lease.write({
      originalKey: key,
      originalSha256: sha,
      originalSize: bytes.byteLength,
      originalStoredAt: storedAt,
      // The merchant's own words, kept from before our first change: a later run finds ours on Shopify.
      originalAlt: image.altEdited ? image.originalAlt : image.alt,
      originalFileName: image.fileNameEdited ? image.originalFileName : image.fileName,
      // fetchOriginal just compared what Shopify serves: a later mark by the catalogue sync (a newer
      // picture while this run works) stays, and the served check looks at it once the lease is given back.
      checkServed: false,
    });
  }
  await lease.write({ step: 'original_saved', status: 'processing', failReason: null });
  return { step: 'original_saved', original: bytes };
}

type EngineAnswer = { result: Result | null; note?: string; unsupported: boolean };

const LIMIT_NOTES = { 'metadata-only': 'server.optimise.metadataOnly', 'lossless-only': 'server.optimise.losslessOnly' } as const;

/**
 * The row's note when the engine did less than the level asked for (only metadata removed, or only a
 * lossless recompression): the merchant sees why instead of a normal optimisation. A later result that
 * got the level clears a note of this kind (other notes stay).
 */
function limitNote(
  image: { noteKey: string | null },
  out: { limited?: keyof typeof LIMIT_NOTES; width: number; height: number; bytesIn: number },
): { noteKey?: string | null; noteParams?: Record<string, string> | null } {
  if (out.limited) {
    // The megapixels of the original (the result keeps its size: nothing was resized).
    return { noteKey: LIMIT_NOTES[out.limited], noteParams: { mp: ((out.width * out.height) / 1e6).toFixed(1) } };
  }
  const ours: string[] = Object.values(LIMIT_NOTES);
  return image.noteKey && ours.includes(image.noteKey) ? { noteKey: null, noteParams: null } : {};
}

/** Runs the engine and keeps its result in R2 when it is worth having. */
async function runEngine(run: OptimiseRun, original: Uint8Array): Promise<EngineAnswer | 'plan_limit'> {
  const { deps, ctx, lease, stored } = run;
  const image = lease.row;
  const { settings } = stored;
  // Checked before work starts; an image charged before (re-optimise) needs no new quota.
  if (!ctx.charged && !(await deps.quota.canOptimise(ctx.shop))) return 'plan_limit';
  const wantsWatermark = ctx.upload ? ctx.upload.watermark : settings.image_opt.watermark.switch === 1;
  const watermark = wantsWatermark && stored.watermarkKey ? await readStored(deps, stored.watermarkKey) : null;
  // Renewed while the isolate's engine queue makes us wait; the encode itself blocks timers (LEASE_MS covers it).
  const out = await timed(run.timings, 'engineMs', () =>
    lease.during(() => deps.optimiseImage(original, engineSettingsOf(settings, watermark, ctx.upload))),
  );
  await lease.renew(); // a delivery whose lease ran out during the encode stops here, before R2
  // What the engine did with this image (bench:store reads it for its "path" column).
  deps.log.info('engine_result', {
    imageId: image.id,
    kind: out.kind,
    ...(out.kind === 'optimised'
      ? {
          path: out.path,
          format: out.format,
          qualityUsed: out.qualityUsed,
          tiles: out.tiles,
          note: out.note,
          bytesIn: out.bytesIn,
          bytesOut: out.bytesOut,
        }
      : { reason: out.reason }),
  });
  // Never larger, except a watermark the merchant asked for: the settings warn that a
  // watermark may increase file size, so that result is kept; it is not charged (reserveSlot).
  if (out.kind !== 'optimised' || !(out.bytesOut < out.bytesIn || out.watermarked)) {
    return {
      result: null,
      note: out.kind === 'optimised' ? 'already optimal: result not smaller' : out.reason,
      unsupported: out.kind === 'unsupported',
    };
  }
  const sha = await sha256HexOfBytes(out.bytes);
  const key = r2Key('results', ctx.shop.id, `${image.id}-${sha.slice(0, 16)}.${extOf(out.format)}`);
  await deps.bucket.put(key, out.bytes, { httpMetadata: { contentType: out.mime } });
  await lease.write({
    step: 'result_saved',
    ...limitNote(image, out),
    resultKey: key,
    resultSha256: sha,
    optimisedSize: out.bytesOut,
    convertedToJpg: out.convertedToJpg,
    watermarked: out.watermarked,
    width: out.width,
    height: out.height,
    originalWidth: out.widthIn ?? 0,
    originalHeight: out.heightIn ?? 0,
  });
  return { result: { bytes: out.bytes, format: out.format, width: out.width, height: out.height }, unsupported: false };
}

/**
 * Step 2, the new bytes: the engine's result stored in R2 (result_saved), or the reason there is none
 * (no_result). A resumed attempt reads the stored result back instead of running the engine again.
 */
export async function makeResult(run: OptimiseRun, held: Progress): Promise<Made | 'plan_limit'> {
  const { deps, lease } = run;
  const image = lease.row;
  if (held.step === 'original_saved') {
    const original = held.original ?? (await readKept(deps, image.originalKey));
    const answer = compressionApplies(run.stored.settings, run.ctx.item)
      ? await runEngine(run, original)
      : { result: null, note: 'compression not enabled for this image', unsupported: false };
    if (answer === 'plan_limit') return answer;
    if (!answer.result) await lease.write({ step: 'no_result', resultKey: null });
    return { step: answer.result ? 'result_saved' : 'no_result', original, ...answer };
  }
  if (held.step === 'result_saved' || ((held.step === 'replacing' || held.step === 'replaced') && image.resultKey)) {
    const bytes = await readKept(deps, image.resultKey);
    return { ...held, result: { bytes, format: formatOf(bytes), width: image.width, height: image.height }, unsupported: false };
  }
  return { ...held, result: null, unsupported: false };
}

/**
 * Step 3: the ledger slot is taken BEFORE Shopify changes, so an image the quota can no longer pay for
 * (another job took the last slot) is not replaced at all. Only an image that really got smaller is
 * charged (a watermark that made it larger is free). Charging is idempotent per image: a retry that
 * resumes here is not charged twice. A row already half way into Shopify (older runs) is finished.
 */
export async function reserveSlot(run: OptimiseRun, made: Made): Promise<Slot | 'plan_limit'> {
  const { deps, ctx, lease } = run;
  if (!made.result || made.result.bytes.byteLength >= lease.row.originalSize) return { charged: false, limitReached: false };
  const c = await deps.quota.charge(ctx.shop, { imageId: lease.row.id, jobId: ctx.job.id });
  if (c.ok) return { charged: c.charged, limitReached: false };
  deps.log.warn('quota_exhausted_before_replace', { shopId: ctx.shop.id, imageId: lease.row.id, jobId: ctx.job.id });
  if (made.step !== 'replacing' && made.step !== 'replaced') return 'plan_limit';
  return { charged: c.charged, limitReached: true };
}

/** The bytes Shopify should serve: our result, or the original back in place of an old result. */
async function newFile(
  run: OptimiseRun,
  made: Made,
  filename: string,
): Promise<{ file: NonNullable<ImageUpdate['file']>; sha: string | null } | null> {
  const image = run.lease.row;
  if (made.result)
    return { file: { bytes: made.result.bytes, mime: mimeOf(made.result.format), filename }, sha: image.resultSha256 };
  if (!run.shopifyHasOldResult || run.isUpload) return null;
  const original = made.original ?? (await readKept(run.deps, image.originalKey));
  return { file: { bytes: original, mime: mimeOf(formatOf(original)), filename }, sha: image.originalSha256 };
}

/**
 * The file name for the bytes Shopify will serve: the template's name (or the current one) with the
 * extension of their format, so a PNG converted to JPG is named ".jpg" and a re-optimise without the
 * conversion names it ".png" again. It goes with the new bytes in the same fileUpdate, and the staged
 * upload carries the same name: Shopify refuses a file name whose extension differs from the new
 * source's (MISMATCHED_FILENAME_AND_ORIGINAL_SOURCE) and keeps the old name when none is sent.
 */
function servedFileName(name: string, bytes: Uint8Array): string {
  return withFormatExtension(name, extOf(formatOf(bytes)));
}

/** What Shopify should hold afterwards: the new bytes, alt text and file name (one update). */
export async function planChange(run: OptimiseRun, made: Made): Promise<Change> {
  const { deps, ctx, lease, isUpload } = run;
  // The merchant may have written an alt text or file name in Shopify while this run worked, and the
  // catalogue sync recorded it without the lease: that edit is newer than what the run read, so the run
  // leaves it alone (in Shopify and in the row) and keeps it as the merchant's own words for a restore.
  const edited = isUpload ? { alt: false, fileName: false } : await lease.refreshWords();
  if ((edited.alt && !lease.row.altEdited) || (edited.fileName && !lease.row.fileNameEdited))
    await lease.write({
      ...(edited.alt && !lease.row.altEdited ? { originalAlt: lease.row.alt } : {}),
      ...(edited.fileName && !lease.row.fileNameEdited ? { originalFileName: lease.row.fileName } : {}),
    });
  const image = lease.row;
  const siblings = isUpload ? [image] : await listItemImages(deps.db, ctx.shop.id, ctx.item.id);
  const template = decideMetadata(run.stored.settings, ctx.item, image, siblings, ctx.shop.name);
  const decided = { alt: edited.alt ? null : template.alt, fileName: edited.fileName ? null : template.fileName };
  const bytes = await newFile(run, made, decided.fileName ?? image.fileName);
  const served = bytes && !isUpload ? servedFileName(decided.fileName ?? image.fileName, bytes.file.bytes) : null;
  const file = bytes && served ? { ...bytes, file: { ...bytes.file, filename: served } } : bytes;
  const meta = served ? { ...decided, fileName: served === image.fileName ? null : served } : decided;
  const update: ImageUpdate = {
    ...(file ? { file: file.file } : {}),
    ...(meta.alt !== null ? { alt: meta.alt } : {}),
    ...(meta.fileName !== null ? { fileName: meta.fileName } : {}),
  };
  const changesShopify = !isUpload && (!!file || meta.alt !== null || meta.fileName !== null);
  return { update, expectedSha: file?.sha ?? null, meta, changesShopify };
}

/** Shopify's codes for a file name whose extension it will not take (FilesErrorCode, 2026-10). */
const EXTENSION_REFUSED = ['INVALID_FILENAME_EXTENSION', 'MISMATCHED_FILENAME_AND_ORIGINAL_SOURCE'];

/**
 * The same change with the file's current extension kept, when Shopify refused the new one: the schema
 * says a renamed file's "extension must match the original", which we read as the new source's
 * (MISMATCHED_FILENAME_AND_ORIGINAL_SOURCE), as the emulator does; should Shopify read it as the file's
 * own, the converted bytes still go in under the old name rather than the image failing. Null otherwise.
 */
function keepingExtension(change: Change, image: ImageRow, err: unknown): Change | null {
  const codes = (err as { codes?: unknown } | null)?.codes;
  const name = change.update.fileName;
  if (!Array.isArray(codes) || !codes.some((c) => EXTENSION_REFUSED.includes(String(c))) || !name || !change.update.file)
    return null;
  const current = extensionOf(image.fileName);
  if (!current || extensionOf(name) === current) return null;
  const kept = `${name.slice(0, name.length - extensionOf(name).length)}${current}`;
  const fileName = kept === image.fileName ? null : kept;
  const { fileName: _refused, ...rest } = change.update;
  return {
    ...change,
    update: { ...rest, file: { ...change.update.file, filename: kept }, ...(fileName !== null ? { fileName } : {}) },
    meta: { ...change.meta, fileName },
  };
}

/**
 * Whether Shopify still serves the picture this run read, just before the change goes up: the merchant or
 * another app may have replaced it while the engine worked (seconds on a large photo), and our result of
 * the older picture must never go over the newer one. Shopify gives a replaced file a new URL (its `?v=`),
 * so the same URL is the same picture; a new URL is fetched and compared by its bytes. Only changes that
 * carry bytes are checked (alt text and file name go on whatever picture is there). What is left is the
 * moment between this answer and fileUpdate, which Shopify offers no condition to close.
 */
export async function stillServedAsRead(run: OptimiseRun, made: Made, change: Change): Promise<boolean> {
  const { deps, ctx, lease } = run;
  if (!change.changesShopify || !change.update.file || made.step === 'replaced' || !run.read) return true;
  const url = await deps.shopify.currentImageUrl(ctx.shop, targetOf(lease.row, ctx.item));
  if (!url) return false;
  if (url === run.read.url) return true;
  return (await sha256HexOfBytes(await deps.fetchImage(url))) === run.read.sha;
}

/** The change under the file name Shopify took (`name`: the nearest free one when the wanted one was taken). */
function named(change: Change, name: string | undefined): Change {
  const wanted = change.update.fileName;
  if (name === undefined || name === wanted) return change;
  const { file } = change.update;
  return {
    ...change,
    update: { ...change.update, fileName: name, ...(file ? { file: { ...file, filename: name } } : {}) },
    meta: { ...change.meta, fileName: name },
    ...(wanted ? { nameTaken: wanted } : {}),
  };
}

/**
 * Step 4: Shopify in place (replacing -> replaced); uploads live only in R2 and are not sent. Answers the
 * change as Shopify took it: under the nearest free file name when another file has the wanted one (two
 * products with the same title, or "shirt.png" converted where "shirt.jpg" exists), and with the file's
 * old extension kept when it refused the new one.
 */
export async function replace(run: OptimiseRun, made: Made, change: Change): Promise<Change> {
  if (!change.changesShopify || made.step === 'replaced') return change;
  const { deps, ctx, lease } = run;
  const put = async (c: Change, resuming: boolean): Promise<Change> => {
    const name = await underFreeName(c.update.fileName, (tried, tries) =>
      replaceOnShopify(
        deps,
        ctx.shop,
        ctx.item,
        lease,
        {
          update: named(c, tried).update,
          expectedSha: c.expectedSha,
          resuming: resuming && tries === 0,
          marker: { step: 'replacing' },
        },
        run.timings,
      ),
    );
    return named(c, name);
  };
  let taken: Change;
  try {
    taken = await put(change, made.step === 'replacing');
  } catch (err) {
    const fallback = keepingExtension(change, lease.row, err);
    if (!fallback) throw err;
    deps.log.warn('file_extension_refused', {
      shopId: ctx.shop.id,
      imageId: lease.row.id,
      refused: change.update.fileName ?? '',
      kept: fallback.update.file?.filename ?? '',
    });
    // A refused mutation changed nothing on Shopify: the same bytes again, under the old extension.
    taken = await put(fallback, false);
  }
  await lease.write({ step: 'replaced' });
  return taken;
}

const SAVED_AS = 'server.optimise.savedAs';

/**
 * The row's note when Shopify had given the wanted file name to another file (the merchant sees the name
 * used and why); a later run that writes the wanted name clears it. Another note (a limit) is not replaced.
 */
function nameNote(image: ImageRow, change: Change): { noteKey?: string | null; noteParams?: Record<string, string> | null } {
  if (change.nameTaken && change.meta.fileName)
    return image.noteKey && image.noteKey !== SAVED_AS
      ? {}
      : { noteKey: SAVED_AS, noteParams: { name: change.meta.fileName, original: change.nameTaken } };
  return image.noteKey === SAVED_AS && change.meta.fileName !== null ? { noteKey: null, noteParams: null } : {};
}

/** Step 5: the row records the result, ends the run (done) and gives the lease back. */
export async function record(run: OptimiseRun, made: Made, change: Change): Promise<void> {
  const { deps, lease } = run;
  const image = lease.row;
  const { result, unsupported } = made;
  const { meta } = change;
  const now = deps.now();
  const size = image.originalSize;
  const optimisedSize = result ? result.bytes.byteLength : size;
  // Our alt text and file name go into the row only while it still holds the words planChange saw, or
  // ours already (the sync our own change started recorded them first: still ours, for a restore to undo):
  // a merchant's edit the sync recorded since (after Shopify took ours) is what Shopify serves now.
  if (meta.alt !== null) await lease.writeIfUnchanged({ alt: meta.alt, altEdited: true }, { alt: [image.alt, meta.alt] });
  if (meta.fileName !== null)
    await lease.writeIfUnchanged(
      { fileName: meta.fileName, fileNameEdited: true },
      { fileName: [image.fileName, meta.fileName] },
    );
  await lease.write({
    status: result ? 'compressed' : unsupported && !change.changesShopify ? 'skipped' : 'optimal',
    step: 'done',
    failReason: null,
    ...nameNote(image, change),
    optimisedSize,
    savedPercent: result && size > 0 ? Math.round(((size - optimisedSize) / size) * 10000) / 100 : 0,
    compressed: !!result,
    convertedToJpg: result ? image.convertedToJpg : false,
    watermarked: result ? image.watermarked : false,
    ...(result ? {} : { resultKey: null }),
    restored: false,
    expired: false,
    optimisedAt: now,
    // The original was written at originalStoredAt (storeOriginal): R2 deletes it 30 days from then.
    expiresAt: (image.originalStoredAt ?? now) + KEEP_MS,
    ...LEASE_RELEASED,
  });
}

/** What the consumer is told: done (or skipped when nothing changed), and whether the slot ran out. */
export function outcomeOf(run: OptimiseRun, made: Made, slot: Slot, change: Change): Outcome {
  if (slot.limitReached) return { kind: 'plan_limit', imageDone: true };
  const changed = !!made.result || change.meta.alt !== null || change.meta.fileName !== null;
  return {
    kind: 'done',
    status: changed ? 'done' : 'skipped',
    ...(made.note ? { note: made.note } : {}),
    charged: slot.charged,
    timings: run.timings,
  };
}
