// The one definition of the image settings, used by the Worker (save, optimise) and the admin (settings
// sheet, wizard). Validation answers with the documented messages, word for word.
import { z } from 'zod';
import {
  english,
  formatMessage,
  keyedIssue,
  msg,
  type KeyedMessage,
  type MessageKey,
  type MessageParams,
  type PlainMessageKey,
} from './messages';

// ---- documented messages: keys of shared/messages.ts; schemas carry the keys ----
// The English texts, for tests and logs. Slider and choice ranges have no documented message; theirs name
// the range the screen offers.
export const MSG_NEED_ONE_ITEM = english('server.settings.needOneItem');
export const MSG_INPUT_EMPTY = english('server.settings.inputEmpty');
export const MSG_WATERMARK_REQUIRED = english('server.settings.watermarkRequired');
export const MSG_WATERMARK_TOO_LARGE = english('server.settings.watermarkTooLarge');
export const MSG_WATERMARK_TYPE = english('server.settings.watermarkType');
export const MSG_WATERMARK_SIZE_RANGE = english('server.settings.watermarkSizeRange');
export const MSG_OPACITY_RANGE = english('server.settings.opacityRange');
export const MSG_LEVEL_RANGE = english('server.settings.levelRange');
export const MSG_CUSTOM_RANGE = english('server.settings.customRange');
export const MSG_PRODUCT_SCOPE = english('server.settings.productScope');
export const MSG_POSITION = english('server.settings.position');
/** A template names something that is not a documented placeholder of its kind (`{{names}}`: the ones found). */
export const MSG_UNKNOWN_PLACEHOLDER = (names: string) => english('server.settings.unknownPlaceholder', { names });

// ---- constants ----
/** Compression levels: Low = 90, Medium = 75 (default), High = 70. */
export const LEVEL_QUALITY = { 1: 90, 2: 75, 3: 70 } as const;
export type CompressionLevel = keyof typeof LEVEL_QUALITY;
export const DEFAULT_LEVEL: CompressionLevel = 2;
export const CUSTOM_QUALITY_MIN = 55;
export const CUSTOM_QUALITY_MAX = 95;
export const WATERMARK_MAX_BYTES = 512000;
export const WATERMARK_EXTENSIONS = ['jpg', 'jpeg', 'png'] as const;
export const WATERMARK_POSITIONS = ['t_l', 't_c', 't_r', 'c', 'b_l', 'b_c', 'b_r'] as const;
export type WatermarkPosition = (typeof WATERMARK_POSITIONS)[number];
/** Product scope: 0 none, 1 all products, 2 published products only. */
export const PRODUCT_SCOPES = [0, 1, 2] as const;

export const TEMPLATE_PLACEHOLDERS = {
  product: ['%product_title%', '%product_vendor%', '%product_type%', '%shop_name%', '%price%', '%product_variant%'],
  collection: ['%collection_title%', '%shop_name%'],
  blogs: ['%blog_title%', '%shop_name%'],
} as const;
/** "Defaults in general": the templates of the settings outside the wizard (defaultImageSettings). */
export const GENERAL_TEMPLATE_DEFAULTS = {
  product_rule: '%product_title% %product_vendor%',
  collection_rule: '%collection_title% %shop_name%',
  blogs_rule: '%blog_title% %shop_name%',
} as const;
/** Wizard defaults for new setups: title - shop name, joined with a hyphen. */
export const WIZARD_TEMPLATE_DEFAULTS = {
  product_rule: '%product_title%-%shop_name%',
  collection_rule: '%collection_title%-%shop_name%',
  blogs_rule: '%blog_title%-%shop_name%',
} as const;

// ---- schema ----
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

// ---- defaults ----
export function defaultImageSettings(): ImageSettings {
  return {
    is_default: 1,
    auto_switch: 0,
    // Wizard step 2: product, blog and collection images all on by default.
    image_opt: {
      switch: 1,
      product: 1,
      collection: 1,
      blogs: 1,
      pngtojpg: 0,
      pngtojpg_size_control: 1,
      resize_long_side: 0,
      watermark: { switch: 0, position: 'b_r', image_height: 0.2, opacity: 0.5, logo: '' },
      quality: { custom: 0, lossless: 0, level: DEFAULT_LEVEL, custom_ratio: LEVEL_QUALITY[DEFAULT_LEVEL] },
    },
    // The merchant's words stay theirs unless they opt in (decisions.md, "Merchant's words and choices"):
    // alt text is written only where an image has none, file names are left alone, and automatic mode
    // (auto_switch above) is off.
    // Templates: the "Defaults in general" (page-speed-and-app.md section 3), what the settings show a
    // shop that never ran the wizard; the wizard proposes its own (WIZARD_TEMPLATE_DEFAULTS).
    alt_text: { switch: 1, product: 1, collection: 1, blogs: 1, blank_replace: 1, ...GENERAL_TEMPLATE_DEFAULTS },
    file_name: { switch: 0, product: 1, collection: 1, blogs: 1, ...GENERAL_TEMPLATE_DEFAULTS },
  };
}

