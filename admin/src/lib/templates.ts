// Alt text and file name template editing. The normalisation and the
// emptiness rule come from shared/image-settings.ts, the one definition the Worker validates with.
import { isBlankTemplate, normaliseTemplate, TEMPLATE_PLACEHOLDERS } from '../../../shared/image-settings-base';

export { normaliseTemplate };
export const isTemplateEmpty = (text: string | undefined | null) => isBlankTemplate(text ?? '');

/** Inserts a placeholder at the caret (or the end) with one space either side, then normalises. */
export function insertPlaceholder(text: string, placeholder: string, caret = text.length): string {
  const at = Math.max(0, Math.min(caret, text.length));
  return normaliseTemplate(`${text.slice(0, at)} ${placeholder} ${text.slice(at)}`);
}

export const PLACEHOLDERS = TEMPLATE_PLACEHOLDERS;
export type TemplateScope = keyof typeof PLACEHOLDERS;

/** Tag debounce of the template editors. */
export const TEMPLATE_DEBOUNCE_MS = 100;
