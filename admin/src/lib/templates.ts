// Alt text and file name templates (image-optimisation.md section 5): newlines and zero-width spaces are
// stripped, runs of whitespace collapse to one space, and an enabled scope may not be left empty.
const ZERO_WIDTH = /[\u200B-\u200D\uFEFF]/g;

export function normaliseTemplate(text: string): string {
  return text.replace(ZERO_WIDTH, '').replace(/\s+/g, ' ').trim();
}

export const isTemplateEmpty = (text: string | undefined | null) => normaliseTemplate(text ?? '') === '';

/** Inserts a placeholder at the caret (or the end) with one space either side, then normalises. */
export function insertPlaceholder(text: string, placeholder: string, caret = text.length): string {
  const at = Math.max(0, Math.min(caret, text.length));
  return normaliseTemplate(`${text.slice(0, at)} ${placeholder} ${text.slice(at)}`);
}

export const PLACEHOLDERS = {
  product: ['%product_title%', '%product_vendor%', '%product_type%', '%shop_name%', '%price%', '%product_variant%'],
  collection: ['%collection_title%', '%shop_name%'],
  blogs: ['%blog_title%', '%shop_name%'],
} as const;

export type TemplateScope = keyof typeof PLACEHOLDERS;

/** Tag debounce of the template editors (section 9). */
export const TEMPLATE_DEBOUNCE_MS = 100;
