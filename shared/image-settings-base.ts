// The image settings' constants, defaults and reading, with no messages (issue 26: the admin's first
// screens read settings and wizard defaults; the settings' refusals and their English texts,
// shared/messages.ts, load with the settings form). shared/image-settings.ts re-exports all of it.
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

// ---- the settings' shape ----
// The zod schemas that define it, and the full validation, live in image-settings-schema.ts: the Worker
// validates with them; the admin reads answers the Worker already validated and ships without zod
// (issue 26: zod was a quarter of the settings screens' JavaScript).
import type { ImageSettings } from './image-settings-schema';
export type {
  ImageSettings,
  ImageOptSettings,
  WatermarkSettings,
  QualitySettings,
  AltTextSettings,
  FileNameSettings,
} from './image-settings-schema';

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
// ---- placeholders ----
/** Anything that looks like a placeholder: `%name%` with a name of letters, digits, `_` or `-`. */
export const PLACEHOLDER_LIKE = /%[A-Za-z_][A-Za-z0-9_-]*%/g;
export const ALL_PLACEHOLDERS: readonly string[] = [...new Set(Object.values(TEMPLATE_PLACEHOLDERS).flat())];

/** The template cut at the given documented placeholders: literal text and placeholders, in order. */
export function splitAtPlaceholders(template: string, known: readonly string[]): { text: string; placeholder: boolean }[] {
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

/**
 * The settings in an answer of the Worker (getSettings, saveSettings, getImgOptTotal): it validated them
 * with imageSettingsSchema when they were saved and reads them through it, so the admin takes them as
 * they come, over the defaults; null when the answer carries no settings object.
 */
export function readImageSettings(input: unknown): ImageSettings | null {
  if (!isPlainObject(input) || !['image_opt', 'alt_text', 'file_name'].every((k) => isPlainObject(input[k]))) return null;
  return mergeDeep(defaultImageSettings(), input) as ImageSettings;
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

export type ImageKind = 'product' | 'collection' | 'blogs';
