// The image settings' shape as zod schemas, and the full validation of a settings object (shape, ranges,
// cross-field rules, the watermark picture). Used by the Worker (save, read); the admin reads answers the
// Worker validated (readImageSettings in image-settings.ts) and so needs no zod. The constants, defaults
// and rules live in image-settings.ts.
import { z } from 'zod';
import { formatMessage, keyedIssue, type MessageKey, type MessageParams } from './messages';
import {
  checkWatermarkUpload,
  DEFAULT_LEVEL,
  CUSTOM_QUALITY_MAX,
  CUSTOM_QUALITY_MIN,
  refused,
  settingsRuleMessage,
  WATERMARK_EXTENSIONS,
  WATERMARK_POSITIONS,
  type WatermarkUpload,
} from './image-settings';

// Flags arrive as 0/1 from JSON and as '0'/'1' or booleans from forms and older clients.
const toFlag = (v: unknown) =>
  v === true || v === '1' || v === 'true' ? 1 : v === false || v === '0' || v === 'false' || v === '' ? 0 : v;
const flag = z.preprocess(toFlag, z.union([z.literal(0), z.literal(1)]));
const num = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v);
const productScope = z.preprocess(
  num,
  z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'server.settings.productScope' satisfies MessageKey }),
);
const rule = z.string().max(500);
// Range messages are catalogue keys: validation reports them as keyed messages (keyedIssue).
const SIZE_RANGE = 'server.settings.watermarkSizeRange' satisfies MessageKey;
const OPACITY_RANGE = 'server.settings.opacityRange' satisfies MessageKey;
const CUSTOM_RANGE = 'server.settings.customRange' satisfies MessageKey;

export const watermarkSchema = z.object({
  switch: flag,
  position: z.enum(WATERMARK_POSITIONS, { error: 'server.settings.position' satisfies MessageKey }),
  // A fraction of the image height with two decimals: the 1-100 % slider saved as size / 100.
  image_height: z.preprocess(num, z.number({ error: SIZE_RANGE }).min(0.01, SIZE_RANGE).max(1, SIZE_RANGE).transform(round2)),
  opacity: z.preprocess(num, z.number({ error: OPACITY_RANGE }).min(0.1, OPACITY_RANGE).max(1, OPACITY_RANGE).transform(round1)),
  /** Stored name of the current picture ('' when none), shown from /imageAddWatermark/<logo>. */
  logo: z.string().max(200),
  /** base64 (optionally a data: URL) of a newly uploaded picture; never stored in the settings. */
  file_data: z.string().optional(),
  file_name: z.string().max(255).optional(),
});

export const qualitySchema = z.object({
  /** 1: use custom_ratio (55-95); 0: use the level. */
  custom: flag,
  /** 1: lossless (keeps every pixel, only removes waste); wins over custom and level. */
  lossless: flag,
  /** Low / Medium / High (1 / 2 / 3 -> quality 90 / 75 / 70). Older clients may omit it. */
  level: z
    .preprocess(
      num,
      z.union([z.literal(1), z.literal(2), z.literal(3)], { error: 'server.settings.levelRange' satisfies MessageKey }),
    )
    .default(DEFAULT_LEVEL),
  custom_ratio: z.preprocess(
    num,
    z
      .number({ error: CUSTOM_RANGE })
      .int(CUSTOM_RANGE)
      .min(CUSTOM_QUALITY_MIN, CUSTOM_RANGE)
      .max(CUSTOM_QUALITY_MAX, CUSTOM_RANGE),
  ),
});

export const imageOptSchema = z.object({
  switch: flag,
  product: productScope,
  collection: flag,
  blogs: flag,
  pngtojpg: flag,
  /** With PNG to JPG on: skip the conversion when the JPG would be larger than the PNG. */
  pngtojpg_size_control: flag,
  /**
   * Resize on request (decisions.md "Image levels name a look"): JPGs whose long side is above this many
   * px are scaled down to it; 0 = off (the default; settings saved before it existed read as off).
   */
  resize_long_side: z
    .preprocess(
      num,
      z.union([z.literal(0), z.literal(2048), z.literal(2880), z.literal(4096)], {
        error: 'server.settings.resizeRange' satisfies MessageKey,
      }),
    )
    .default(0),
  watermark: watermarkSchema,
  quality: qualitySchema,
});

export const altTextSchema = z.object({
  switch: flag,
  product: productScope,
  collection: flag,
  blogs: flag,
  /** 1: only images without alt text. */
  blank_replace: flag,
  product_rule: rule,
  collection_rule: rule,
  blogs_rule: rule,
});

export const fileNameSchema = altTextSchema.omit({ blank_replace: true });

export const imageSettingsSchema = z.object({
  /** 1 until the first successful save. */
  is_default: flag,
  /** Optimisation mode: 1 automatic, 0 manual. */
  auto_switch: flag,
  image_opt: imageOptSchema,
  alt_text: altTextSchema,
  file_name: fileNameSchema,
});

export type ImageSettings = z.infer<typeof imageSettingsSchema>;
export type ImageOptSettings = ImageSettings['image_opt'];
export type WatermarkSettings = ImageOptSettings['watermark'];
export type QualitySettings = ImageOptSettings['quality'];
export type AltTextSettings = ImageSettings['alt_text'];
export type FileNameSettings = ImageSettings['file_name'];

/** A refusal carries its catalogue key (and params, for a field zod named) beside the English text. */
export type SettingsValidation =
  | { ok: true; settings: ImageSettings; upload: WatermarkUpload | null }
  | { ok: false; key: MessageKey; params?: MessageParams; message: string };

/**
 * Full validation of a settings object: shape, ranges, cross-field rules, and the new watermark picture
 * when one is sent. `storedLogo` is the picture already saved for the shop ('' when none).
 */
export function validateImageSettings(input: unknown, storedLogo = ''): SettingsValidation {
  const parsed = imageSettingsSchema.safeParse(input);
  if (!parsed.success) {
    const keyed = keyedIssue(parsed.error.issues[0]);
    return { ok: false, key: keyed.message_key, params: keyed.params, message: formatMessage(keyed) };
  }
  const settings = parsed.data;
  const wm = settings.image_opt.watermark;
  let upload: WatermarkUpload | null = null;
  if (wm.file_data) {
    const checked = checkWatermarkUpload(wm.file_data, wm.file_name);
    if (!checked.ok) return checked;
    upload = checked.upload;
  } else if (
    wm.file_name &&
    !(WATERMARK_EXTENSIONS as readonly string[]).includes(wm.file_name.toLowerCase().split('.').pop() ?? '')
  ) {
    return refused('server.settings.watermarkType');
  }
  // A client cannot point at a picture it did not upload: only the stored one counts.
  const hasWatermark = upload !== null || (storedLogo !== '' && wm.logo === storedLogo);
  const rule = settingsRuleMessage(settings, hasWatermark);
  if (rule) return { ok: false, key: rule.message_key, params: rule.params, message: formatMessage(rule) };
  return { ok: true, settings, upload };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