// ---- cross-field rules (scopes, watermark, templates) ----
/** Whitespace (incl. newlines) and zero-width characters are removed before the emptiness check. */
export function isBlankTemplate(text: string): boolean {
  return text.replace(/[\s\u200B-\u200D\u2060\uFEFF]+/g, '') === '';
}

/** Collapses repeated whitespace and trims, as on tag insertion. */
export function normaliseTemplate(text: string): string {
  return text
    .replace(/[\u200B-\u200D\u2060\uFEFF]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export type WatermarkUpload = { bytes: Uint8Array; ext: 'jpg' | 'png'; contentType: 'image/jpeg' | 'image/png' };

/** Decodes and checks a watermark picture (type by name and by content, 500 KB at most). */
type Refused = { ok: false; key: MessageKey; message: string };
const refused = (key: Extract<SettingsMessageKey, PlainMessageKey>): Refused => ({ ok: false, key, message: english(key) });
/** The keys the settings rules answer with (only server.settings.unknownPlaceholder has params). */
type SettingsMessageKey = Extract<MessageKey, `server.settings.${string}` | 'server.common.invalidInput'>;

export function checkWatermarkUpload(
  fileData: string,
  fileName: string | undefined,
): { ok: true; upload: WatermarkUpload } | Refused {
  const ext = (fileName ?? '').toLowerCase().split('.').pop() ?? '';
  const dataUrl = /^data:([^;,]*)(;base64)?,/.exec(fileData);
  if (fileName !== undefined && fileName !== '' && !(WATERMARK_EXTENSIONS as readonly string[]).includes(ext))
    return refused('server.settings.watermarkType');
  let bytes: Uint8Array;
  try {
    const bin = atob((dataUrl ? fileData.slice(dataUrl[0].length) : fileData).replace(/\s+/g, ''));
    bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
  } catch {
    return refused('server.settings.watermarkType');
  }
  if (bytes.length === 0) return refused('server.settings.watermarkRequired');
  if (bytes.length > WATERMARK_MAX_BYTES) return refused('server.settings.watermarkTooLarge');
  const isPng = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  const isJpg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (isPng) return { ok: true, upload: { bytes, ext: 'png', contentType: 'image/png' } };
  if (isJpg) return { ok: true, upload: { bytes, ext: 'jpg', contentType: 'image/jpeg' } };
  return refused('server.settings.watermarkType');
}

// ---- placeholders ----
/** Anything that looks like a placeholder: `%name%` with a name of letters, digits, `_` or `-`. */
const PLACEHOLDER_LIKE = /%[A-Za-z_][A-Za-z0-9_-]*%/g;
const ALL_PLACEHOLDERS: readonly string[] = [...new Set(Object.values(TEMPLATE_PLACEHOLDERS).flat())];

/** The template cut at the given documented placeholders: literal text and placeholders, in order. */
function splitAtPlaceholders(template: string, known: readonly string[]): { text: string; placeholder: boolean }[] {
  const parts: { text: string; placeholder: boolean }[] = [];
  let rest = template;
  while (rest !== '') {
    let at = -1;
    let found = '';
    for (const p of known) {
      const i = rest.indexOf(p);
      if (i !== -1 && (at === -1 || i < at)) [at, found] = [i, p];
    }
    if (at === -1) break;
    if (at > 0) parts.push({ text: rest.slice(0, at), placeholder: false });
    parts.push({ text: found, placeholder: true });
    rest = rest.slice(at + found.length);
  }
  if (rest !== '') parts.push({ text: rest, placeholder: false });
  return parts;
}

/**
 * The placeholder-like names in a template that are not documented for its kind (product, collection or
 * blog), each once, in order: `%product_title% by %vendor%` -> ['%vendor%']. Documented placeholders are
 * found first, so `100%-cotton-%product_title%` or `20%off%shop_name%` has nothing unknown.
 */
export function unknownPlaceholders(template: string, kind: ImageKind): string[] {
  const found: string[] = [];
  for (const part of splitAtPlaceholders(template, TEMPLATE_PLACEHOLDERS[kind])) {
    if (part.placeholder) continue;
    for (const m of part.text.matchAll(PLACEHOLDER_LIKE)) if (!found.includes(m[0])) found.push(m[0]);
  }
  return found;
}

/** The keyed refusal for unknown placeholders: `names` lists them, comma separated. */
export const unknownPlaceholderMessage = (names: readonly string[]): KeyedMessage =>
  msg('server.settings.unknownPlaceholder', { names: names.join(', ') });

const RULE_OF_KIND = { product: 'product_rule', collection: 'collection_rule', blogs: 'blogs_rule' } as const;

/** The templates that are in use: their area is on and their scope chosen (the others are never rendered). */
function templatesInUse(s: ImageSettings): { kind: ImageKind; rule: string }[] {
  const out: { kind: ImageKind; rule: string }[] = [];
  for (const area of [s.alt_text, s.file_name]) {
    if (area.switch !== 1) continue;
    for (const kind of ['product', 'collection', 'blogs'] as const)
      if (area[kind] !== 0) out.push({ kind, rule: area[RULE_OF_KIND[kind]] });
  }
  return out;
}

/**
 * The cross-field rules on a shape-valid settings object; returns the first documented message (with its
 * params) or null. `hasWatermark`: a picture is already stored, or a new one comes with this save.
 */
export function settingsRuleMessage(s: ImageSettings, hasWatermark: boolean): KeyedMessage | null {
  const scoped = (x: { product: number; collection: number; blogs: number }) =>
    x.product !== 0 || x.collection === 1 || x.blogs === 1;
  if (s.image_opt.switch === 1 && !scoped(s.image_opt)) return msg('server.settings.needOneItem');
  for (const area of [s.alt_text, s.file_name]) {
    if (area.switch !== 1) continue;
    if (!scoped(area)) return msg('server.settings.needOneItem');
    if (area.product !== 0 && isBlankTemplate(area.product_rule)) return msg('server.settings.inputEmpty');
    if (area.collection === 1 && isBlankTemplate(area.collection_rule)) return msg('server.settings.inputEmpty');
    if (area.blogs === 1 && isBlankTemplate(area.blogs_rule)) return msg('server.settings.inputEmpty');
  }
  // Only documented placeholders: anything else would be written to the store as nothing (issue 21).
  const unknown = [...new Set(templatesInUse(s).flatMap((t) => unknownPlaceholders(t.rule, t.kind)))];
  if (unknown.length) return unknownPlaceholderMessage(unknown);
  // Watermarks are added only while compression is on; then a picture is required.
  if (s.image_opt.switch === 1 && s.image_opt.watermark.switch === 1 && !hasWatermark)
    return msg('server.settings.watermarkRequired');
  return null;
}

/** The key of the first failing rule, or null. */
export function settingsRuleKey(s: ImageSettings, hasWatermark: boolean): SettingsMessageKey | null {
  return (settingsRuleMessage(s, hasWatermark)?.message_key as SettingsMessageKey | undefined) ?? null;
}

/** The same rules, answered with the documented English text. */
export function settingsRuleError(s: ImageSettings, hasWatermark: boolean): string | null {
  const m = settingsRuleMessage(s, hasWatermark);
  return m && formatMessage(m);
}

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

/** Deep merge of a partial settings object over the current one (the toggle saves only auto_switch). */
export function mergeSettings(current: ImageSettings, patch: unknown): unknown {
  return mergeDeep(current, patch);
}

function mergeDeep(base: unknown, patch: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(patch)) return patch === undefined ? base : patch;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) out[k] = mergeDeep(base[k], v);
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// ---- helpers for the engine ----
export type EngineQuality = { lossless: true; quality: null } | { lossless: false; quality: number };

/** The encoder setting: lossless wins, then custom quality, then the level's quality. */
export function engineQualityOf(settings: Pick<ImageSettings, 'image_opt'>): EngineQuality {
  const q = settings.image_opt.quality;
  if (q.lossless === 1) return { lossless: true, quality: null };
  if (q.custom === 1) return { lossless: false, quality: q.custom_ratio };
  return { lossless: false, quality: LEVEL_QUALITY[q.level] };
}

export type ImageKind = 'product' | 'collection' | 'blogs';

/** Whether an area (compression, alt text, file name) applies to an image of this kind. */
export function areaApplies(
  area: { switch: number; product: number; collection: number; blogs: number },
  kind: ImageKind,
  isPublished = true,
): boolean {
  if (area.switch !== 1) return false;
  if (kind === 'product') return area.product === 1 || (area.product === 2 && isPublished);
  return area[kind] === 1;
}

export type TemplateValues = Partial<
  Record<
    | 'product_title'
    | 'product_vendor'
    | 'product_type'
    | 'shop_name'
    | 'price'
    | 'product_variant'
    | 'collection_title'
    | 'blog_title',
    string
  >
>;

/**
 * Fills the documented %placeholders% with their values (a placeholder without a value renders empty);
 * anything else that looks like a placeholder is left out (only templates saved before the placeholder
 * rule can hold one); whitespace collapsed. Reads a template the way unknownPlaceholders does.
 */
export function renderTemplate(template: string, values: TemplateValues): string {
  const text = splitAtPlaceholders(template, ALL_PLACEHOLDERS)
    .map((part) =>
      part.placeholder ? (values[part.text.slice(1, -1) as keyof TemplateValues] ?? '') : part.text.replace(PLACEHOLDER_LIKE, ''),
    )
    .join('');
  return normaliseTemplate(text);
}

/** The settings as answered by getSettings: no upload payload fields. */
export function publicSettings(s: ImageSettings): ImageSettings {
  const { file_data: _d, file_name: _n, ...watermark } = s.image_opt.watermark;
  return { ...s, image_opt: { ...s.image_opt, watermark } };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
