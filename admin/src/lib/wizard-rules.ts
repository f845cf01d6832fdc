import {
  defaultImageSettings,
  unknownPlaceholders,
  WIZARD_TEMPLATE_DEFAULTS,
  type FileNameSettings,
  type ImageSettings,
} from '../../../shared/image-settings-base';
import { isTemplateEmpty, type TemplateScope } from './templates';

// The first-run wizard: six screens, four counted steps.
export type WizardStep = 1 | 2 | 3 | 4 | 5 | 6;
export const LAST_STEP: WizardStep = 6;

/** Alt text and file name sections share these fields (file name has no blank_replace). */
export type TemplateSection = FileNameSettings;
export type WizardConfig = ImageSettings;

/**
 * The wizard's starting point: the shared defaults, which keep the merchant's words (decisions.md,
 * "Merchant's words and choices"): alt text only for images without one, file names left alone, manual
 * mode (automatic mode is a choice on the image-types step), and the wizard templates (title - shop name)
 * ready for whoever opts in.
 */
export function defaultWizardConfig(): WizardConfig {
  const d = defaultImageSettings();
  return {
    ...d,
    is_default: 0,
    auto_switch: 0,
    alt_text: { ...d.alt_text, switch: 1, blank_replace: 1, ...WIZARD_TEMPLATE_DEFAULTS },
    file_name: { ...d.file_name, switch: 0, ...WIZARD_TEMPLATE_DEFAULTS },
  };
}

/** "Step N of 4" shows for screens 2 to 5 (the counted steps); null elsewhere. */
export const stepNumber = (step: WizardStep): number | null => (step >= 2 && step <= 5 ? step - 1 : null);
export const progressFor = (step: WizardStep): number => Math.min(100, (step - 1) * 25);

const RULE_OF: Record<TemplateScope, 'product_rule' | 'collection_rule' | 'blogs_rule'> = {
  product: 'product_rule',
  collection: 'collection_rule',
  blogs: 'blogs_rule',
};

export const hasScope = (s: Pick<TemplateSection, 'product' | 'collection' | 'blogs'>) =>
  s.product !== 0 || s.collection !== 0 || s.blogs !== 0;

/** Scopes whose template is empty while the section is on and the scope enabled (editors to mark). */
export function emptyTemplates(s: TemplateSection): TemplateScope[] {
  if (s.switch !== 1) return [];
  return (Object.keys(RULE_OF) as TemplateScope[]).filter((scope) => s[scope] !== 0 && isTemplateEmpty(s[RULE_OF[scope]]));
}

/** Scopes whose template uses something that is not a documented placeholder of its kind. */
export function unknownPlaceholderTemplates(s: TemplateSection): TemplateScope[] {
  if (s.switch !== 1) return [];
  return (Object.keys(RULE_OF) as TemplateScope[]).filter(
    (scope) => s[scope] !== 0 && unknownPlaceholders(s[RULE_OF[scope]], scope).length > 0,
  );
}

/** Editors to mark: an empty template or one with an unknown placeholder (the Worker refuses both). */
export function badTemplates(s: TemplateSection): TemplateScope[] {
  const bad = new Set([...emptyTemplates(s), ...unknownPlaceholderTemplates(s)]);
  return (Object.keys(RULE_OF) as TemplateScope[]).filter((scope) => bad.has(scope));
}

/** Next is disabled on step 3 (alt) / 4 (file name) when the switch is on with no scope chosen. */
export function isNextDisabled(step: WizardStep, c: WizardConfig): boolean {
  if (step === 3) return c.alt_text.switch === 1 && !hasScope(c.alt_text);
  if (step === 4) return c.file_name.switch === 1 && !hasScope(c.file_name);
  return step >= LAST_STEP;
}

/**
 * Why Next from `step` is blocked: the editors with an empty template or an unknown placeholder, or []
 * when it may proceed.
 */
export function blockingEditors(step: WizardStep, c: WizardConfig): TemplateScope[] {
  if (step === 3) return badTemplates(c.alt_text);
  if (step === 4) return badTemplates(c.file_name);
  return [];
}

/**
 * The payload of POST /api/v1/saveNewGuideCfg sent when moving from step 5 to 6. Step 2 has no
 * compression switch of its own: with every image type unticked, compression is off (a switched-on
 * section with no scope would be refused with 'set up at least one item').
 */
export function guidePayload(c: WizardConfig) {
  const { alt_text, file_name, auto_switch, is_default } = c;
  const image_opt = { ...c.image_opt, switch: hasScope(c.image_opt) ? (1 as const) : (0 as const) };
  return { page5: { day_backup: 1 }, settings: { image_opt, alt_text, file_name, auto_switch, is_default } };
}
