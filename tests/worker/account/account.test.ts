import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { listContactMessages } from '../../../worker/db/contact-messages';
import { listAppSwitches } from '../../../worker/db/app-switches';
import { findShopById } from '../../../worker/db/shops';
import { LANGUAGE_CODES } from '../../../shared/languages';
import { recommendations, textFor } from '../../../worker/routes/recommendations';
import { call, createShop, db } from '../helpers';

async function post(path: string, headers: Record<string, string>, form: Record<string, string>) {
  const res = await call(path, { method: 'POST', headers, form });
  return { status: res.status, body: await res.json<Record<string, any>>() };
}

const validContact = { name: 'Ada', email: 'ada@example.com', title: 'Help', description: 'My images are not optimised.' };

describe('insertContactUs', () => {
  it.each([
    [{ name: '' }, 'Name should not be empty'],
    [{ name: '  \u00a0 ' }, 'Name should not be empty'],
    [{ email: '' }, 'Email should not be empty'],
    [{ description: '' }, 'Description should not be empty'],
    [{ email: 'not-an-email' }, 'Please enter a valid email address'],
    [{ email: 'a@b' }, 'Please enter a valid email address'],
    [{ name: '', email: '', description: '' }, 'Name should not be empty'],
  ])('refuses %o with %s', async (patch, msg) => {
    const { shop, headers } = await createShop();
    expect(await post('/api/v1/insertContactUs', headers, { ...validContact, ...patch })).toEqual({
      status: 400,
      body: { code: '400', msg, message_key: expect.any(String), params: {} },
    });
    expect(await listContactMessages(db(), shop.id)).toHaveLength(0);
  });

  it('refuses a missing field with its documented message', async () => {
    const { headers } = await createShop();
    const { name: _n, ...noName } = validContact;
    expect((await post('/api/v1/insertContactUs', headers, noName)).body.msg).toBe('Name should not be empty');
    const { description: _d, ...noDescription } = validContact;
    expect((await post('/api/v1/insertContactUs', headers, noDescription)).body.msg).toBe('Description should not be empty');
  });

  it('records a valid message, and a quota-increase request with its path and content', async () => {
    const { shop, headers } = await createShop();
    expect((await post('/api/v1/insertContactUs', headers, validContact)).body.code).toBe('200');
    const log = await post('/api/v1/insertContactLog', headers, {
      path: '/image_optimisation',
      content: 'Please allow 500 more images this month',
    });
    expect(log.body.code).toBe('200');
    expect((await post('/api/v1/insertContactLog', headers, { path: '/pricing', content: '' })).body.msg).toBe(
      'Description should not be empty',
    );
    const rows = await listContactMessages(db(), shop.id);
    expect(rows.map((r) => [r.kind, r.name, r.email, r.description, r.path])).toEqual([
      ['contact', 'Ada', 'ada@example.com', 'My images are not optimised.', ''],
      ['quota_request', shop.name, shop.email, 'Please allow 500 more images this month', '/image_optimisation'],
    ]);
    // Another shop never sees them.
    const other = await createShop();
    expect(await listContactMessages(db(), other.shop.id)).toHaveLength(0);
  });
});

describe('language', () => {
  it('reads and saves each of the 21 codes under the Language field, refusing others', async () => {
    const { shop, headers } = await createShop({ language: 'ge' });
    expect(await (await call('/api/v1/getSelectLanguage', { headers })).json()).toMatchObject({ code: '200', language: 'ge' });
    expect(LANGUAGE_CODES).toHaveLength(21);
    for (const code of LANGUAGE_CODES) {
      const { body } = await post('/api/v1/updateLanguage', headers, { Language: code });
      expect(body.code).toBe('200');
      // The documented msg, with its catalogue key: the admin's toast shows it in the chosen language.
      expect(body).toMatchObject({ msg: 'Language updated', message_key: 'server.account.languageUpdated' });
      expect((await findShopById(db(), shop.id))?.language).toBe(code);
    }
    expect(await post('/api/v1/updateLanguage', headers, { Language: 'de' })).toEqual({
      status: 400,
      body: { code: '400', msg: 'Unsupported language', message_key: 'server.account.unsupportedLanguage', params: {} },
    });
    expect((await post('/api/v1/updateLanguage', headers, {})).body.msg).toBe('Unsupported language');
    expect((await findShopById(db(), shop.id))?.language).toBe('in');
  });
});

