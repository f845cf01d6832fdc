import { Hono } from 'hono';
import { getStoredImageSettings } from '../db/image-settings';
import { bit } from '../lib/bit';
import { v1 } from '../lib/envelope';
import { ValidationError } from '../lib/errors';
import { readBody } from '../lib/validate';
import { fromLegacyView, namesLegacySetting, namesOnlyLegacyMode, toLegacyView } from '../settings/legacy-view';
import { saveSettings } from '../settings/save-settings';
import { isOldInstall } from '../install/old-install';
import type { AppEnv } from '../types';
import type { V1Envelope } from '../../shared/api/envelope';
import type { DashboardInit, LegacyView } from '../../shared/api/settings';

// The older dashboard settings calls, a view over the same settings store.
export const legacySettingsRoutes = new Hono<AppEnv>();

legacySettingsRoutes.get('/api/v1/getAppDashboardData', async (c) => {
  const shop = c.get('shop');
  const { settings } = await getStoredImageSettings(c.get('db'), shop.id);
  const initData: DashboardInit = {
    shop_owner: shop.domain,
    name: shop.name,
    email: shop.email,
    shop_level: shop.planLevel,
    language: shop.language,
    new_guide_status: bit(shop.setupGuidePending),
    is_old: isOldInstall(shop, c.env.SHOPIFY_SCOPES),
  };
  return c.json({
    code: '200',
    msg: 'success',
    initData,
    data: toLegacyView(settings, { domain: shop.domain, isOld: isOldInstall(shop, c.env.SHOPIFY_SCOPES) }),
  } satisfies V1Envelope<LegacyView> & { initData: DashboardInit });
});

legacySettingsRoutes.get('/api/v1/getAppSettingData', async (c) => {
  const shop = c.get('shop');
  const { settings } = await getStoredImageSettings(c.get('db'), shop.id);
  return v1<LegacyView>(c, toLegacyView(settings, { domain: shop.domain, isOld: isOldInstall(shop, c.env.SHOPIFY_SCOPES) }));
});

legacySettingsRoutes.post('/api/v1/updateAppSettingDataNew', async (c) => {
  const body = await readBody(c);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ValidationError('server.common.invalidInput');
  // Like saveSettings: a body that names nothing to change is not a save (it would mark the shop configured).
  if (!namesLegacySetting(body as Record<string, unknown>)) throw new ValidationError('server.settings.inputEmpty');
  const shop = c.get('shop');
  const db = c.get('db');
  const { settings } = await getStoredImageSettings(db, shop.id);
  // As for saveSettings: the mode alone cannot be switched before the settings were ever saved.
  if (settings.is_default === 1 && namesOnlyLegacyMode(body as Record<string, unknown>))
    throw new ValidationError('server.settings.setUpFirst');
  const next = fromLegacyView(body as Record<string, unknown>, settings);
  const saved = await saveSettings({ db, bucket: c.env.BUCKET, shopId: shop.id }, next);
  return v1<LegacyView>(c, toLegacyView(saved, { domain: shop.domain, isOld: isOldInstall(shop, c.env.SHOPIFY_SCOPES) }));
});
