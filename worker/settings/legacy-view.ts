// The older "dashboard settings object" (served as a view
// over the same settings store). Pure mapping both ways; the routes read and save through it.
import { LEVEL_QUALITY, engineQualityOf, type CompressionLevel, type ImageSettings } from '../../shared/image-settings';
import { watermarkPath } from '../files/watermark';
import type { LegacyCompressionType, LegacyView } from '../../shared/api/settings';

/**
 * Area codes: 1 all products, 2 published products, 4 and 5 collections (automated / manual; the one
 * collection flag sets both), 4_5 the combined code (sets both 4 and 5), 6 blog posts. Each of the three
 * areas has flags `<prefix>_<code>`: optimize_* (image_opt), alt_* (alt_text), filename_* (file_name).
 */
export const AREA_PREFIXES = { image_opt: 'optimize', alt_text: 'alt', file_name: 'filename' } as const;
type Scope = { product: 0 | 1 | 2; collection: 0 | 1; blogs: 0 | 1 };

/** The legacy view's wire shape is the contract's (shared/api/settings.ts). */
export type { LegacyCompressionType, LegacyView };

function scopeToFlags(prefix: string, s: Scope): Record<string, number> {
  return {
    [`${prefix}_1`]: s.product === 1 ? 1 : 0,
    [`${prefix}_2`]: s.product === 2 ? 1 : 0,
    [`${prefix}_4`]: s.collection,
    [`${prefix}_5`]: s.collection,
    [`${prefix}_4_5`]: s.collection,
    [`${prefix}_6`]: s.blogs,
  };
}

export function toLegacyView(s: ImageSettings, shop: { domain: string; isOld: number }): LegacyView {
  const q = s.image_opt.quality;
  const effective = engineQualityOf(s);
  const wm = s.image_opt.watermark;
  return {
    automatic_switch: s.auto_switch,
    compression_type: q.lossless === 1 ? 'lossless' : q.custom === 1 ? 'custom' : 'lossy',
    compression_level: q.level,
    // One quality for every format: the pipeline encodes PNG, JPG and GIF alike (100 = lossless).
    PNGquality: effective.quality ?? 100,
    JPGquality: effective.quality ?? 100,
    GIFquality: effective.quality ?? 100,
    CustomCompressionQuality: q.custom_ratio,
    optimize_all_status: `${s.file_name.switch}${s.alt_text.switch}${s.image_opt.switch}`,
    is_first: s.is_default,
    idOld: shop.isOld,
    shop_owner: shop.domain,
    name: shop.domain,
    ...scopeToFlags(AREA_PREFIXES.image_opt, s.image_opt),
    ...scopeToFlags(AREA_PREFIXES.alt_text, s.alt_text),
    ...scopeToFlags(AREA_PREFIXES.file_name, s.file_name),
    product_alt_template: s.alt_text.product_rule,
    collection_alt_template: s.alt_text.collection_rule,
    blog_alt_template: s.alt_text.blogs_rule,
    product_filename_template: s.file_name.product_rule,
    collection_filename_template: s.file_name.collection_rule,
    blog_filename_template: s.file_name.blogs_rule,
    image_converting: s.image_opt.pngtojpg,
    isImageConverting: s.image_opt.pngtojpg_size_control,
    resize_long_side: s.image_opt.resize_long_side,
    image_add_watermark_switch: wm.switch,
    image_add_watermark_img: watermarkPath(wm.logo),
    position: wm.position,
    size: Math.round(wm.image_height * 100), // percent of the image height on the older page (1-100)
    opacity: wm.opacity,
    imageAltText_NoAlt: s.alt_text.blank_replace,
  };
}

const isOn = (v: unknown) => v === 1 || v === '1' || v === true || v === 'true';
const has = (form: Record<string, unknown>, key: string) => form[key] !== undefined;

/** Reads the area flags of one prefix over the current scope; absent flags keep their value. */
function flagsToScope(prefix: string, form: Record<string, unknown>, current: Scope): Scope {
  let product = current.product;
  if (has(form, `${prefix}_1`) || has(form, `${prefix}_2`)) {
    // All-products and published-only are mutually exclusive; all wins if both are sent.
    product = isOn(form[`${prefix}_1`]) ? 1 : isOn(form[`${prefix}_2`]) ? 2 : 0;
  }
  let collection = current.collection;
  if (has(form, `${prefix}_4_5`)) collection = isOn(form[`${prefix}_4_5`]) ? 1 : 0;
  else if (has(form, `${prefix}_4`) || has(form, `${prefix}_5`))
    collection = isOn(form[`${prefix}_4`]) || isOn(form[`${prefix}_5`]) ? 1 : 0;
  const blogs = has(form, `${prefix}_6`) ? (isOn(form[`${prefix}_6`]) ? 1 : 0) : current.blogs;
  return { product, collection, blogs };
}

function levelOfQuality(quality: number): CompressionLevel | null {
  for (const [level, q] of Object.entries(LEVEL_QUALITY)) if (q === quality) return Number(level) as CompressionLevel;
  return null;
}

