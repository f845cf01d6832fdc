// The Upload tab (uploadImagesOpt): merchant files are checked, stored in R2 under uploads/, listed as
// data_type 4 history rows and optimised by the queue like catalogue images, without Shopify. Results
// stay downloadable for 30 days (the expiry sweep removes them).
import { startOfUtcDay } from '../billing/cycle';
import { takeAllowance } from '../db/shop-allowances';
import { insertUpload } from '../db/images';
import { UPLOADS_PER_DAY } from '../lib/limits';
import { english, msg, type KeyedMessage } from '../../shared/messages';
import type { ShopRow } from '../db/shops';
import { fromBase64, sha256HexOfBytes } from '../lib/crypto';
import { declaredSizeAllowed } from '../images/declared-size';
import { apiError, ValidationError } from '../lib/errors';
import { r2Key } from '../lib/r2-keys';
import { UPLOAD_MAX_FILES, UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_REQUEST_BYTES } from './errors';
import { planJob, type PlanDeps } from './plan';
import { KEEP_MS } from './run-optimise';

export type UploadFile = { name: string; data: string; type?: string };
/** A refused file: its name, the documented English "<name> <reason>", and that text's key and params. */
export type Rejected = { name: string; message: string } & KeyedMessage;
type RejectionKey = 'server.upload.notSupported' | 'server.upload.tooLarge' | 'server.upload.tooManyPixels';
const reject = (name: string, key: RejectionKey): Checked => ({
  ok: false,
  rejected: { name, message: english(key, { name }), ...msg(key, { name }) },
});
/** The refusals as the list of server.upload.rejected (the heading, then each file's reason). */
export const rejectionList = (rejected: readonly Rejected[]): KeyedMessage[] =>
  rejected.map((r) => ({ message_key: r.message_key, params: r.params }));

type Checked = { ok: true; name: string; bytes: Uint8Array; ext: 'jpg' | 'png' } | { ok: false; rejected: Rejected };

/** Type by name and by content (a renamed GIF is still refused), then the per-file size limit. */
export function checkUploadFile(file: UploadFile): Checked {
  const name = file.name.trim().slice(0, 200) || 'image';
  const ext = name.toLowerCase().split('.').pop() ?? '';
  const typeOk = ['jpg', 'jpeg', 'png'].includes(ext);
  if (!typeOk) return reject(name, 'server.upload.notSupported');
  let bytes: Uint8Array;
  try {
    const payload = file.data.replace(/^data:[^,]*,/, '').replace(/\s+/g, '');
    bytes = fromBase64(payload);
  } catch {
    return reject(name, 'server.upload.notSupported');
  }
  if (bytes.byteLength > UPLOAD_MAX_FILE_BYTES) return reject(name, 'server.upload.tooLarge');
  const isPng = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  const isJpg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (!isPng && !isJpg) return reject(name, 'server.upload.notSupported');
  if (!declaredSizeAllowed(bytes, isPng ? 'png' : 'jpeg')) return reject(name, 'server.upload.tooManyPixels');
  return { ok: true, name, bytes, ext: isPng ? 'png' : 'jpg' };
}

/** Whole-request limits, checked before any file is decoded (base64 is 4/3 of the bytes). */
export function checkUploadRequest(files: readonly UploadFile[]): void {
  if (files.length === 0) throw new ValidationError('server.upload.none');
  if (files.length > UPLOAD_MAX_FILES) throw new ValidationError('server.upload.tooMany', { count: UPLOAD_MAX_FILES });
  const approxBytes = files.reduce((n, f) => n + Math.floor((f.data.length * 3) / 4), 0);
  if (approxBytes > UPLOAD_MAX_REQUEST_BYTES + 1024) throw new ValidationError('server.upload.requestTooLarge');
}

export async function startUpload(
  deps: PlanDeps & { bucket: R2Bucket },
  shop: ShopRow,
  files: readonly UploadFile[],
  options: { pngToJpg: boolean; watermark: boolean },
): Promise<{ jobId: string | null; accepted: string[]; rejected: Rejected[] }> {
  checkUploadRequest(files);
  const checked = files.map(checkUploadFile);
  const rejected = checked.flatMap((c) => (c.ok ? [] : [c.rejected]));
  const good = checked.flatMap((c) => (c.ok ? [c] : []));
  if (good.length === 0) throw new ValidationError('server.upload.rejected', { list: rejectionList(rejected) });

  // Checked before anything is stored: an upload over the plan limit leaves nothing behind.
  if (!(await deps.canOptimise(shop))) throw apiError(402, 'server.optimise.planLimit', { count: good.length });
  // Each accepted file counts against the shop's daily allowance (R2 and the queue are shared).
  if (!(await takeAllowance(deps.db, shop.id, 'uploads', startOfUtcDay(deps.now()), good.length, UPLOADS_PER_DAY))) {
    throw apiError(429, 'server.limits.uploadAllowance');
  }
  const imageIds: number[] = [];
  for (const file of good) {
    const uploadId = crypto.randomUUID();
    const sha = await sha256HexOfBytes(file.bytes);
    const key = r2Key('uploads', shop.id, `${uploadId}-${file.name}`);
    // Taken before the write: R2's lifecycle rule counts its 30 days from the write, never earlier.
    const storedAt = deps.now();
    await deps.bucket.put(key, file.bytes, {
      httpMetadata: { contentType: file.ext === 'png' ? 'image/png' : 'image/jpeg' },
      customMetadata: { sha256: sha, storedAt: String(storedAt) },
    });
    const { image } = await insertUpload(deps.db, shop.id, {
      uploadId,
      name: file.name,
      fileType: file.ext,
      size: file.bytes.byteLength,
      key,
      sha256: sha,
      storedAt,
      expiresAt: storedAt + KEEP_MS,
    });
    imageIds.push(image.id);
  }
  const { jobId } = await planJob(deps, {
    shop,
    dataType: 4,
    processType: 'upload',
    pageType: 0,
    pattern: 'upload',
    selection: { imageIds },
    upload: options,
  });
  return { jobId, accepted: good.map((g) => g.name), rejected };
}
