import { Hono } from 'hono';
import { listAppSwitches } from '../db/app-switches';
import { v1 } from '../lib/envelope';
import type { AppEnv } from '../types';

// /api/v1 and /api/v2/setting account calls: language, email, contact, review, switches, UI selections.
// Extended by issue #7.
export const accountRoutes = new Hono<AppEnv>();

/** settingInfo: what every admin screen needs to know about the shop (page-speed-and-app.md section 3). */
accountRoutes.get('/api/v1/getSettingInfo', async (c) => {
  const shop = c.get('shop');
  const switches = await listAppSwitches(c.get('db'), shop.id);
  return v1(c, {
    shop_owner: shop.domain,
    shopname: shop.name,
    name: shop.ownerName || shop.name,
    email: shop.email,
    user_id: shop.id,
    shop_level: shop.planLevel,
    shopify_level: shop.shopifyPlan,
    review: shop.reviewScore ?? 0,
    review_tips: shop.reviewTips,
    is_old: shop.isOld,
    language: shop.language,
    new_guide_status: shop.newGuideStatus,
    app_switch: switches.map((s) => ({ name: s.name, st: s.st, at: s.at, exp: s.exp })),
  });
});
