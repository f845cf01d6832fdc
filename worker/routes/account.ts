import { Hono } from 'hono';
import { saveAppSwitch } from '../billing/app-switch';
import { insertContactMessage } from '../db/contact-messages';
import { listUserSelections, recordUserSelection } from '../db/user-selections';
import { recordReviewScore } from '../db/review-scores';
import { setShopLanguage } from '../db/shops';
import { listAppSwitches } from '../db/app-switches';
import { bit } from '../lib/bit';
import { ack, v1 } from '../lib/envelope';
import { AuthError } from '../lib/errors';
import { shopBaseUrl } from '../shopify';
import { parseInput, readBody } from '../lib/validate';
import { isLanguageCode } from '../../shared/languages';
import { isOldInstall } from '../install/old-install';
import type { AppEnv } from '../types';
import type {
  AccountInfo,
  AppSwitchSaved,
  ContactSaved,
  CustomerClickSaved,
  LanguageAnswer,
  ReviewSaved,
  SettingInfo,
  UserEmail,
  UserSelections,
} from '../../shared/api/account';
import type { V1Envelope } from '../../shared/api/envelope';
import { english } from '../../shared/messages';
import {
  contactLogInput,
  contactUsInput,
  customerClickInput,
  languageInput,
  reviewInput,
  appSwitchInput,
} from './account-inputs';

// /api/v1 and /api/v2/setting account calls: language, email, contact, review, switches, UI selections.
export const accountRoutes = new Hono<AppEnv>();

/** settingInfo: what every admin screen needs to know about the shop. */
accountRoutes.get('/api/v1/getSettingInfo', async (c) => {
  const shop = c.get('shop');
  const switches = await listAppSwitches(c.get('db'), shop.id);
  return v1<SettingInfo>(c, {
    shop_owner: shop.domain,
    shopname: shop.name,
    name: shop.ownerName || shop.name,
    email: shop.email,
    user_id: shop.id,
    shop_level: shop.planLevel,
    shopify_level: shop.shopifyPlan,
    review: shop.reviewScore ?? 0,
    review_tips: bit(shop.showReviewRequest),
    is_old: isOldInstall(shop, c.env.SHOPIFY_SCOPES),
    language: shop.language,
    new_guide_status: bit(shop.setupGuidePending),
    app_switch: switches.map((s) => ({ name: s.name, st: s.state, at: s.savedAt, exp: s.expiry })),
    // The app's page in the shop's Shopify admin (Shopify forwards it into the admin): where money
    // decisions are made when the app is open outside the admin.
    admin_url: `${shopBaseUrl(c.env, shop.domain)}/admin/apps/${c.env.SHOPIFY_API_KEY}`,
  });
});

accountRoutes.get('/api/v2/setting/getAccount', (c) => {
  const shop = c.get('shop');
  return ack<AccountInfo>(c, {
    is_over_quota: bit(shop.overageEnabled),
    is_capped: bit(shop.hasUsageCap),
    shop_level: shop.planLevel,
    capped_amount: shop.cappedAmountCents / 100,
  });
});

accountRoutes.post('/api/v2/setting/saveAppSwitch', async (c) => {
  const input = parseInput(appSwitchInput, await readBody(c));
  // Switching overcharge on lets Shopify bill usage charges: like a plan change, only the merchant in
  // Shopify's admin (a session token) may do it. Switching it off spends nothing and works with either.
  if (input.name === 'is_over_quota' && input.st === 1 && c.get('auth')?.kind !== 'session')
    throw new AuthError('server.auth.sessionTokenRequired');
  return ack<AppSwitchSaved>(c, await saveAppSwitch(c.get('db'), c.get('shop'), input));
});

accountRoutes.get('/api/v1/getSelectLanguage', (c) => {
  const language = isLanguageCode(c.get('shop').language) ? c.get('shop').language : 'en';
  return c.json({ code: '200', msg: 'success', language, data: { language } } satisfies V1Envelope<LanguageAnswer> &
    LanguageAnswer);
});

accountRoutes.post('/api/v1/updateLanguage', async (c) => {
  const { Language } = parseInput(languageInput, await readBody(c));
  await setShopLanguage(c.get('db'), c.get('shop').id, Language);
  return c.json({
    code: '200',
    msg: english('server.account.languageUpdated'),
    message_key: 'server.account.languageUpdated',
    params: {},
    language: Language,
    data: { language: Language },
  } satisfies V1Envelope<LanguageAnswer> & LanguageAnswer);
});

accountRoutes.get('/api/v1/getThisUserEmail', (c) => {
  const shop = c.get('shop');
  return v1<UserEmail>(c, { email: shop.email, name: shop.ownerName || shop.name });
});

/** Contact form and feedback; quota-increase requests come with the path they were made from. */
accountRoutes.post('/api/v1/insertContactUs', async (c) => {
  const input = parseInput(contactUsInput, await readBody(c));
  const id = await insertContactMessage(c.get('db'), { shopId: c.get('shop').id, ...input });
  return v1<ContactSaved>(c, { id });
});

/** The "contact support" log of quota-increase requests: path and content. */
accountRoutes.post('/api/v1/insertContactLog', async (c) => {
  const { path, content } = parseInput(contactLogInput, await readBody(c));
  const shop = c.get('shop');
  const id = await insertContactMessage(c.get('db'), {
    shopId: shop.id,
    kind: 'quota_request',
    name: shop.ownerName || shop.name,
    email: shop.email,
    title: 'Quota increase request',
    description: content,
    path,
  });
  return v1<ContactSaved>(c, { id });
});

/** Review score 1-5, or 0 for Dismiss; either way the review prompt is not shown again. */
accountRoutes.post('/api/v1/reviewTipsClick', async (c) => {
  const { score } = parseInput(reviewInput, await readBody(c));
  await recordReviewScore(c.get('db'), c.get('shop').id, score);
  return v1<ReviewSaved>(c, { score, review_tips: 0 });
});

/** The merchant's UI choices (closed banners, video card, promo): key -> latest value. */
accountRoutes.get('/api/v1/getUserSelectData', async (c) => {
  const rows = await listUserSelections(c.get('db'), c.get('shop').id);
  return v1<UserSelections>(c, Object.fromEntries(rows.map((r) => [r.key, r.value])));
});

accountRoutes.post('/api/v1/updateCustomerClick', async (c) => {
  const { key, value } = parseInput(customerClickInput, await readBody(c));
  await recordUserSelection(c.get('db'), c.get('shop').id, key, value);
  return v1<CustomerClickSaved>(c, { key, value });
});
