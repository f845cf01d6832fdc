import { describe, expect, it } from 'vitest';
import { insertPlaceholder, isTemplateEmpty, normaliseTemplate } from '../../../admin/src/lib/templates';
import {
  blockingEditors,
  defaultWizardConfig,
  guidePayload,
  isNextDisabled,
  progressFor,
  stepNumber,
} from '../../../admin/src/lib/wizard-rules';
import { ratingFollowUp } from '../../../admin/src/lib/rating';
import { settingsRuleError } from '../../../shared/image-settings';

describe('templates', () => {
  it('collapses whitespace and strips zero-width spaces', () => {
    expect(normaliseTemplate('  %product_title%\n\n  -\u200B %shop_name%  ')).toBe('%product_title% - %shop_name%');
    expect(isTemplateEmpty('\u200B \n ')).toBe(true);
  });
  it('inserts a placeholder at the caret with single spaces', () => {
    expect(insertPlaceholder('Buy  now', '%price%', 3)).toBe('Buy %price% now');
    expect(insertPlaceholder('', '%shop_name%')).toBe('%shop_name%');
  });
});

describe('wizard rules', () => {
  it('counts steps 2..5 and progress (step-1)*25', () => {
    expect([1, 2, 3, 4, 5, 6].map((s) => stepNumber(s as 1))).toEqual([null, 1, 2, 3, 4, null]);
    expect([1, 2, 5, 6].map((s) => progressFor(s as 1))).toEqual([0, 25, 100, 100]);
  });

  it('disables Next when a switch is on with no scope', () => {
    const c = defaultWizardConfig();
    expect(isNextDisabled(3, c)).toBe(false);
    c.alt_text = { ...c.alt_text, product: 0, collection: 0, blogs: 0 };
    expect(isNextDisabled(3, c)).toBe(true);
    c.alt_text.switch = 0;
    expect(isNextDisabled(3, c)).toBe(false);
    c.file_name = { ...c.file_name, switch: 1, product: 0, collection: 0, blogs: 0 };
    expect(isNextDisabled(4, c)).toBe(true);
  });

  it('blocks on empty templates of enabled scopes only', () => {
    const c = defaultWizardConfig();
    c.alt_text.collection_rule = ' \u200B ';
    c.alt_text.blogs_rule = '';
    c.alt_text.blogs = 0;
    expect(blockingEditors(3, c)).toEqual(['collection']);
    c.alt_text.switch = 0;
    expect(blockingEditors(3, c)).toEqual([]);
    c.file_name.product_rule = '';
    expect(blockingEditors(4, c)).toEqual([]); // file names are off by default
    c.file_name.switch = 1;
    expect(blockingEditors(4, c)).toEqual(['product']);
  });

  it("starts with the merchant's words kept: alt only where none, no renaming, manual mode", () => {
    const c = defaultWizardConfig();
    expect(c.alt_text).toMatchObject({ switch: 1, blank_replace: 1 });
    expect(c.file_name.switch).toBe(0);
    expect(c.auto_switch).toBe(0);
    expect(guidePayload(c).settings).toMatchObject({ auto_switch: 0, alt_text: { blank_replace: 1 }, file_name: { switch: 0 } });
  });

  it('blocks on unknown placeholders of enabled scopes, as the Worker refuses them', () => {
    const c = defaultWizardConfig();
    c.alt_text.product_rule = '%product_title% by %vendor%';
    c.alt_text.blogs_rule = '%blog_title% %product_title%'; // a product placeholder is unknown to blog posts
    expect(blockingEditors(3, c)).toEqual(['product', 'blogs']);
    expect(settingsRuleError(c, false)).toBe(
      'Unknown placeholder: %vendor%, %product_title%. Templates can use only the placeholders offered under the field.',
    );
    c.alt_text.blogs = 0;
    c.alt_text.product_rule = '100%-cotton-%product_title%';
    expect(blockingEditors(3, c)).toEqual([]);
  });

  it('with every image type unticked, sends compression off so the rules accept it', () => {
    const c = defaultWizardConfig();
    c.image_opt = { ...c.image_opt, product: 0, collection: 0, blogs: 0 };
    expect(settingsRuleError(c, false)).toBe('Optimization cannot occur until you have set up at least one item.');
    const sent = guidePayload(c).settings;
    expect(sent.image_opt.switch).toBe(0);
    expect(settingsRuleError({ ...c, ...sent }, false)).toBeNull();
    expect(guidePayload(defaultWizardConfig()).settings.image_opt.switch).toBe(1);
  });

  it('sends page5 and the settings', () => {
    expect(guidePayload(defaultWizardConfig())).toMatchObject({
      page5: { day_backup: 1 },
      settings: { alt_text: { product_rule: '%product_title%-%shop_name%' } },
    });
  });
});

describe('rating follow-up (no review gating)', () => {
  it.each([
    [0, { review: false, feedback: false }],
    [1, { review: true, feedback: true }],
    [3, { review: true, feedback: true }],
    [4, { review: true, feedback: false }],
    [5, { review: true, feedback: false }],
  ] as const)('%i -> %j', (s, o) => expect(ratingFollowUp(s)).toEqual(o));
});
