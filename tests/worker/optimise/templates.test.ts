import { describe, expect, it } from 'vitest';
import { defaultImageSettings } from '../../../shared/image-settings';
import {
  ALT_TEXT_MAX,
  decideAltText,
  decideFileNames,
  extensionOf,
  renderAltText,
  slugify,
  templateValues,
} from '../../../worker/optimise/templates';
import { withFormatExtension } from '../../../shared/templates';

const product = { title: 'Blue Linen Shirt', vendor: 'Acme', productType: 'Shirts', price: '29.90', variant: 'M / Blue' };
const ctxP = { kind: 'product' as const, item: product, shopName: 'Sunny Shop' };

describe('templates', () => {
  it('fills every product placeholder', () => {
    expect(renderAltText('%product_title% %product_vendor% %product_type% %shop_name% %price% %product_variant%', ctxP)).toBe(
      'Blue Linen Shirt Acme Shirts Sunny Shop 29.90 M / Blue',
    );
  });

  it('fills collection and blog placeholders and blanks the ones of other kinds', () => {
    const coll = { kind: 'collection' as const, item: { title: 'Summer' }, shopName: 'Sunny Shop' };
    expect(renderAltText('%collection_title% - %shop_name% %product_title%', coll)).toBe('Summer - Sunny Shop');
    const blog = { kind: 'blogs' as const, item: { title: 'How we dye linen', blogTitle: 'News' }, shopName: 'Sunny Shop' };
    expect(renderAltText('%blog_title% | %shop_name%', blog)).toBe('How we dye linen | Sunny Shop');
    expect(templateValues({ ...blog, item: { title: '', blogTitle: 'News' } }).blog_title).toBe('News');
  });

  it("caps alt text at Shopify's limit on a word boundary", () => {
    const alt = renderAltText('%product_title%', { ...ctxP, item: { title: 'word '.repeat(200) } });
    expect(alt.length).toBeLessThanOrEqual(ALT_TEXT_MAX);
    expect(alt.endsWith('word')).toBe(true);
  });

  it('writes alt only where the area applies, and only on blank alt with blank_replace', () => {
    const s = {
      ...defaultImageSettings().alt_text,
      switch: 1 as const,
      product: 2 as const,
      blank_replace: 0 as const,
      product_rule: '%product_title%',
    };
    expect(decideAltText(s, { ...ctxP, isPublished: true, currentAlt: 'old' })).toBe('Blue Linen Shirt');
    expect(decideAltText(s, { ...ctxP, isPublished: false, currentAlt: 'old' })).toBeNull();
    const blankOnly = { ...s, blank_replace: 1 as const };
    expect(decideAltText(blankOnly, { ...ctxP, isPublished: true, currentAlt: 'merchant alt' })).toBeNull();
    expect(decideAltText(blankOnly, { ...ctxP, isPublished: true, currentAlt: ' \u200b ' })).toBe('Blue Linen Shirt');
    expect(decideAltText({ ...s, switch: 0 }, { ...ctxP, isPublished: true, currentAlt: '' })).toBeNull();
  });

  it('slugs names: accents folded, other scripts kept, length limited', () => {
    expect(slugify('Crème Brûlée & Co. — 50% off!')).toBe('creme-brulee-co-50-off');
    expect(slugify('東京 タワー')).toBe('東京-タワー');
    expect(slugify('a'.repeat(300)).length).toBe(100);
    expect(extensionOf('https://cdn.test/files/Shirt.JPEG?v=3')).toBe('jpeg');
  });

  it('names a file by the format of its bytes: a PNG converted to JPG gets .jpg, a .jpeg stays', () => {
    expect(withFormatExtension('shirt.png', 'jpg')).toBe('shirt.jpg');
    expect(withFormatExtension('Shirt.PNG', 'jpg')).toBe('Shirt.jpg');
    expect(withFormatExtension('shirt.jpg', 'png')).toBe('shirt.png');
    expect(withFormatExtension('photo.jpeg', 'jpg')).toBe('photo.jpeg');
    expect(withFormatExtension('photo.JPG', 'jpg')).toBe('photo.JPG');
    expect(withFormatExtension('no-extension', 'jpg')).toBe('no-extension.jpg');
  });

  it('gives unique file names per item, keeps the extension, and is stable for retries', () => {
    const s = { ...defaultImageSettings().file_name, switch: 1 as const, product_rule: '%product_title%-%shop_name%' };
    const imgs = [
      { id: 12, position: 1, fileName: 'IMG_2.png' },
      { id: 11, position: 0, fileName: 'IMG_1.jpg' },
      { id: 13, position: 2, fileName: 'noext' },
    ];
    const names = decideFileNames(s, { ...ctxP, isPublished: true }, imgs);
    expect(names.get(11)).toBe('blue-linen-shirt-sunny-shop.jpg');
    expect(names.get(12)).toBe('blue-linen-shirt-sunny-shop-2.png');
    expect(names.get(13)).toBe('blue-linen-shirt-sunny-shop-3');
    expect(decideFileNames(s, { ...ctxP, isPublished: true }, [...imgs].reverse())).toEqual(names);
    const off = decideFileNames({ ...s, switch: 0 }, { ...ctxP, isPublished: true }, imgs);
    expect([...off.values()].every((v) => v === null)).toBe(true);
  });
});
