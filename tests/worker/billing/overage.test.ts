import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chargeImageOnce, quotaStatus, settleAllUsageCharges, settleUsageCharges } from '../../../worker/billing';
import { listPeriodUsageCharges } from '../../../worker/db/usage-charges';
import { findShopById } from '../../../worker/db/shops';
import { encryptSecret } from '../../../worker/lib/crypto';
import { call, createShop, db, sessionHeadersFor } from '../helpers';
import { installBillingFake } from './billing-fake';
import { seedLedger } from './seed';

let fake: ReturnType<typeof installBillingFake>;
beforeEach(() => {
  fake = installBillingFake();
});
afterEach(() => fake.restore());

async function shopRow(id: number) {
  const row = await findShopById(db(), id);
  if (!row) throw new Error('shop missing');
  return row;
}

/** A shop on Premium level 1 (1,000 images) approved through Shopify, with overcharge switched on. */
async function paidShopWithOvercharge() {
  const created = await createShop({
    accessTokenEnc: await encryptSecret(env.TOKEN_ENCRYPTION_KEY, 'shpat_overage'),
    accessTokenExpiresAt: Date.now() + 3_600_000,
  });
  const res = await call('/api/v1/changePlans', {
    method: 'POST',
    headers: await sessionHeadersFor(created.headers),
    form: { newLevel: '1' },
  });
  const { url } = await res.json<{ url: string }>();
  await call(fake.decide(url, true), { redirect: 'manual' });
  const on = await call('/api/v2/setting/saveAppSwitch', {
    method: 'POST',
    headers: await sessionHeadersFor(created.headers),
    form: { name: 'is_over_quota', st: '1', exp: '0', type: 'param' },
  });
  expect((await on.json<{ ack: number }>()).ack).toBe(1);
  return { ...created, shop: await shopRow(created.shop.id) };
}

