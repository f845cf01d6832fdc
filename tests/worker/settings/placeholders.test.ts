// The placeholder rule (issue 21): a template may use only the documented placeholders of its kind, and
// the renderer reads a template the same way the rule does.
import { describe, expect, it } from 'vitest';
import {
  defaultImageSettings,
  renderTemplate,
  settingsRuleMessage,
  unknownPlaceholders,
  type ImageSettings,
} from '../../../shared/image-settings';
import { validateImageSettings } from '../../../shared/image-settings-schema';
import { renderAltText } from '../../../shared/templates';

describe('unknownPlaceholders', () => {
  it.each([
    ['%product_title% by %vendor%', 'product', ['%vendor%']],
    ['%vendor% %Product_Title% %product-title% %vendor%', 'product', ['%vendor%', '%Product_Title%', '%product-title%']],
    // Placeholders of another kind are unknown to this one.
    ['%collection_title% %product_title% %shop_name%', 'collection', ['%product_title%']],
    ['%blog_title% - %collection_title%', 'blogs', ['%collection_title%']],
    // Every documented placeholder of the kind, and percent signs that are not placeholders.
    ['%product_title% %product_vendor% %product_type% %shop_name% %price% %product_variant%', 'product', []],
    ['100%-cotton-%product_title%', 'product', []],
    ['20%off%shop_name%', 'product', []],
    ['50% off, 100 % cotton', 'product', []],
    ['', 'blogs', []],
  ] as const)('%s (%s) -> %j', (template, kind, unknown) => {
    expect(unknownPlaceholders(template, kind)).toEqual(unknown);
  });
});

describe('settings rule', () => {
  const withAlt = (patch: Partial<ImageSettings['alt_text']>): ImageSettings => {
    const s = defaultImageSettings();
    s.alt_text = { ...s.alt_text, switch: 1, ...patch };
    return s;
  };

  it('names every unknown placeholder of the templates in use', () => {
    const s = withAlt({ product_rule: '%product_title% by %vendor%', blogs_rule: '%blog_title% %author%' });
    s.file_name = { ...s.file_name, switch: 1, collection_rule: '%collection_title% %vendor%' };
    expect(settingsRuleMessage(s, false)).toEqual({
      message_key: 'server.settings.unknownPlaceholder',
      params: { names: '%vendor%, %author%' },
    });
    const checked = validateImageSettings(s);
    expect(checked).toMatchObject({
      ok: false,
      key: 'server.settings.unknownPlaceholder',
      params: { names: '%vendor%, %author%' },
      message: 'Unknown placeholder: %vendor%, %author%. Templates can use only the placeholders offered under the field.',
    });
  });

  it('ignores templates that are never rendered: area off or scope not chosen', () => {
    expect(settingsRuleMessage(withAlt({ switch: 0, product_rule: '%vendor%' }), false)).toBeNull();
    expect(settingsRuleMessage(withAlt({ blogs: 0, blogs_rule: '%vendor%' }), false)).toBeNull();
    expect(settingsRuleMessage(withAlt({ product: 0, product_rule: '%vendor%' }), false)).toBeNull();
    expect(settingsRuleMessage(withAlt({ product: 2, product_rule: '%vendor%' }), false)?.message_key).toBe(
      'server.settings.unknownPlaceholder',
    );
  });

  it('an empty template is reported before an unknown placeholder', () => {
    expect(settingsRuleMessage(withAlt({ product_rule: '%vendor%', blogs_rule: ' ' }), false)?.message_key).toBe(
      'server.settings.inputEmpty',
    );
  });
});

describe('rendering reads a template as the rule does', () => {
  const values = { product_title: 'Astronaut Portrait Print', shop_name: 'Dev Store', product_vendor: 'Orbit' };
  it.each([
    ['%product_title% by %product_vendor%', 'Astronaut Portrait Print by Orbit'],
    ['100%-cotton-%product_title%', '100%-cotton-Astronaut Portrait Print'],
    ['20%off%shop_name%', '20%offDev Store'],
    // Only templates saved before the rule can hold unknown placeholders: they are left out.
    ['%product_title% by %vendor%', 'Astronaut Portrait Print by'],
    ['%Product_Title% %product_title%', 'Astronaut Portrait Print'],
  ])('%s -> %s', (template, out) => expect(renderTemplate(template, values)).toBe(out));

  it('a placeholder of the kind without a value renders empty', () => {
    expect(renderAltText('%product_title% %price%', { kind: 'product', item: { title: 'Mug' }, shopName: 'S' })).toBe('Mug');
  });
});