describe('account info', () => {
  it('getThisUserEmail answers the shop email and owner name', async () => {
    const { headers } = await createShop({ email: 'me@shop.example', ownerName: 'Mia Owner' });
    expect(await (await call('/api/v1/getThisUserEmail', { headers })).json()).toEqual({
      code: '200',
      msg: 'success',
      data: { email: 'me@shop.example', name: 'Mia Owner' },
    });
  });

  it('getSettingInfo carries the documented fields', async () => {
    const { shop, headers } = await createShop({ planLevel: 3, language: 'ja' });
    const body = await (await call('/api/v1/getSettingInfo', { headers })).json<{ data: Record<string, unknown> }>();
    expect(body.data).toMatchObject({
      shop_owner: shop.domain,
      email: shop.email,
      user_id: shop.id,
      shop_level: 3,
      review_tips: 1,
      new_guide_status: 1,
      is_old: 0,
      language: 'ja',
      app_switch: [],
    });
  });
});

describe('is_old: a missing access scope', () => {
  const info = async (headers: Record<string, string>) =>
    (await (await call('/api/v1/getSettingInfo', { headers })).json<{ data: { is_old: number } }>()).data.is_old;
  const dashboard = async (headers: Record<string, string>) =>
    await (
      await call('/api/v1/getAppDashboardData', { headers })
    ).json<{ initData: { is_old: number }; data: { idOld: number } }>();

  it('is 1 while the stored grant lacks a scope the product needs, 0 once every scope is granted', async () => {
    const lacking = await createShop({ scopes: 'read_products,write_products' });
    expect(await info(lacking.headers)).toBe(1);
    expect(await dashboard(lacking.headers)).toMatchObject({ initData: { is_old: 1 }, data: { idOld: 1 } });
    const full = await createShop({ scopes: env.SHOPIFY_SCOPES });
    expect(await info(full.headers)).toBe(0);
    expect((await dashboard(full.headers)).data.idOld).toBe(0);
  });

  it('an install flagged old stays old until re-authorised', async () => {
    const { headers } = await createShop({ oldInstall: true, scopes: env.SHOPIFY_SCOPES });
    expect(await info(headers)).toBe(1);
  });
});

describe('reviewTipsClick', () => {
  it('accepts 0 (Dismiss) to 5, records the score and clears review_tips', async () => {
    for (const score of [0, 1, 4, 5]) {
      const { shop, headers } = await createShop();
      expect((await post('/api/v1/reviewTipsClick', headers, { score: String(score) })).body.code).toBe('200');
      expect(await findShopById(db(), shop.id)).toMatchObject({ showReviewRequest: false, reviewScore: score });
    }
  });

  it.each(['6', '-1', '2.5', 'x', ''])('refuses score %s', async (score) => {
    const { shop, headers } = await createShop();
    expect(await post('/api/v1/reviewTipsClick', headers, { score })).toEqual({
      status: 400,
      body: {
        code: '400',
        msg: 'Score must be a whole number from 0 to 5',
        message_key: 'server.account.scoreRange',
        params: {},
      },
    });
    expect((await findShopById(db(), shop.id))?.showReviewRequest).toBe(true);
  });
});