/** Fields of the older object that fromLegacyView takes as they come (validated with the settings). */
const LEGACY_PLAIN_KEYS = [
  'automatic_switch',
  'image_converting',
  'isImageConverting',
  'resize_long_side',
  'image_add_watermark_switch',
  'position',
  'size',
  'opacity',
  'imageAltText_NoAlt',
  'CustomCompressionQuality',
  'product_alt_template',
  'collection_alt_template',
  'blog_alt_template',
  'product_filename_template',
  'collection_filename_template',
  'blog_filename_template',
] as const;
const AREA_CODES = ['1', '2', '4', '5', '4_5', '6'] as const;

/**
 * Whether the older object names anything fromLegacyView would change (issue 25, item 4): `{}`, unknown
 * keys, or only values it ignores (an optimize_all_status that is not three 0/1 digits, an unknown
 * compression_type or level) are not a save, as for saveSettings: saving them would still mark the shop
 * as configured.
 */
export function namesLegacySetting(form: Record<string, unknown>): boolean {
  if (LEGACY_PLAIN_KEYS.some((k) => has(form, k))) return true;
  if (Object.values(AREA_PREFIXES).some((p) => AREA_CODES.some((code) => has(form, `${p}_${code}`)))) return true;
  if (typeof form.optimize_all_status === 'string' && /^[01]{3}$/.test(form.optimize_all_status)) return true;
  if (form.compression_type === 'lossless' || form.compression_type === 'lossy' || form.compression_type === 'custom')
    return true;
  if (has(form, 'compression_level') && levelOfQuality(LEVEL_QUALITY[Number(form.compression_level) as CompressionLevel] ?? -1))
    return true;
  return has(form, 'JPGquality') && levelOfQuality(Number(form.JPGquality)) !== null;
}

/** The older object names the mode (automatic_switch) and nothing else it would save. */
export function namesOnlyLegacyMode(form: Record<string, unknown>): boolean {
  return has(form, 'automatic_switch') && !namesLegacySetting({ ...form, automatic_switch: undefined });
}

/**
 * The older settings object onto the documented settings shape, over the current settings. The result is
 * validated by the caller exactly like a saveSettings body (same messages, nothing saved on failure).
 */
export function fromLegacyView(form: Record<string, unknown>, current: ImageSettings): unknown {
  const pick = <T>(key: string, fallback: T): unknown => (has(form, key) ? form[key] : fallback);
  const digits =
    typeof form.optimize_all_status === 'string' && /^[01]{3}$/.test(form.optimize_all_status) ? form.optimize_all_status : null;
  const quality = { ...current.image_opt.quality };
  const type = form.compression_type;
  if (type === 'lossless') quality.lossless = 1;
  if (type === 'lossy' || type === 'custom') {
    quality.lossless = 0;
    quality.custom = type === 'custom' ? 1 : 0;
  }
  if (has(form, 'CustomCompressionQuality')) quality.custom_ratio = Number(form.CustomCompressionQuality);
  const level = has(form, 'compression_level')
    ? levelOfQuality(LEVEL_QUALITY[Number(form.compression_level) as CompressionLevel] ?? -1)
    : has(form, 'JPGquality')
      ? levelOfQuality(Number(form.JPGquality))
      : null;
  if (level) quality.level = level;
  const sizePercent = has(form, 'size') ? Number(form.size) : null;

  return {
    is_default: current.is_default,
    auto_switch: pick('automatic_switch', current.auto_switch),
    image_opt: {
      ...current.image_opt,
      switch: digits ? Number(digits[2]) : current.image_opt.switch,
      ...flagsToScope(AREA_PREFIXES.image_opt, form, current.image_opt),
      pngtojpg: pick('image_converting', current.image_opt.pngtojpg),
      pngtojpg_size_control: pick('isImageConverting', current.image_opt.pngtojpg_size_control),
      resize_long_side: pick('resize_long_side', current.image_opt.resize_long_side),
      watermark: {
        ...current.image_opt.watermark,
        switch: pick('image_add_watermark_switch', current.image_opt.watermark.switch),
        position: pick('position', current.image_opt.watermark.position),
        image_height: sizePercent === null ? current.image_opt.watermark.image_height : sizePercent / 100,
        opacity: pick('opacity', current.image_opt.watermark.opacity),
      },
      quality,
    },
    alt_text: {
      ...current.alt_text,
      switch: digits ? Number(digits[1]) : current.alt_text.switch,
      ...flagsToScope(AREA_PREFIXES.alt_text, form, current.alt_text),
      blank_replace: pick('imageAltText_NoAlt', current.alt_text.blank_replace),
      product_rule: pick('product_alt_template', current.alt_text.product_rule),
      collection_rule: pick('collection_alt_template', current.alt_text.collection_rule),
      blogs_rule: pick('blog_alt_template', current.alt_text.blogs_rule),
    },
    file_name: {
      ...current.file_name,
      switch: digits ? Number(digits[0]) : current.file_name.switch,
      ...flagsToScope(AREA_PREFIXES.file_name, form, current.file_name),
      product_rule: pick('product_filename_template', current.file_name.product_rule),
      collection_rule: pick('collection_filename_template', current.file_name.collection_rule),
      blogs_rule: pick('blog_filename_template', current.file_name.blogs_rule),
    },
  };
}
