import { describe, expect, it } from 'vitest';
import {
  MSG_CUSTOM_RANGE,
  MSG_INPUT_EMPTY,
  MSG_LEVEL_RANGE,
  MSG_NEED_ONE_ITEM,
  MSG_OPACITY_RANGE,
  MSG_POSITION,
  MSG_PRODUCT_SCOPE,
  MSG_WATERMARK_REQUIRED,
  MSG_WATERMARK_SIZE_RANGE,
  MSG_WATERMARK_TOO_LARGE,
  MSG_WATERMARK_TYPE,
  defaultImageSettings,
  engineQualityOf,
  isBlankTemplate,
  mergeSettings,
  renderTemplate,
  areaApplies,
} from '../../../shared/image-settings';
import { validateImageSettings } from '../../../shared/image-settings-schema';
import { imageStatusOf } from '../../../shared/image-status';
import { PNG_1X1_BASE64, pngOfSize } from './fixtures';

const withPatch = (patch: unknown, storedLogo = '') =>
  validateImageSettings(mergeSettings(defaultImageSettings(), patch), storedLogo);
const messageOf = (patch: unknown, storedLogo = '') => {
  const r = withPatch(patch, storedLogo);
  return r.ok ? null : r.message;
};

describe('resize on request (image_opt.resize_long_side)', () => {
  it('is off by default and when absent from settings saved before it existed', () => {
    expect(defaultImageSettings().image_opt.resize_long_side).toBe(0);
    const { resize_long_side: _, ...older } = defaultImageSettings().image_opt;
    const r = validateImageSettings({ ...defaultImageSettings(), image_opt: older }, '');
    expect(r.ok && r.settings.image_opt.resize_long_side).toBe(0);
  });

  it('takes 2048, 2880 or 4096 (also as text) and reaches the engine; anything else is refused', async () => {
    const r = withPatch({ image_opt: { resize_long_side: '2880' } });
    expect(r.ok && r.settings.image_opt.resize_long_side).toBe(2880);
    const { engineSettingsOf } = await import('../../../worker/optimise/decide');
    expect(r.ok && engineSettingsOf(r.settings, null).resizeLongSide).toBe(2880);
    expect(engineSettingsOf(defaultImageSettings(), null).resizeLongSide).toBeUndefined();
    for (const bad of [1000, 2049, -1, 'big'])
      expect(messageOf({ image_opt: { resize_long_side: bad } })).toBe('Resize must be off or 2048, 2880 or 4096 px');
  });
});

describe('documented validation messages', () => {
  it('the defaults are valid and never configured', () => {
    const r = withPatch({});
    expect(r.ok).toBe(true);
    expect(r.ok && r.settings.is_default).toBe(1);
  });

  it.each([
    ['compression with no range', { image_opt: { switch: 1, product: 0, collection: 0, blogs: 0 } }],
    ['alt text with no range', { alt_text: { switch: 1, product: 0, collection: 0, blogs: 0 } }],
    ['file name with no range', { file_name: { switch: 1, product: 0, collection: 0, blogs: 0 } }],
  ])('%s: at least one item', (_, patch) => {
    expect(messageOf(patch)).toBe(MSG_NEED_ONE_ITEM);
  });

  it('a switched-off section needs no range', () => {
    expect(messageOf({ image_opt: { switch: 0, product: 0, collection: 0, blogs: 0 } })).toBeNull();
  });

  it.each([
    ['alt_text', 'product_rule', '   '],
    ['alt_text', 'collection_rule', '\u200b\n\u200b'],
    ['alt_text', 'blogs_rule', ''],
    ['file_name', 'product_rule', '\t\u200d'],
    ['file_name', 'collection_rule', ' '],
    ['file_name', 'blogs_rule', '\ufeff'],
  ])('%s.%s blank after removing whitespace and zero-width spaces', (area, field, value) => {
    expect(messageOf({ [area]: { switch: 1, [field]: value } })).toBe(MSG_INPUT_EMPTY);
  });

  it('a blank template of a scope that is off is fine', () => {
    expect(messageOf({ alt_text: { switch: 1, product: 0, product_rule: '' } })).toBeNull();
    expect(isBlankTemplate(' %shop_name% ')).toBe(false);
  });

  it('watermark on without a picture', () => {
    expect(messageOf({ image_opt: { watermark: { switch: 1 } } })).toBe(MSG_WATERMARK_REQUIRED);
    // A name the client invents does not count; the stored one does.
    expect(messageOf({ image_opt: { watermark: { switch: 1, logo: '1-forgedforgedforged.png' } } })).toBe(MSG_WATERMARK_REQUIRED);
    expect(messageOf({ image_opt: { watermark: { switch: 1, logo: 'stored.png' } } }, 'stored.png')).toBeNull();
    // Watermarks only apply while compression is on.
    expect(messageOf({ image_opt: { switch: 0, watermark: { switch: 1 } } })).toBeNull();
  });

  it('watermark picture: 512000 bytes at most, png/jpg only', () => {
    const ok = withPatch({
      image_opt: { watermark: { switch: 1, file_data: `data:image/png;base64,${PNG_1X1_BASE64}`, file_name: 'logo.PNG' } },
    });
    expect(ok.ok && ok.upload?.ext).toBe('png');
    expect(messageOf({ image_opt: { watermark: { switch: 1, file_data: pngOfSize(512000), file_name: 'a.png' } } })).toBeNull();
    expect(messageOf({ image_opt: { watermark: { switch: 1, file_data: pngOfSize(512001), file_name: 'a.png' } } })).toBe(
      MSG_WATERMARK_TOO_LARGE,
    );
    expect(messageOf({ image_opt: { watermark: { switch: 1, file_data: PNG_1X1_BASE64, file_name: 'a.gif' } } })).toBe(
      MSG_WATERMARK_TYPE,
    );
    // Named .jpg but the bytes are a GIF.
    expect(messageOf({ image_opt: { watermark: { switch: 1, file_data: btoa('GIF89a....'), file_name: 'a.jpg' } } })).toBe(
      MSG_WATERMARK_TYPE,
    );
  });

  it.each([
    [{ image_opt: { watermark: { image_height: 0 } } }, MSG_WATERMARK_SIZE_RANGE],
    [{ image_opt: { watermark: { image_height: 1.01 } } }, MSG_WATERMARK_SIZE_RANGE],
    [{ image_opt: { watermark: { opacity: 0.05 } } }, MSG_OPACITY_RANGE],
    [{ image_opt: { watermark: { opacity: 1.5 } } }, MSG_OPACITY_RANGE],
    [{ image_opt: { watermark: { position: 'middle' } } }, MSG_POSITION],
    [{ image_opt: { quality: { level: 4 } } }, MSG_LEVEL_RANGE],
    [{ image_opt: { quality: { level: 0 } } }, MSG_LEVEL_RANGE],
    [{ image_opt: { quality: { custom_ratio: 54 } } }, MSG_CUSTOM_RANGE],
    [{ image_opt: { quality: { custom_ratio: 96 } } }, MSG_CUSTOM_RANGE],
    [{ image_opt: { product: 3 } }, MSG_PRODUCT_SCOPE],
    [{ alt_text: { product: -1 } }, MSG_PRODUCT_SCOPE],
  ])('slider and choice ranges %#', (patch, message) => {
    expect(messageOf(patch)).toBe(message);
  });

  it('size is kept as a fraction with two decimals, opacity in tenths', () => {
    const r = withPatch({ image_opt: { watermark: { image_height: 0.456, opacity: '0.7' } } });
    expect(r.ok && r.settings.image_opt.watermark.image_height).toBe(0.46);
    expect(r.ok && r.settings.image_opt.watermark.opacity).toBe(0.7);
  });
});

