import type { WatermarkUpload } from '../../shared/image-settings';
import { r2Key } from '../lib/r2-keys';

// The stored name of a watermark picture is `<shopId>-<random>.<ext>`: it is what the settings keep in
// `image_opt.watermark.logo` and what the admin shows from /imageAddWatermark/<name> (an <img>, so no
// auth header): the random part makes it unguessable, the shop id maps it to its R2 key.
const STORED_NAME = /^(\d+)-([A-Za-z0-9_-]{16,64})\.(png|jpg)$/;

export function watermarkR2KeyOfName(name: string): string | null {
  const m = STORED_NAME.exec(name);
  if (!m) return null;
  return r2Key('watermarks', Number(m[1]), `${m[2]}.${m[3]}`);
}

/** R2 key of a shop's stored watermark picture, or null when the name is not one of that shop's. */
export function watermarkR2Key(shopId: number, logo: string): string | null {
  const m = STORED_NAME.exec(logo);
  return m && Number(m[1]) === shopId ? watermarkR2KeyOfName(logo) : null;
}

/** Public path of a stored picture (/imageAddWatermark plus the stored name). */
export function watermarkPath(logo: string): string {
  return logo ? `/imageAddWatermark/${logo}` : '';
}

/** Stores a checked picture; returns its stored name and R2 key. */
export async function storeWatermark(
  bucket: R2Bucket,
  shopId: number,
  upload: WatermarkUpload,
): Promise<{ logo: string; key: string }> {
  const random = crypto.randomUUID().replace(/-/g, '');
  const logo = `${shopId}-${random}.${upload.ext}`;
  const key = r2Key('watermarks', shopId, `${random}.${upload.ext}`);
  await bucket.put(key, upload.bytes, {
    httpMetadata: { contentType: upload.contentType, cacheControl: 'public, max-age=31536000, immutable' },
  });
  return { logo, key };
}

/** The bytes of a shop's current watermark (for the image pipeline), or null when none is stored. */
export async function readWatermark(bucket: R2Bucket, shopId: number, logo: string): Promise<Uint8Array | null> {
  const key = watermarkR2Key(shopId, logo);
  if (!key) return null;
  const obj = await bucket.get(key);
  return obj ? new Uint8Array(await obj.arrayBuffer()) : null;
}
