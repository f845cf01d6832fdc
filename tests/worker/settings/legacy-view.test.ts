import { describe, expect, it } from 'vitest';
import { defaultImageSettings, MSG_NEED_ONE_ITEM, type ImageSettings } from '../../../shared/image-settings';
import { getImageSettings } from '../../../worker/db/image-settings';
import { fromLegacyView, toLegacyView } from '../../../worker/settings/legacy-view';
import { call, createShop, db } from '../helpers';

const shop = { domain: 'acme.myshopify.com', isOld: 1 };
const roundTrip = (form: Record<string, unknown>, base = defaultImageSettings()) => fromLegacyView(form, base) as ImageSettings;

describe('legacy dashboard view: settings -> view', () => {
  it('maps area codes 1, 2, 4, 5, 4_5, 6, the three-digit status and the rest', () => {
    const s = defaultImageSettings();
    s.image_opt = { ...s.image_opt, switch: 1, product: 2, collection: 1, blogs: 0, pngtojpg: 1 };
    s.alt_text = { ...s.alt_text, switch: 1, product: 1, collection: 0, blogs: 1, blank_replace: 1 };
    s.file_name = { ...s.file_name, switch: 0 };
    s.image_opt.watermark = { ...s.image_opt.watermark, switch: 1, image_height: 0.35, logo: '1-abcdefabcdefabcdef.png' };
    const v = toLegacyView(s, shop);
    expect(v).toMatchObject({ optimize_1: 0, optimize_2: 1, optimize_4: 1, optimize_5: 1, optimize_4_5: 1, optimize_6: 0 });
    expect(v).toMatchObject({ alt_1: 1, alt_2: 0, alt_4: 0, alt_5: 0, alt_4_5: 0, alt_6: 1 });
    expect(v.optimize_all_status).toBe('011'); // file name, alt text, optimize images
    expect(v).toMatchObject({
      shop_owner: 'acme.myshopify.com',
      name: 'acme.myshopify.com',
      idOld: 1,
      is_first: 1,
      image_converting: 1,
      imageAltText_NoAlt: 1,
    });
    expect(v).toMatchObject({
      image_add_watermark_switch: 1,
      image_add_watermark_img: '/imageAddWatermark/1-abcdefabcdefabcdef.png',
      size: 35,
      compression_type: 'lossy',
      JPGquality: 75,
    });
  });
});

describe('legacy dashboard view: view -> settings', () => {
  it('1 and 2 are exclusive product scopes; 0 for neither', () => {
    expect(roundTrip({ optimize_1: '1', optimize_2: '0' }).image_opt.product).toBe(1);
    expect(roundTrip({ optimize_1: '0', optimize_2: '1' }).image_opt.product).toBe(2);
    expect(roundTrip({ alt_1: '0', alt_2: '0' }).alt_text.product).toBe(0);
  });

  it('4_5 sets the collection flag (both 4 and 5); 4 or 5 alone also count; 6 is blogs', () => {
    const base = defaultImageSettings();
    base.file_name.collection = 0;
    expect(roundTrip({ filename_4_5: '1' }, base).file_name.collection).toBe(1);
    expect(roundTrip({ optimize_4_5: '0' }).image_opt.collection).toBe(0);
    expect(roundTrip({ optimize_4: '0', optimize_5: '1' }).image_opt.collection).toBe(1);
    expect(toLegacyView(roundTrip({ optimize_4_5: '1' }), shop)).toMatchObject({ optimize_4: 1, optimize_5: 1 });
    expect(roundTrip({ alt_6: '0' }).alt_text.blogs).toBe(0);
  });

  it('optimize_all_status digits switch file name, alt text, optimize images', () => {
    const s = roundTrip({ optimize_all_status: '110' });
    expect([s.file_name.switch, s.alt_text.switch, s.image_opt.switch]).toEqual([1, 1, 0]);
  });

  it('compression type, quality, watermark size and templates', () => {
    expect(roundTrip({ compression_type: 'lossy', JPGquality: '90' }).image_opt.quality).toMatchObject({
      lossless: 0,
      custom: 0,
      level: 1,
    });
    expect(roundTrip({ compression_type: 'custom', CustomCompressionQuality: '80' }).image_opt.quality).toMatchObject({
      custom: 1,
      custom_ratio: 80,
    });
    expect(roundTrip({ compression_type: 'lossless' }).image_opt.quality.lossless).toBe(1);
    expect(roundTrip({ size: '7' }).image_opt.watermark.image_height).toBe(0.07);
    expect(roundTrip({ product_alt_template: '%product_title%', blog_filename_template: '%blog_title%' })).toMatchObject({
      alt_text: { product_rule: '%product_title%' },
      file_name: { blogs_rule: '%blog_title%' },
    });
  });

  it('the view of any settings maps back to the same settings', () => {
    const s = defaultImageSettings();
    s.image_opt = {
      ...s.image_opt,
      product: 2,
      blogs: 0,
      pngtojpg: 1,
      pngtojpg_size_control: 0,
      resize_long_side: 2880,
      quality: { custom: 1, lossless: 0, level: 3, custom_ratio: 58 },
    };
    s.alt_text = { ...s.alt_text, switch: 1, collection: 0, product_rule: 'x %price%' };
    s.file_name = { ...s.file_name, switch: 1, product: 0, blogs_rule: 'b' };
    const view = toLegacyView(s, shop) as Record<string, unknown>;
    expect(fromLegacyView(view, defaultImageSettings())).toEqual(s);
  });
});

describe('legacy calls over the same store', () => {
  it('updateAppSettingDataNew saves through the same validation; getAppSettingData and getImageSettings agree', async () => {
    const { headers, shop: row } = await createShop();
    const bad = await call('/api/v1/updateAppSettingDataNew', {
      method: 'POST',
      headers,
      form: { optimize_all_status: '001', optimize_1: '0', optimize_2: '0', optimize_4_5: '0', optimize_6: '0' },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      code: '400',
      msg: MSG_NEED_ONE_ITEM,
      message_key: 'server.settings.needOneItem',
      params: {},
    });

    const ok = await call('/api/v1/updateAppSettingDataNew', {
      method: 'POST',
      headers,
      form: {
        automatic_switch: '1',
        optimize_2: '1',
        optimize_1: '0',
        optimize_4_5: '0',
        alt_1: '1',
        optimize_all_status: '011',
      },
    });
    expect((await ok.json<{ code: string }>()).code).toBe('200');
    const s = await getImageSettings(db(), row.id);
    expect(s).toMatchObject({
      auto_switch: 1,
      is_default: 0,
      image_opt: { product: 2, collection: 0 },
      alt_text: { switch: 1, product: 1 },
    });

    const view = await (
      await call('/api/v1/getAppSettingData', { headers })
    ).json<{ code: string; data: Record<string, unknown> }>();
    expect(view.code).toBe('200');
    expect(view.data).toMatchObject({
      automatic_switch: 1,
      optimize_2: 1,
      optimize_4_5: 0,
      optimize_all_status: '011',
      is_first: 0,
      shop_owner: row.domain,
    });

    const dash = await (
      await call('/api/v1/getAppDashboardData', { headers })
    ).json<{ code: string; initData: Record<string, unknown>; data: Record<string, unknown> }>();
    expect(dash.code).toBe('200');
    expect(dash.initData).toMatchObject({ shop_owner: row.domain });
    expect(dash.data).toEqual(view.data);
  });
});