describe('overage', () => {
  it('charges each image once across jobs and retries, bills whole blocks once, and never passes the cap', async () => {
    const { shop, headers } = await paidShopWithOvercharge();
    expect(shop).toMatchObject({ planLevel: 1, hasUsageCap: true, cappedAmountCents: 9980, overageEnabled: true });
    const period = shop.quotaPeriodStart;
    await seedLedger(shop.id, period, 999); // 999 of the plan's 1,000 images used

    // Job A: image 1 is the plan's last image, 2 and 3 are overage. Its queue messages are delivered twice.
    const jobA = [1, 2, 3, 1, 2, 3].map((imageId) => ({ imageId, jobId: 'job-a' }));
    const resultsA = [];
    for (const ref of jobA) resultsA.push(await chargeImageOnce(db(), shop, ref));
    expect(resultsA.map((r) => [r.charged, r.overage])).toEqual([
      [true, false],
      [true, true],
      [true, true],
      [false, false],
      [false, true],
      [false, true],
    ]);
    // Job B re-optimises image 2 (already charged) and optimises 4 and 5, concurrently.
    const resultsB = await Promise.all([2, 4, 5].map((imageId) => chargeImageOnce(db(), shop, { imageId, jobId: 'job-b' })));
    expect(resultsB.map((r) => r.charged)).toEqual([false, true, true]);
    expect(await quotaStatus(db(), shop)).toMatchObject({
      used: 1004,
      overageUsed: 4,
      overageAllowance: 20_000,
      canOptimise: true,
    });

    // The first started block of 1,000 is billed once, however often settlement runs.
    expect(await settleUsageCharges({ env, db: db() }, shop.id)).toMatchObject({ recorded: 1, refused: 0 });
    expect(await settleUsageCharges({ env, db: db() }, shop.id)).toMatchObject({ recorded: 0, pending: 0 });
    expect(fake.usageRecords).toHaveLength(1);
    expect(fake.usageRecords[0]!.price).toEqual({ amount: '4.99', currencyCode: 'USD' });

    // Fill the allowance up to its last image: the cap ($99.80) pays for exactly 20 blocks.
    await seedLedger(shop.id, period, 20_000 - 5, { overage: true, prefix: 'over' });
    expect(await chargeImageOnce(db(), shop, { imageId: 6, jobId: 'job-c' })).toEqual({ ok: true, charged: true, overage: true });
    expect(await chargeImageOnce(db(), shop, { imageId: 7, jobId: 'job-c' })).toEqual({
      ok: false,
      charged: false,
      overage: false,
      reason: 'quota_exhausted',
    });
    expect(await quotaStatus(db(), shop)).toMatchObject({ overageUsed: 20_000, canOptimise: false }); // the plan-limit state

    expect(await settleUsageCharges({ env, db: db() }, shop.id)).toMatchObject({ recorded: 19, refused: 0 });
    const line = fake.subscriptions.at(-1)!.lines.find((l) => l.kind === 'usage')!;
    expect(line.kind === 'usage' && line.balanceUsed.amount).toBe('99.80');
    expect(fake.usageRecords).toHaveLength(20);
    expect(new Set(fake.usageRecords.map((r) => r.idempotencyKey)).size).toBe(20);

    // A lost answer (record created on Shopify, our row still pending) is resent with the same key:
    // Shopify answers the existing record and nothing is billed twice.
    await env.DB.prepare(`update usage_charges set status = 'pending' where shop_id = ? and idempotency_key = ?`)
      .bind(shop.id, `overage:${period}:20`)
      .run();
    expect(await settleUsageCharges({ env, db: db() }, shop.id)).toMatchObject({ recorded: 1 });
    expect(fake.usageRecords).toHaveLength(20);
    expect((await listPeriodUsageCharges(db(), shop.id, period)).every((c) => c.status === 'recorded')).toBe(true);

    // Raising the cap: a new confirmation URL; after approval the cap and the allowance grow.
    // A higher cap lets Shopify bill more: the admin token is refused, the merchant in the admin asks.
    expect((await call('/api/v1/raiseOverageCap', { method: 'POST', headers, form: {} })).status).toBe(401);
    const raise = await call('/api/v1/raiseOverageCap', { method: 'POST', headers: await sessionHeadersFor(headers), form: {} });
    const raised = await raise.json<{ code: string; url: string }>();
    expect(raised.code).toBe('200');
    expect(raised.url).toContain('confirm_update_capped_amount');
    await call(fake.decide(raised.url, true), { redirect: 'manual' });
    const after = await shopRow(shop.id);
    expect(after.cappedAmountCents).toBe(19960);
    expect(await quotaStatus(db(), after)).toMatchObject({ overageAllowance: 40_000, canOptimise: true });
    expect(await chargeImageOnce(db(), after, { imageId: 7, jobId: 'job-d' })).toMatchObject({
      ok: true,
      charged: true,
      overage: true,
    });
  });

  it("the half-hourly settlement sends every shop's pending blocks", async () => {
    const a = await paidShopWithOvercharge();
    await seedLedger(a.shop.id, a.shop.quotaPeriodStart, 1000);
    await chargeImageOnce(db(), a.shop, { imageId: 1 });
    expect(await settleAllUsageCharges(env, db())).toBeGreaterThanOrEqual(1);
    expect(fake.usageRecords.map((r) => r.idempotencyKey)).toContain(`${a.shop.id}:overage:${a.shop.quotaPeriodStart}:1`);
    expect(await settleAllUsageCharges(env, db())).toBe(0);
  });

  it('a block that Shopify refuses (over its cap) is never retried', async () => {
    const { shop } = await paidShopWithOvercharge();
    await seedLedger(shop.id, shop.quotaPeriodStart, 1000);
    expect(await chargeImageOnce(db(), shop, { imageId: 1 })).toMatchObject({ charged: true, overage: true });
    // Spend Shopify's whole cap elsewhere (e.g. a block recorded before a database restore).
    const line = fake.subscriptions.at(-1)!.lines.find((l) => l.kind === 'usage')!;
    if (line.kind === 'usage') line.balanceUsed = { amount: '99.80', currencyCode: 'USD' };
    expect(await settleUsageCharges({ env, db: db() }, shop.id)).toMatchObject({ recorded: 0, refused: 1, pending: 0 });
    expect(fake.usageRecords).toHaveLength(0);
    const charges = await listPeriodUsageCharges(db(), shop.id, shop.quotaPeriodStart);
    expect(charges.map((c) => c.status)).toEqual(['failed']);
  });

  it('overcharge switch: needs a paid, capped plan; reverts are the caller’s, the server refuses', async () => {
    const { headers } = await createShop();
    const res = await call('/api/v2/setting/saveAppSwitch', {
      method: 'POST',
      headers: await sessionHeadersFor(headers),
      form: { name: 'is_over_quota', st: '1', exp: '0', type: 'param' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      ack: 0,
      message: 'Overcharge needs a paid plan with a usage cap',
      message_key: 'server.billing.overchargeNeedsCappedPlan',
      params: {},
    });
    const uncapped = await createShop({ planLevel: 2, hasUsageCap: false });
    const res2 = await call('/api/v2/setting/saveAppSwitch', {
      method: 'POST',
      headers: await sessionHeadersFor(uncapped.headers),
      form: { name: 'is_over_quota', st: '1', exp: '0', type: 'param' },
    });
    expect(res2.status).toBe(400);
    const off = await call('/api/v2/setting/saveAppSwitch', {
      method: 'POST',
      headers,
      form: { name: 'is_over_quota', st: '0', exp: '0', type: 'param' },
    });
    expect((await off.json<{ ack: number }>()).ack).toBe(1);
    const account = await call('/api/v2/setting/getAccount', { headers });
    expect(await account.json()).toMatchObject({ ack: 1, data: { is_over_quota: 0, is_capped: 0 } });
  });
});
