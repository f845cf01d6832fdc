import { isTemplateEmpty, type TemplateScope } from './templates';

// The first-run wizard (page-speed-and-app.md sections 2 and 4): six screens, four counted steps.
export type WizardStep = 1 | 2 | 3 | 4 | 5 | 6;
export const LAST_STEP: WizardStep = 6;

export type TemplateSection = {
  switch: 0 | 1;
  product: 0 | 1 | 2;
  collection: 0 | 1;
  blogs: 0 | 1;
  product_rule: string;
  collection_rule: string;
  blogs_rule: string;
};

export type WizardConfig = {
  image_opt: { product: 0 | 1; collection: 0 | 1; blogs: 0 | 1; pngtojpg: 0 | 1 };
  alt_text: TemplateSection & { blank_replace: 0 | 1 };
  file_name: TemplateSection;
  auto_switch: 0 | 1;
  is_default: 0 | 1;
};

// Wizard defaults for new setups: "<title> - <shop name>" in every scope (section 3).
const rules = {
  product_rule: '%product_title% - %shop_name%',
  collection_rule: '%collection_title% - %shop_name%',
  blogs_rule: '%blog_title% - %shop_name%',
};

export function defaultWizardConfig(): WizardConfig {
  return {
    image_opt: { product: 1, collection: 1, blogs: 1, pngtojpg: 0 },
    alt_text: { switch: 1, product: 1, collection: 1, blogs: 1, blank_replace: 0, ...rules },
    file_name: { switch: 1, product: 1, collection: 1, blogs: 1, ...rules },
    auto_switch: 1,
    is_default: 0,
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

export const hasScope = (s: TemplateSection) => s.product !== 0 || s.collection !== 0 || s.blogs !== 0;

/** Scopes whose template is empty while the section is on and the scope enabled (editors to mark). */
export function emptyTemplates(s: TemplateSection): TemplateScope[] {
  if (s.switch !== 1) return [];
  return (Object.keys(RULE_OF) as TemplateScope[]).filter((scope) => s[scope] !== 0 && isTemplateEmpty(s[RULE_OF[scope]]));
}

/** Next is disabled on step 3 (alt) / 4 (file name) when the switch is on with no scope chosen. */
export function isNextDisabled(step: WizardStep, c: WizardConfig): boolean {
  if (step === 3) return c.alt_text.switch === 1 && !hasScope(c.alt_text);
  if (step === 4) return c.file_name.switch === 1 && !hasScope(c.file_name);
  return step >= LAST_STEP;
}

/** Why Next from `step` is blocked: the editors with an empty template, or [] when it may proceed. */
export function blockingEditors(step: WizardStep, c: WizardConfig): TemplateScope[] {
  if (step === 3) return emptyTemplates(c.alt_text);
  if (step === 4) return emptyTemplates(c.file_name);
  return [];
}

/** The payload of POST /api/v1/saveNewGuideCfg sent when moving from step 5 to 6. */
export function guidePayload(c: WizardConfig) {
  return { page5: { day_backup: 1 }, settings: c };
}
