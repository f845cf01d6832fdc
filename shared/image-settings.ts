// The one definition of the image settings, used by the Worker (save, optimise) and the admin (settings
// sheet, wizard). Validation answers with the documented messages, word for word.
import { english, formatMessage, msg, type KeyedMessage, type MessageKey, type PlainMessageKey } from './messages';
import {
  ALL_PLACEHOLDERS,
  isBlankTemplate,
  LEVEL_QUALITY,
  normaliseTemplate,
  PLACEHOLDER_LIKE,
  splitAtPlaceholders,
  unknownPlaceholders,
  WATERMARK_EXTENSIONS,
  WATERMARK_MAX_BYTES,
  type ImageKind,
  type ImageSettings,
} from './image-settings-base';
export * from './image-settings-base';

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

export type WatermarkUpload = { bytes: Uint8Array; ext: 'jpg' | 'png'; contentType: 'image/jpeg' | 'image/png' };

/** Decodes and checks a watermark picture (type by name and by content, 500 KB at most). */
type Refused = { ok: false; key: MessageKey; message: string };
/** A refusal with one of the settings' messages (its English text beside the key). */
export const refused = (key: Extract<SettingsMessageKey, PlainMessageKey>): Refused => ({
  ok: false,
  key,
  message: english(key),
});
/** The keys the settings rules answer with (only server.settings.unknownPlaceholder has params). */
export type SettingsMessageKey = Extract<MessageKey, `server.settings.${string}` | 'server.common.invalidInput'>;

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
// ---- helpers for the engine ----
export type EngineQuality = { lossless: true; quality: null } | { lossless: false; quality: number };

/** The encoder setting: lossless wins, then custom quality, then the level's quality. */
export function engineQualityOf(settings: Pick<ImageSettings, 'image_opt'>): EngineQuality {
  const q = settings.image_opt.quality;
  if (q.lossless === 1) return { lossless: true, quality: null };
  if (q.custom === 1) return { lossless: false, quality: q.custom_ratio };
  return { lossless: false, quality: LEVEL_QUALITY[q.level] };
}

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
