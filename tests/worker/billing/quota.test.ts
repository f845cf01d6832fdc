import { describe, expect, it } from 'vitest';
import { chargeImageOnce, quotaStatus } from '../../../worker/billing/quota';
import { updateShopBilling } from '../../../worker/db/shop-billing';
import { findShopById } from '../../../worker/db/shops';
import { listPeriodUsageCharges } from '../../../worker/db/usage-charges';
import { createShop, db } from '../helpers';
import { seedLedger } from './seed';

const PERIOD = Date.UTC(2026, 10, 3);

async function fresh(id: number) {
  const shop = await findShopById(db(), id);
  if (!shop) throw new Error('shop vanished');
  return shop;
}

describe('quota', () => {
  it('charges each image once and refuses on the free plan after 150 images', async () => {
    const { shop } = await createShop({ quotaPeriodStart: PERIOD, billingCycleDay: 3 });
    await seedLedger(shop.id, PERIOD, 145);
    for (let i = 1; i <= 5; i++) {
      const r = await chargeImageOnce(db(), shop, { imageId: i, jobId: 'job-a' });
      expect(r).toEqual({ ok: true, charged: true, overage: false });
    }
    // Retries and duplicate deliveries of already charged images are no-ops, even at the limit.
    expect(await chargeImageOnce(db(), shop, { imageId: 3, jobId: 'job-b' })).toEqual({
      ok: true,
      charged: false,
      overage: false,
      reason: 'already_charged',
    });
    expect(await chargeImageOnce(db(), shop, { imageId: 151, jobId: 'job-b' })).toEqual({
      ok: false,
      charged: false,
      overage: false,
      reason: 'quota_exhausted',
    });
    const status = await quotaStatus(db(), await fresh(shop.id), Date.UTC(2026, 10, 20));
    expect(status).toMatchObject({
      planImages: 150,
      used: 150,
      left: 0,
      overageUsed: 0,
      overageAllowance: 0,
      canOptimise: false,
      remaining: 0,
      periodStart: PERIOD,
    });
    expect(status.nextResetAt).toBe(Date.UTC(2026, 11, 3));
  });

  it('concurrent charges never take more than the plan allows', async () => {
    const { shop } = await createShop({ quotaPeriodStart: PERIOD });
    await seedLedger(shop.id, PERIOD, 140);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => chargeImageOnce(db(), shop, { imageId: 1000 + i, jobId: 'job-c' })),
    );
    expect(results.filter((r) => r.charged)).toHaveLength(10);
    expect((await quotaStatus(db(), await fresh(shop.id))).used).toBe(150);
  });

  it('counts overage within the cap only when overcharge is on, one usage charge per started block', async () => {
    // $9.98 cap pays for 2 blocks of 1,000 images at $4.99.
    const { shop } = await createShop({
      planLevel: 1,
      quotaPeriodStart: PERIOD,
      hasUsageCap: true,
      cappedAmountCents: 998,
      overageEnabled: false,
    });
    await seedLedger(shop.id, PERIOD, 999);
    expect(await chargeImageOnce(db(), shop, { imageId: 1 })).toEqual({ ok: true, charged: true, overage: false });
    expect(await chargeImageOnce(db(), shop, { imageId: 5000 })).toMatchObject({ ok: false, reason: 'quota_exhausted' });

    await updateShopBilling(db(), shop.id, { overageEnabled: true });
    const on = await fresh(shop.id);
    expect(await quotaStatus(db(), on)).toMatchObject({
      canOptimise: true,
      overageAllowance: 2000,
      overageUsed: 0,
      remaining: 2000,
    });
    expect(await chargeImageOnce(db(), on, { imageId: 1001 })).toEqual({ ok: true, charged: true, overage: true });
    await seedLedger(shop.id, PERIOD, 1998, { overage: true, prefix: 'over' });
    expect(await chargeImageOnce(db(), on, { imageId: 3000 })).toEqual({ ok: true, charged: true, overage: true });
    expect(await chargeImageOnce(db(), on, { imageId: 3001 })).toMatchObject({ ok: false, reason: 'quota_exhausted' });
    expect(await quotaStatus(db(), on)).toMatchObject({ used: 3000, overageUsed: 2000, left: 0, canOptimise: false });
    const charges = await listPeriodUsageCharges(db(), shop.id, PERIOD);
    expect(charges.map((c) => [c.idempotencyKey, c.amountCents])).toEqual([
      [`overage:${PERIOD}:1`, 499],
      [`overage:${PERIOD}:2`, 499],
    ]);
  });
});
