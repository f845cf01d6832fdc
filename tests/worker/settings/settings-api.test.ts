import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  MSG_INPUT_EMPTY,
  MSG_NEED_ONE_ITEM,
  MSG_WATERMARK_REQUIRED,
  MSG_WATERMARK_TOO_LARGE,
  MSG_WATERMARK_TYPE,
  defaultImageSettings,
  type ImageSettings,
} from '../../../shared/image-settings';
import { getImageSettings } from '../../../worker/db/image-settings';
import { imageSettings, shops } from '../../../worker/db/schema';
import { call, createShop, db } from '../helpers';
import { PNG_1X1_BASE64, pngOfSize } from './fixtures';

type Ack<T = unknown> = { ack: number; message: string; data: T };

async function save(headers: Record<string, string>, json: unknown) {
  const res = await call('/api/v2/image-opt/saveSettings', { method: 'POST', headers, json });
  return { status: res.status, body: await res.json<Ack<ImageSettings>>() };
}

describe('getSettings / saveSettings', () => {
  it('answers the defaults with is_default 1 until the first save', async () => {
    const { headers, shop } = await createShop();
    const res = await call('/api/v2/image-opt/getSettings', { headers });
    const body = await res.json<Ack<ImageSettings>>();
    expect(body.ack).toBe(1);
    expect(body.data).toEqual(defaultImageSettings());
    const saved = await save(headers, { auto_switch: 1, image_opt: { product: 1 } });
    expect(saved.body.ack).toBe(1);
    expect(saved.body.data.is_default).toBe(0);
    expect((await getImageSettings(db(), shop.id)).auto_switch).toBe(1);
  });

  it('automatic mode alone cannot be switched before the settings exist (section 4): refused, nothing saved', async () => {
    const { headers, shop } = await createShop();
    const refusal = {
      message: 'Finish the image settings first: automatic optimization can be switched once they are saved.',
      message_key: 'server.settings.setUpFirst',
      params: {},
    };
    const res = await save(headers, { auto_switch: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ ack: 0, ...refusal });
    // The older settings call, naming only automatic_switch, likewise.
    const legacy = await call('/api/v1/updateAppSettingDataNew', { method: 'POST', headers, form: { automatic_switch: '1' } });
    expect(legacy.status).toBe(400);
    const { message, ...keyed } = refusal;
    expect(await legacy.json()).toEqual({ code: '400', msg: message, ...keyed });
    expect(await db().select().from(imageSettings).where(eq(imageSettings.shopId, shop.id)).get()).toBeUndefined();
    // Chosen together with the settings, or once they are saved, it switches.
    expect((await save(headers, { auto_switch: 1, image_opt: { product: 2 } })).body.data).toMatchObject({
      is_default: 0,
      auto_switch: 1,
    });
    expect((await save(headers, { auto_switch: 0 })).body.data.auto_switch).toBe(0);
  });

  it('saves the full shape and reads it back', async () => {
    const { headers } = await createShop();
    const s = defaultImageSettings();
    s.auto_switch = 1;
    s.image_opt = {
      ...s.image_opt,
      product: 2,
      collection: 0,
      pngtojpg: 1,
      quality: { custom: 1, lossless: 0, level: 3, custom_ratio: 62 },
    };
    s.alt_text = { ...s.alt_text, switch: 1, product: 2, blank_replace: 1, product_rule: '%product_title% %price%' };
    expect((await save(headers, s)).status).toBe(200);
    const back = await (await call('/api/v2/image-opt/getSettings', { headers })).json<Ack<ImageSettings>>();
    expect(back.data).toEqual({ ...s, is_default: 0 });
  });

  it.each([
    [{ image_opt: { product: 0, collection: 0, blogs: 0 } }, MSG_NEED_ONE_ITEM],
    [{ file_name: { switch: 1, product: 0, collection: 0, blogs: 0 } }, MSG_NEED_ONE_ITEM],
    [{ alt_text: { switch: 1, blogs_rule: ' \u200b ' } }, MSG_INPUT_EMPTY],
    [{ image_opt: { watermark: { switch: 1 } } }, MSG_WATERMARK_REQUIRED],
    [{ image_opt: { watermark: { switch: 1, file_data: pngOfSize(512001), file_name: 'w.png' } } }, MSG_WATERMARK_TOO_LARGE],
    [{ image_opt: { watermark: { switch: 1, file_data: PNG_1X1_BASE64, file_name: 'w.bmp' } } }, MSG_WATERMARK_TYPE],
  ])('refuses %j with the documented message and saves nothing', async (patch, message) => {
    const { headers, shop } = await createShop();
    const res = await save(headers, patch);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ ack: 0, message, message_key: expect.any(String), params: {} });
    expect(await db().select().from(imageSettings).where(eq(imageSettings.shopId, shop.id)).get()).toBeUndefined();
  });

  it('stores a watermark picture in R2 and serves it at /imageAddWatermark/<stored name>', async () => {
    const { headers, shop } = await createShop();
    const res = await save(headers, {
      image_opt: {
        watermark: { switch: 1, file_data: `data:image/png;base64,${PNG_1X1_BASE64}`, file_name: 'logo.png', position: 'c' },
      },
    });
    expect(res.status).toBe(200);
    const logo = res.body.data.image_opt.watermark.logo;
    expect(logo).toMatch(new RegExp(`^${shop.id}-\\w+\\.png$`));
    expect(res.body.data.image_opt.watermark).not.toHaveProperty('file_data');
    const img = await call(`/imageAddWatermark/${logo}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('Content-Type')).toBe('image/png');
    expect(new Uint8Array(await img.arrayBuffer())).toEqual(Uint8Array.from(atob(PNG_1X1_BASE64), (ch) => ch.charCodeAt(0)));
    expect((await call(`/imageAddWatermark/${shop.id}-doesnotexistdoesnotexist.png`)).status).toBe(404);

    // Saving again keeps the stored picture; a new picture replaces (and deletes) the old one.
    expect((await save(headers, { auto_switch: 1 })).body.data.image_opt.watermark.logo).toBe(logo);
    const again = await save(headers, { image_opt: { watermark: { file_data: PNG_1X1_BASE64, file_name: 'b.png' } } });
    expect(again.body.data.image_opt.watermark.logo).not.toBe(logo);
    expect((await call(`/imageAddWatermark/${logo}`)).status).toBe(404);
    const objects = await env.BUCKET.list({ prefix: `watermarks/${shop.id}/` });
    expect(objects.objects).toHaveLength(1);
  });

  it('saveNewGuideCfg saves the wizard settings, the backup consent, and clears the guide flag', async () => {
    const { headers, shop } = await createShop();
    expect(shop.setupGuidePending).toBe(true);
    const res = await call('/api/v1/saveNewGuideCfg', {
      method: 'POST',
      headers,
      json: {
        page5: { day_backup: 1 },
        settings: {
          image_opt: { product: 1, collection: 0, blogs: 1, pngtojpg: 1 },
          alt_text: {
            switch: 1,
            product: 2,
            collection: 1,
            blogs: 0,
            product_rule: '%product_title%-%shop_name%',
            collection_rule: '%collection_title%-%shop_name%',
            blogs_rule: '',
          },
          file_name: { switch: 0, product: 0, collection: 0, blogs: 0, product_rule: '', collection_rule: '', blogs_rule: '' },
          auto_switch: 1,
          is_default: 1,
        },
      },
    });
    const body = await res.json<Ack<ImageSettings> & { code: string }>();
    expect(body.ack).toBe(1);
    expect(body.code).toBe('200');
    expect(body.data.is_default).toBe(0);
    expect(body.data.image_opt.pngtojpg).toBe(1);
    expect(body.data.alt_text.product).toBe(2);
    const row = await db().select().from(imageSettings).where(eq(imageSettings.shopId, shop.id)).get();
    expect(row?.backupConsent).toBe(true);
    expect((await db().select().from(shops).where(eq(shops.id, shop.id)).get())?.setupGuidePending).toBe(false);
  });

  it('saveNewGuideCfg with every image type unticked (compression off, as the wizard sends it) succeeds and closes the guide', async () => {
    const { headers, shop } = await createShop();
    const wizard = {
      page5: { day_backup: 1 },
      settings: { image_opt: { switch: 0, product: 0, collection: 0, blogs: 0 }, auto_switch: 1, is_default: 0 },
    };
    const res = await call('/api/v1/saveNewGuideCfg', { method: 'POST', headers, json: wizard });
    expect(res.status).toBe(200);
    expect((await res.json<Ack<ImageSettings>>()).data.image_opt).toMatchObject({
      switch: 0,
      product: 0,
      collection: 0,
      blogs: 0,
    });
    expect((await db().select().from(shops).where(eq(shops.id, shop.id)).get())?.setupGuidePending).toBe(false);
    // With compression left on, the same choice is the documented refusal (what the wizard used to send).
    const other = await createShop();
    const refused = await call('/api/v1/saveNewGuideCfg', {
      method: 'POST',
      headers: other.headers,
      json: { ...wizard, settings: { ...wizard.settings, image_opt: { switch: 1, product: 0, collection: 0, blogs: 0 } } },
    });
    expect(refused.status).toBe(400);
  });

  it('saveNewGuideCfg with the documented payload (image types, no switch) all unticked is compression off', async () => {
    const { headers, shop } = await createShop();
    // page-speed-and-app.md section 3: "image_opt {product, collection, blogs, pngtojpg, each 0 or 1}".
    const documented = {
      page5: { day_backup: 1 },
      settings: {
        image_opt: { product: 0, collection: 0, blogs: 0, pngtojpg: 0 },
        alt_text: { switch: 0, product: 0, collection: 0, blogs: 0, product_rule: '', collection_rule: '', blogs_rule: '' },
        file_name: { switch: 0, product: 0, collection: 0, blogs: 0, product_rule: '', collection_rule: '', blogs_rule: '' },
        auto_switch: 0,
        is_default: 1,
      },
    };
    const res = await call('/api/v1/saveNewGuideCfg', { method: 'POST', headers, json: documented });
    expect(res.status).toBe(200);
    expect((await res.json<Ack<ImageSettings>>()).data.image_opt).toMatchObject({
      switch: 0,
      product: 0,
      collection: 0,
      blogs: 0,
    });
    expect((await db().select().from(shops).where(eq(shops.id, shop.id)).get())?.setupGuidePending).toBe(false);
    // Ticking a type again (the same payload shape) turns compression back on.
    const ticked = {
      ...documented,
      settings: { ...documented.settings, image_opt: { product: 0, collection: 1, blogs: 0, pngtojpg: 0 } },
    };
    const again = await call('/api/v1/saveNewGuideCfg', { method: 'POST', headers, json: ticked });
    expect((await again.json<Ack<ImageSettings>>()).data.image_opt).toMatchObject({ switch: 1, collection: 1 });
  });

  it('saveNewGuideCfg with an empty template fails and keeps the guide open', async () => {
    const { headers, shop } = await createShop();
    const res = await call('/api/v1/saveNewGuideCfg', {
      method: 'POST',
      headers,
      json: { page5: { day_backup: 1 }, settings: { alt_text: { switch: 1, product_rule: '' } } },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: '400',
      msg: MSG_INPUT_EMPTY,
      message_key: 'server.settings.inputEmpty',
      params: {},
    });
    expect((await db().select().from(shops).where(eq(shops.id, shop.id)).get())?.setupGuidePending).toBe(true);
  });

  it('one shop never sees another shop’s settings', async () => {
    const a = await createShop();
    const b = await createShop();
    await save(a.headers, { auto_switch: 1, image_opt: { product: 1 } });
    const other = await (await call('/api/v2/image-opt/getSettings', { headers: b.headers })).json<Ack<ImageSettings>>();
    expect(other.data.is_default).toBe(1);
    expect(other.data.auto_switch).toBe(0);
  });
});
