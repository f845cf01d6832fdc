// Issue 21, point 5: safe defaults, unknown placeholders refused by both saves with nothing changed, and
// the live preview's sample of one real item per kind.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { defaultImageSettings, type ImageSettings } from '../../../shared/image-settings';
import type { TemplateSample } from '../../../shared/api/settings';
import * as s from '../../../worker/db/schema';
import { call, createShop, db } from '../helpers';

type Ack<T = unknown> = { ack: number; message: string; data: T; message_key?: string; params?: unknown };

const UNKNOWN = 'Unknown placeholder: %vendor%. Templates can use only the placeholders offered under the field.';

/** Everything D1 holds for the shop's settings and guide, to prove a refusal changed nothing. */
async function settingsState(shopId: number) {
  const row = await db().select().from(s.imageSettings).where(eq(s.imageSettings.shopId, shopId)).get();
  const shop = await db().select().from(s.shops).where(eq(s.shops.id, shopId)).get();
  return JSON.stringify({ row, guide: shop?.setupGuidePending });
}

async function configuredShop() {
  const created = await createShop();
  const saved = await call('/api/v2/image-opt/saveSettings', {
    method: 'POST',
    headers: created.headers,
    json: { ...defaultImageSettings(), is_default: 0 },
  });
  expect(saved.status).toBe(200);
  return created;
}

describe('safe defaults', () => {
  it('a shop that never saved reads alt text only for images without one, no renaming, manual mode', async () => {
    const { headers } = await createShop();
    const body = await (await call('/api/v2/image-opt/getSettings', { headers })).json<Ack<ImageSettings>>();
    expect(body.data).toMatchObject({
      is_default: 1,
      auto_switch: 0,
      alt_text: { switch: 1, blank_replace: 1 },
      file_name: { switch: 0 },
    });
  });
});

describe('unknown placeholders are refused at save, and nothing changes', () => {
  it('saveSettings', async () => {
    const { headers, shop } = await configuredShop();
    const before = await settingsState(shop.id);
    const res = await call('/api/v2/image-opt/saveSettings', {
      method: 'POST',
      headers,
      json: { auto_switch: 1, alt_text: { product_rule: '%product_title% by %vendor%' } },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      ack: 0,
      message: UNKNOWN,
      message_key: 'server.settings.unknownPlaceholder',
      params: { names: '%vendor%' },
    });
    expect(await settingsState(shop.id)).toBe(before);
  });

  it('updateAppSettingDataNew (the older settings view)', async () => {
    const { headers, shop } = await configuredShop();
    const before = await settingsState(shop.id);
    const res = await call('/api/v1/updateAppSettingDataNew', {
      method: 'POST',
      headers,
      form: {
        automatic_switch: '1',
        optimize_all_status: '111',
        filename_1: '1',
        product_filename_template: '%product_title% by %vendor%',
      },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: '400',
      msg: UNKNOWN,
      message_key: 'server.settings.unknownPlaceholder',
      params: { names: '%vendor%' },
    });
    expect(await settingsState(shop.id)).toBe(before);
  });

  it('saveNewGuideCfg (the wizard) keeps the guide open', async () => {
    const { headers, shop } = await createShop();
    const before = await settingsState(shop.id);
    const res = await call('/api/v1/saveNewGuideCfg', {
      method: 'POST',
      headers,
      json: {
        page5: { day_backup: 1 },
        settings: { is_default: 0, alt_text: { switch: 1, blogs_rule: '%blog_title% %vendor%' } },
      },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: '400', msg: UNKNOWN, params: { names: '%vendor%' } });
    expect(await settingsState(shop.id)).toBe(before);
  });

  it('the documented placeholders save', async () => {
    const { headers } = await configuredShop();
    const res = await call('/api/v2/image-opt/saveSettings', {
      method: 'POST',
      headers,
      json: { file_name: { switch: 1, product_rule: '100%-cotton-%product_title% by %product_vendor%' } },
    });
    expect(res.status).toBe(200);
  });
});

describe('GET /api/v2/image-opt/getTemplateSample', () => {
  async function item(shopId: number, values: Partial<typeof s.items.$inferInsert> & { dataType: number; resourceId: string }) {
    return db()
      .insert(s.items)
      .values({ shopId, ...values })
      .returning()
      .get();
  }

  it('answers nothing of a kind the shop has not synced', async () => {
    const { headers, shop } = await createShop();
    const body = await (await call('/api/v2/image-opt/getTemplateSample', { headers })).json<Ack<TemplateSample>>();
    expect(body).toMatchObject({ ack: 1, data: { shop_name: shop.name, product: null, collection: null, blogs: null } });
  });

  it('answers the first synced product still on the store, with its first image extension; reads only', async () => {
    const { headers, shop } = await createShop();
    const other = await createShop();
    await item(other.shop.id, { dataType: 1, resourceId: '1', title: 'Another shop' });
    await item(shop.id, { dataType: 1, resourceId: '10', title: 'Gone', deleted: true });
    const first = await item(shop.id, {
      dataType: 1,
      resourceId: '11',
      title: 'Astronaut Portrait Print',
      vendor: 'Orbit',
      productType: 'Poster',
      price: '49.00',
      variant: 'A3',
    });
    await item(shop.id, { dataType: 1, resourceId: '12', title: 'Later product' });
    await item(shop.id, { dataType: 3, resourceId: '30', blogId: '3', title: 'How we print', blogTitle: 'News' });
    for (const [position, fileName, originalFileName] of [
      [2, 'second.jpg', null],
      [1, 'astronaut-renamed.jpg', 'IMG_0001.PNG'],
    ] as const) {
      await db()
        .insert(s.images)
        .values({
          shopId: shop.id,
          itemId: first.id,
          imgId: `gid://shopify/MediaImage/${position}-${shop.id}`,
          position,
          fileName,
          originalFileName,
        });
    }
    const rows = JSON.stringify(await db().select().from(s.items).where(eq(s.items.shopId, shop.id)).all());
    const body = await (await call('/api/v2/image-opt/getTemplateSample', { headers })).json<Ack<TemplateSample>>();
    expect(body.data).toEqual({
      shop_name: shop.name,
      product: {
        item: {
          title: 'Astronaut Portrait Print',
          vendor: 'Orbit',
          productType: 'Poster',
          price: '49.00',
          variant: 'A3',
          blogTitle: '',
        },
        ext: 'png',
      },
      collection: null,
      blogs: { item: expect.objectContaining({ title: 'How we print', blogTitle: 'News' }), ext: '' },
    });
    expect(JSON.stringify(await db().select().from(s.items).where(eq(s.items.shopId, shop.id)).all())).toBe(rows);
  });
});