describe('saveAppSwitch extra_adver and user selections', () => {
  it('stores extra_adver st 1 exp 0 and shows it in settingInfo', async () => {
    const { shop, headers } = await createShop();
    const res = await post('/api/v2/setting/saveAppSwitch', headers, { name: 'extra_adver', st: '1', exp: '0', type: 'param' });
    expect(res.body).toMatchObject({ ack: 1, data: { name: 'extra_adver', st: 1, exp: 0 } });
    expect((await listAppSwitches(db(), shop.id)).map((s) => [s.name, s.state, s.expiry])).toEqual([['extra_adver', 1, 0]]);
    expect(await post('/api/v2/setting/saveAppSwitch', headers, { name: 'other', st: '1', exp: '0', type: 'param' })).toEqual({
      status: 400,
      body: { ack: 0, message: 'Unknown switch', message_key: 'server.account.unknownSwitch', params: {} },
    });
    expect(
      (await post('/api/v2/setting/saveAppSwitch', headers, { name: 'extra_adver', st: '2', exp: '0', type: 'param' })).body
        .message,
    ).toBe('st must be 0 or 1');
  });

  it('keeps the merchant’s UI choices per shop', async () => {
    const { headers } = await createShop();
    await post('/api/v1/updateCustomerClick', headers, { key: 'promo_banner_closed', value: '1' });
    await post('/api/v1/updateCustomerClick', headers, { key: 'video_card', value: 'dismissed' });
    await post('/api/v1/updateCustomerClick', headers, { key: 'video_card', value: 'watched' });
    expect((await post('/api/v1/updateCustomerClick', headers, { key: 'bad key!' })).body.msg).toBe('Invalid key');
    const data = await (await call('/api/v1/getUserSelectData', { headers })).json<{ data: Record<string, string> }>();
    expect(data.data).toEqual({ promo_banner_closed: '1', video_card: 'watched' });
    const other = await createShop();
    expect((await (await call('/api/v1/getUserSelectData', { headers: other.headers })).json<{ data: unknown }>()).data).toEqual(
      {},
    );
  });
});

describe('getRecommendedApps', () => {
  it('builds the iframe URL from the shop domain, app id and base64url {email}, and lists the partner apps', async () => {
    const { shop, headers } = await createShop({ email: 'owner+x@shop.example' });
    const body = await (
      await call('/api/v1/getRecommendedApps', { headers })
    ).json<{ code: string; data: { iframe: { url: string }; apps: Record<string, unknown>[] } }>();
    expect(body.code).toBe('200');
    const url = new URL(body.data.iframe.url);
    expect(url.searchParams.get('shop')).toBe(shop.domain);
    expect(url.searchParams.get('app_id')).toBe('test-api-key');
    const user = url.searchParams.get('user')!;
    expect(user).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(atob(user.replace(/-/g, '+').replace(/_/g, '/')))).toEqual({ email: 'owner+x@shop.example' });
    expect(body.data.apps).toHaveLength(5);
    expect(body.data.apps.filter((a) => a.free).map((a) => a.name)).toEqual(['Trust Badges']);
    for (const app of body.data.apps)
      expect(Object.keys(app).sort()).toEqual(['description', 'free', 'name', 'rating', 'review_count', 'url']);
  });

  it("answers tab titles and app descriptions in the shop's language; the configuration has all 21", async () => {
    const { headers } = await createShop({ language: 'ge' });
    const body = await (
      await call('/api/v1/getRecommendedApps', { headers })
    ).json<{ data: { iframe: { title: string }; partner: { title: string }; apps: { description: string }[] } }>();
    expect(body.data.iframe.title).toBe('Von channelwill');
    expect(body.data.apps[2]?.description).toBe('Findet defekte Links und leitet sie auf die richtige Seite um');
    const texts = [recommendations.iframeTitle, recommendations.partnerTitle, ...recommendations.apps.map((a) => a.description)];
    for (const text of texts) {
      expect(typeof text).toBe('object');
      expect(Object.keys(text).sort()).toEqual([...LANGUAGE_CODES].sort());
      const en = textFor(text, 'en');
      // No English left in another language (brand names aside, every text differs from English).
      for (const code of LANGUAGE_CODES.filter((c) => c !== 'en')) expect(textFor(text, code), `${code}: ${en}`).not.toBe(en);
    }
    expect(textFor({ en: 'Hello', fr: 'Bonjour' }, 'ja')).toBe('Hello');
  });
});
