import { mergeSettings, publicSettings, type ImageSettings } from '../../shared/image-settings';
import { validateImageSettings } from '../../shared/image-settings-schema';
import type { Db } from '../db/client';
import { completeGuide, getStoredImageSettings, saveImageSettings } from '../db/image-settings';
import { declaredSizeAllowed } from '../images/declared-size';
import { invalidInput, ValidationError } from '../lib/errors';
import { storeWatermark, watermarkR2Key } from '../files/watermark';

/** The areas of the documented settings object; a save names at least one of them. */
const SETTINGS_AREAS = ['image_opt', 'alt_text', 'file_name', 'auto_switch'] as const;

function carriesSettings(input: unknown): boolean {
  return (
    typeof input === 'object' &&
    input !== null &&
    !Array.isArray(input) &&
    SETTINGS_AREAS.some((k) => (input as Record<string, unknown>)[k] !== undefined)
  );
}

/**
 * Only the optimisation mode named: the image page's auto switch, which section 4 allows only once settings
 * exist. Before that, turning automatic mode on alone would optimise (and charge) the whole store with
 * settings the merchant never chose.
 */
function namesOnlyMode(input: Record<string, unknown>): boolean {
  return input.auto_switch !== undefined && !SETTINGS_AREAS.some((k) => k !== 'auto_switch' && input[k] !== undefined);
}

export type SaveContext = { db: Db; bucket: R2Bucket; shopId: number };

/** The settings as getSettings answers them. */
export async function readSettings(db: Db, shopId: number): Promise<ImageSettings> {
  return publicSettings((await getStoredImageSettings(db, shopId)).settings);
}

/**
 * Validates and saves a full or partial settings object (merged over the stored one). A failed check
 * throws the documented message and saves nothing; a new watermark picture is stored in R2 first.
 * The first successful save clears is_default.
 */
export async function saveSettings(
  ctx: SaveContext,
  input: unknown,
  opts: { guide?: { backupConsent: boolean } } = {},
): Promise<ImageSettings> {
  // A save carries the settings object it documents: `{}` (or only unknown keys) is not a save, and would
  // otherwise clear is_default and mark the shop as configured.
  if (!carriesSettings(input)) throw new ValidationError('server.settings.inputEmpty');
  const stored = await getStoredImageSettings(ctx.db, ctx.shopId);
  if (stored.settings.is_default === 1 && namesOnlyMode(input as Record<string, unknown>))
    throw new ValidationError('server.settings.setUpFirst');
  const storedLogo = stored.watermarkKey ? stored.settings.image_opt.watermark.logo : '';
  const merged = mergeSettings(stored.settings, input);
  const checked = validateImageSettings(merged, storedLogo);
  if (!checked.ok) throw invalidInput({ message_key: checked.key, params: checked.params ?? {} });
  // A logo within 500 KB can still declare 100,000 x 100,000 pixels: refused before it is stored.
  if (checked.upload && !declaredSizeAllowed(checked.upload.bytes, checked.upload.ext === 'png' ? 'png' : 'jpeg')) {
    // The watermark picture's declared size is over 25 megapixels (worker/images/declared-size.ts).
    throw new ValidationError('server.settings.watermarkTooManyPixels');
  }

  const settings: ImageSettings = { ...checked.settings, is_default: 0 };
  let watermarkKey: string | null | undefined;
  if (checked.upload) {
    const saved = await storeWatermark(ctx.bucket, ctx.shopId, checked.upload);
    settings.image_opt.watermark.logo = saved.logo;
    watermarkKey = saved.key;
  } else {
    // Only the stored picture can be referenced: anything else a client sends is dropped.
    settings.image_opt.watermark.logo = storedLogo;
  }
  const clean = publicSettings(settings);
  if (opts.guide) await completeGuide(ctx.db, ctx.shopId, clean, { watermarkKey, backupConsent: opts.guide.backupConsent });
  else await saveImageSettings(ctx.db, ctx.shopId, clean, { watermarkKey });

  // The replaced picture is no longer referenced; running jobs read the settings afresh.
  if (checked.upload && stored.watermarkKey && stored.watermarkKey !== watermarkKey) {
    const oldKey = watermarkR2Key(ctx.shopId, storedLogo);
    if (oldKey) await ctx.bucket.delete(oldKey);
  }
  return clean;
}
