// Issue 25: abuse, round two (quotas, allowances, re-authorisation and money actions). One block per item;
// each assertion failed before its change. Numbers come from worker/lib/limits.ts.
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { quotaStatus } from '../../../worker/billing';
import { currentPeriodStart } from '../../../worker/billing/cycle';
import { canDiscount } from '../../../worker/billing/discount';
import { redactedShops, usageLedger } from '../../../worker/db/schema';
import { findShopByDomain } from '../../../worker/db/shops';
import { completeInstall } from '../../../worker/install/install';
import { createLogger } from '../../../worker/lib/log';
import { handlers, SHOP_REDACT_AFTER_MS } from '../../../worker/webhooks/handlers';
import { createShop, db } from '../helpers';

afterEach(() => vi.restoreAllMocks());

const HOUR = 3600_000;
const log = createLogger({ test: 'abuse-two' });

/** n charged images in one statement. */
async function seedLedger(shopId: number, periodStart: number, n: number) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO usage_ledger (shop_id, charge_key, period_start) SELECT ?, 'seed:' || i, ? FROM n`,
  )
    .bind(n, shopId, periodStart)
    .run();
}

function reinstall(domain: string) {
  return completeInstall(env, db(), domain, { access_token: `shpat_${crypto.randomUUID()}`, scope: env.SHOPIFY_SCOPES }, log);
}

describe('1. the free quota and the new-user offer survive shop/redact', () => {
  it('uninstall, shop/redact 48 h later and reinstall: 5 of 150 used stays 5, the offer does not come back', async () => {
    vi.spyOn(env.SYNC_QUEUE, 'send').mockResolvedValue(undefined as never);
    const now = Date.now();
    const periodStart = currentPeriodStart(1, now);
    const installedAt = now - 49 * HOUR - 60_000;
    const { shop } = await createShop({
      billingCycleDay: 1,
      quotaPeriodStart: periodStart,
      installedAt,
      uninstalledAt: now - SHOP_REDACT_AFTER_MS - 60_000,
      accessTokenEnc: null,
    });
    await seedLedger(shop.id, periodStart, 5);
    expect(canDiscount(shop, now)).toBe(true); // the offer runs 72 h from the install

    await handlers['shop/redact']!(
      env,
      db(),
      shop,
      { topic: 'shop/redact', shopDomain: shop.domain, webhookId: 'r1', payload: {} },
      log,
      now,
    );
    expect(await findShopByDomain(db(), shop.domain)).toBeUndefined();
    // What is kept names no shop: a keyed hash, the numbers, nothing else.
    const kept = await db().select().from(redactedShops).all();
    expect(JSON.stringify(kept)).not.toContain(shop.domain.split('.')[0]);

    await reinstall(shop.domain);
    const again = (await findShopByDomain(db(), shop.domain))!;
    expect(again.id).not.toBe(shop.id);
    expect(await quotaStatus(db(), again, now)).toMatchObject({ used: 5, left: 145 });
    // The offer ends when the first install's did (72 h after it), not 72 h after the reinstall.
    expect(again.discountExpiresAt).toBe(installedAt + 72 * HOUR);
    expect(canDiscount(again, installedAt + 72 * HOUR + 1)).toBe(false);
  });

  it('a plain uninstall and reinstall does not start a new 72-hour offer either', async () => {
    vi.spyOn(env.SYNC_QUEUE, 'send').mockResolvedValue(undefined as never);
    const installedAt = Date.now() - 100 * HOUR;
    const { shop } = await createShop({ installedAt, uninstalledAt: Date.now() - HOUR, accessTokenEnc: null });
    expect(canDiscount(shop, Date.now())).toBe(false);
    await reinstall(shop.domain);
    const again = (await findShopByDomain(db(), shop.domain))!;
    expect(canDiscount(again, Date.now())).toBe(false);
  });

  it('a redacted shop whose period ended starts the current period of its cycle day with nothing used', async () => {
    vi.spyOn(env.SYNC_QUEUE, 'send').mockResolvedValue(undefined as never);
    const now = Date.now();
    const old = currentPeriodStart(1, now) - 40 * 24 * HOUR;
    const { shop } = await createShop({
      billingCycleDay: 1,
      quotaPeriodStart: old,
      installedAt: old,
      uninstalledAt: now - SHOP_REDACT_AFTER_MS - 60_000,
      accessTokenEnc: null,
    });
    await seedLedger(shop.id, old, 150);
    await handlers['shop/redact']!(
      env,
      db(),
      shop,
      { topic: 'shop/redact', shopDomain: shop.domain, webhookId: 'r2', payload: {} },
      log,
      now,
    );
    await reinstall(shop.domain);
    const again = (await findShopByDomain(db(), shop.domain))!;
    expect(again.billingCycleDay).toBe(1);
    expect(await quotaStatus(db(), again, now)).toMatchObject({ used: 0, left: 150 });
    // The kept usage sits in its own (ended) period.
    const rows = await db().select().from(usageLedger).where(eq(usageLedger.shopId, again.id)).all();
    expect(rows.every((r) => r.periodStart === old)).toBe(true);
  });
});