describe('engine helpers', () => {
  it('levels map to 90 / 75 / 70, custom and lossless win', () => {
    const s = defaultImageSettings();
    expect(engineQualityOf(s)).toEqual({ lossless: false, quality: 75 });
    s.image_opt.quality.level = 1;
    expect(engineQualityOf(s).quality).toBe(90);
    s.image_opt.quality.level = 3;
    expect(engineQualityOf(s).quality).toBe(70);
    s.image_opt.quality = { ...s.image_opt.quality, custom: 1, custom_ratio: 60 };
    expect(engineQualityOf(s).quality).toBe(60);
    s.image_opt.quality.lossless = 1;
    expect(engineQualityOf(s)).toEqual({ lossless: true, quality: null });
  });

  it('published-only scope and templates', () => {
    const area = { switch: 1, product: 2, collection: 0, blogs: 1 };
    expect(areaApplies(area, 'product', false)).toBe(false);
    expect(areaApplies(area, 'product', true)).toBe(true);
    expect(areaApplies(area, 'collection')).toBe(false);
    expect(renderTemplate('%product_title%  -  %shop_name% %nope%', { product_title: 'Red Shoe', shop_name: 'Acme' })).toBe(
      'Red Shoe - Acme',
    );
  });
});

describe('image status rules', () => {
  const base = {
    is_delete: 0,
    is_overdue: 0,
    is_restore: 0,
    is_compress: 1,
    is_to_jpg: 0,
    is_edit_alt: 0,
    is_edit_name: 0,
    is_watermark: 0,
    has_before_file: true,
    has_after_file: true,
  };
  it('labels in precedence order and the actions that apply', () => {
    expect(imageStatusOf(base)).toMatchObject({
      label: 'Compressed',
      can_view: true,
      can_restore: true,
      can_download: true,
      disabled: false,
    });
    expect(imageStatusOf({ ...base, is_restore: 1 })).toMatchObject({
      label: 'Restored',
      can_view: false,
      can_restore: false,
      disabled: false,
    });
    expect(imageStatusOf({ ...base, is_overdue: 1, has_before_file: false })).toMatchObject({
      label: 'Expired',
      can_view: false,
      can_restore: false,
      disabled: true,
      can_download: true,
    });
    expect(imageStatusOf({ ...base, is_delete: 1, is_overdue: 1 })).toMatchObject({
      label: 'Deleted',
      disabled: true,
      can_restore: false,
    });
    // A deleted item's image within 30 days: both files kept, so it can still be viewed and downloaded.
    expect(imageStatusOf({ ...base, is_delete: 1 })).toMatchObject({
      label: 'Deleted',
      disabled: true,
      can_view: true,
      can_download: true,
      can_restore: false,
    });
    expect(imageStatusOf({ ...base, is_delete: 1, is_overdue: 1, has_before_file: false })).toMatchObject({ can_view: false });
    expect(imageStatusOf({ ...base, is_delete: 1, has_after_file: false })).toMatchObject({
      can_view: false,
      can_download: true,
    });
    expect(imageStatusOf({ ...base, is_compress: 0, has_before_file: false, has_after_file: false })).toMatchObject({
      label: 'Not Compressed',
      can_view: false,
      can_download: false,
      can_restore: false,
    });
    expect(imageStatusOf({ ...base, is_to_jpg: 1, is_edit_alt: 1, is_edit_name: 1, is_watermark: 1 }).tags).toEqual([
      'PNG -> JPG',
      'Alt text',
      'File name',
      'Watermark',
    ]);
  });
});
