// saveAppSwitch: the overcharge switch (is_over_quota) and the
// partner-ad switch (extra_adver). Overcharge can be switched on only with a paid plan (level > 0) whose
// subscription has a usage cap (is_capped); switching it off is always allowed.
import { setOverQuota } from '../db/shop-billing';
import { upsertAppSwitch } from '../db/app-switches';
import type { Db } from '../db/client';
import { findShopById, type ShopRow } from '../db/shops';
import { bit } from '../lib/bit';
import { ValidationError } from '../lib/errors';

export type AppSwitchInput = { name: 'is_over_quota' | 'extra_adver'; st: 0 | 1; exp: number };

export async function saveAppSwitch(db: Db, shop: ShopRow, input: AppSwitchInput, now = Date.now()) {
  if (input.name === 'is_over_quota') {
    if (input.st === 1 && (shop.planLevel <= 0 || !shop.hasUsageCap))
      throw new ValidationError('server.billing.overchargeNeedsCappedPlan');
    await setOverQuota(db, shop.id, input.st === 1);
  } else {
    await upsertAppSwitch(db, shop.id, input.name, input.st, input.exp, now);
  }
  const fresh = (await findShopById(db, shop.id)) ?? shop;
  return {
    name: input.name,
    st: input.st,
    exp: input.exp,
    is_over_quota: bit(fresh.overageEnabled),
    is_capped: bit(fresh.hasUsageCap),
  };
}
