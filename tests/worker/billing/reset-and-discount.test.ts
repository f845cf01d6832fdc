import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { quotaStatus } from '../../../worker/billing';
import { currentPeriodStart, nextPeriodStart } from '../../../worker/billing/cycle';
import { findShopById } from '../../../worker/db/shops';
import { encryptSecret } from '../../../worker/lib/crypto';
import { configProblem } from '../../../worker/lib/config';
import { CRON, dispatchScheduled } from '../../../worker/jobs/scheduled';
import { call, createShop, db, sessionHeadersFor } from '../helpers';
import { installBillingFake } from './billing-fake';
import { seedLedger } from './seed';

const DAY = 24 * 60 * 60 * 1000;

async function shopRow(id: number) {
  const row = await findShopById(db(), id);
  if (!row) throw new Error('shop missing');
  return row;
}

async function runQuotaResetCron(at: number) {
  const ctx = createExecutionContext();
  await dispatchScheduled(createScheduledController({ cron: CRON.quotaReset, scheduledTime: at }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe('cycle dates', () => {
  it('periods start at 00:00 UTC on the cycle day, clamped to the 28th', () => {
    expect(currentPeriodStart(15, Date.UTC(2026, 2, 20, 10))).toBe(Date.UTC(2026, 2, 15));
    expect(currentPeriodStart(15, Date.UTC(2026, 2, 10, 10))).toBe(Date.UTC(2026, 1, 15));
    expect(currentPeriodStart(31, Date.UTC(2026, 1, 28, 1))).toBe(Date.UTC(2026, 1, 28));
    expect(nextPeriodStart(3, Date.UTC(2026, 11, 20))).toBe(Date.UTC(2027, 0, 3));
    expect(nextPeriodStart(3, Date.UTC(2026, 11, 3))).toBe(Date.UTC(2027, 0, 3));
  });
});

describe('monthly quota reset (cron)', () => {
  it('resets each shop on its own billing-cycle day, once, and catches up missed months', async () => {
    const oldPeriod = Date.UTC(2026, 9, 12, 9, 30); // Oct 12 2026, mid-morning (an upgrade)
    const due = await createShop({ billingCycleDay: 12, quotaPeriodStart: oldPeriod });
    const notDue = await createShop({ billingCycleDay: 20, quotaPeriodStart: Date.UTC(2026, 9, 20) });
    const missed = await createShop({ billingCycleDay: 5, quotaPeriodStart: Date.UTC(2026, 6, 5) }); // cron was down since July
    await seedLedger(due.shop.id, oldPeriod, 150);
    expect(await quotaStatus(db(), await shopRow(due.shop.id))).toMatchObject({ used: 150, left: 0, canOptimise: false });

    // The day before the cycle day: nothing changes.
    await runQuotaResetCron(Date.UTC(2026, 10, 11, 0, 15));
    expect((await shopRow(due.shop.id)).quotaPeriodStart).toBe(oldPeriod);

    const cycleDay = Date.UTC(2026, 10, 12, 0, 15);
    await runQuotaResetCron(cycleDay);
    const reset = await shopRow(due.shop.id);
    expect(reset.quotaPeriodStart).toBe(Date.UTC(2026, 10, 12));
    expect(await quotaStatus(db(), reset, cycleDay)).toMatchObject({
      used: 0,
      left: 150,
      canOptimise: true,
      nextResetAt: Date.UTC(2026, 11, 12),
    });
    expect((await shopRow(notDue.shop.id)).quotaPeriodStart).toBe(Date.UTC(2026, 9, 20));
    expect((await shopRow(missed.shop.id)).quotaPeriodStart).toBe(Date.UTC(2026, 10, 5));

    // Running twice the same day (a retried cron) changes nothing.
    await runQuotaResetCron(cycleDay + 60_000);
    expect((await shopRow(due.shop.id)).quotaPeriodStart).toBe(Date.UTC(2026, 10, 12));
  });
});

describe('new-user discount', () => {
  let fake: ReturnType<typeof installBillingFake>;
  beforeEach(() => {
    fake = installBillingFake();
  });
  afterEach(() => fake.restore());

  const tokenFields = async () => ({
    accessTokenEnc: await encryptSecret(env.TOKEN_ENCRYPTION_KEY, 'shpat_discount'),
    accessTokenExpiresAt: Date.now() + 3_600_000,
  });

  it('within 72 h of install: 20 % off for 3 months on the subscription, countdown in rebate_info', async () => {
    const installedAt = Date.now() - 2 * 60 * 60 * 1000;
    const { shop, headers } = await createShop({ installedAt, ...(await tokenFields()) });
    const pricing = await (
      await call('/api/v1/getPricingPlans', { headers })
    ).json<{ code: string; data: Record<string, any> }>();
    expect(pricing.code).toBe('200');
    expect(pricing.data.canDiscount).toBe(true);
    expect(pricing.data.rebate_info).toEqual({ expired_time: installedAt + 72 * 60 * 60 * 1000, rate: 20, discount_period: 3 });
    expect(pricing.data.plans[1]).toEqual({
      level: 1,
      name: 'Premium',
      impressions: 1000,
      price: '4.99',
      discount_mPrice: '3.99',
      proportion: 0.8,
    });
    expect(pricing.data.plans[6]).toMatchObject({ price: '149.99', discount_mPrice: '119.99' });

    const res = await (
      await call('/api/v1/changePlans', { method: 'POST', headers: await sessionHeadersFor(headers), form: { newLevel: '1' } })
    ).json<{ url: string }>();
    const recurring = fake.subscriptions.at(-1)!.lines.find((l) => l.kind === 'recurring')!;
    expect(recurring.kind === 'recurring' && recurring.discount).toEqual({ percentage: 0.2, intervals: 3 });

    // Once a paid plan is active, the offer is used up: no discount on a later plan change.
    await call(fake.decide(res.url, true), { redirect: 'manual' });
    expect((await shopRow(shop.id)).discountExpiresAt).not.toBeNull();
    await call('/api/v1/changePlans', { method: 'POST', headers: await sessionHeadersFor(headers), form: { newLevel: '2' } });
    const second = fake.subscriptions.at(-1)!.lines.find((l) => l.kind === 'recurring')!;
    expect(second.kind === 'recurring' && second.discount).toBeNull();
  });

  // decisions.md "Offers": "20 % for the first 3 billing periods unless configured otherwise". The pricing
  // page (and the dashboard's banner, which reads the same rebate_info) and the subscription follow the
  // configuration together.
  it('a configured offer (30 % for 2 periods) is the one shown and the one on the subscription', async () => {
    const offer = { NEW_USER_DISCOUNT_PERCENT: '30', NEW_USER_DISCOUNT_MONTHS: '2' };
    const installedAt = Date.now() - 60 * 60 * 1000;
    const { headers } = await createShop({ installedAt, ...(await tokenFields()) });
    const pricing = await (await call('/api/v1/getPricingPlans', { headers, env: offer })).json<{ data: Record<string, any> }>();
    expect(pricing.data.canDiscount).toBe(true);
    expect(pricing.data.rebate_info).toEqual({ expired_time: installedAt + 72 * 60 * 60 * 1000, rate: 30, discount_period: 2 });
    expect(pricing.data.plans[1]).toMatchObject({ price: '4.99', discount_mPrice: '3.49', proportion: 0.7 });
    expect(pricing.data.plans[6]).toMatchObject({ price: '149.99', discount_mPrice: '104.99' });

    await call('/api/v1/changePlans', {
      method: 'POST',
      headers: await sessionHeadersFor(headers),
      form: { newLevel: '1' },
      env: offer,
    });
    const recurring = fake.subscriptions.at(-1)!.lines.find((l) => l.kind === 'recurring')!;
    expect(recurring.kind === 'recurring' && recurring.discount).toEqual({ percentage: 0.3, intervals: 2 });
  });

  it('a configured 0 % is no offer: no banner data, full price, no discount on the subscription', async () => {
    const offer = { NEW_USER_DISCOUNT_PERCENT: '0' };
    const { headers } = await createShop({ installedAt: Date.now() - 60 * 60 * 1000, ...(await tokenFields()) });
    const pricing = await (await call('/api/v1/getPricingPlans', { headers, env: offer })).json<{ data: Record<string, any> }>();
    expect(pricing.data.canDiscount).toBe(false);
    expect(pricing.data.rebate_info.expired_time).toBe(0);
    expect(pricing.data.plans[1]).toMatchObject({ discount_mPrice: '4.99', proportion: 1 });
    await call('/api/v1/changePlans', {
      method: 'POST',
      headers: await sessionHeadersFor(headers),
      form: { newLevel: '1' },
      env: offer,
    });
    const recurring = fake.subscriptions.at(-1)!.lines.find((l) => l.kind === 'recurring')!;
    expect(recurring.kind === 'recurring' && recurring.discount).toBeNull();
  });

  it('a malformed offer configuration is refused when the Worker starts, not shown and billed differently', () => {
    const base = {
      SHOPIFY_API_KEY: 'key',
      SHOPIFY_API_SECRET: 's',
      TOKEN_ENCRYPTION_KEY: 'k',
      APP_URL: 'https://a.example',
      SHOPIFY_APP_HANDLE: 'app',
    };
    const problem = (vars: Record<string, string>) => configProblem({ ...base, ...vars } as unknown as Env);
    expect(problem({})).toBeNull();
    expect(problem({ NEW_USER_DISCOUNT_PERCENT: '', NEW_USER_DISCOUNT_MONTHS: '' })).toBeNull();
    expect(problem({ NEW_USER_DISCOUNT_PERCENT: '25', NEW_USER_DISCOUNT_MONTHS: '6' })).toBeNull();
    expect(problem({ NEW_USER_DISCOUNT_PERCENT: '20%' })).toMatch(/NEW_USER_DISCOUNT_PERCENT/);
    expect(problem({ NEW_USER_DISCOUNT_PERCENT: '0.2' })).toMatch(/NEW_USER_DISCOUNT_PERCENT/);
    expect(problem({ NEW_USER_DISCOUNT_PERCENT: '100' })).toMatch(/NEW_USER_DISCOUNT_PERCENT/);
    expect(problem({ NEW_USER_DISCOUNT_MONTHS: '0' })).toMatch(/NEW_USER_DISCOUNT_MONTHS/);
    // "for the first {{months}} months" is a plural in every catalogue: one period is not an offer text.
    expect(problem({ NEW_USER_DISCOUNT_MONTHS: '1' })).toMatch(/NEW_USER_DISCOUNT_MONTHS/);
    expect(problem({ NEW_USER_DISCOUNT_MONTHS: '36' })).toBeNull();
    expect(problem({ NEW_USER_DISCOUNT_MONTHS: '37' })).toMatch(/NEW_USER_DISCOUNT_MONTHS/);
    expect(problem({ NEW_USER_DISCOUNT_MONTHS: 'three' })).toMatch(/NEW_USER_DISCOUNT_MONTHS/);
  });

  it('after the window: full price, no discount on the subscription, no countdown', async () => {
    const { headers } = await createShop({ installedAt: Date.now() - 73 * 60 * 60 * 1000, ...(await tokenFields()) });
    const pricing = await (await call('/api/v1/getPricingPlans', { headers })).json<{ data: Record<string, any> }>();
    expect(pricing.data.canDiscount).toBe(false);
    expect(pricing.data.rebate_info.expired_time).toBe(0);
    expect(pricing.data.plans[1]).toMatchObject({ discount_mPrice: '4.99', proportion: 1 });
    await call('/api/v1/changePlans', { method: 'POST', headers: await sessionHeadersFor(headers), form: { newLevel: '1' } });
    const recurring = fake.subscriptions.at(-1)!.lines.find((l) => l.kind === 'recurring')!;
    expect(recurring.kind === 'recurring' && recurring.discount).toBeNull();
  });
});

describe('getPricingPlans usage figures', () => {
  it('reports plan usage, overage usage within the cap, percent used and image totals', async () => {
    const { shop, headers } = await createShop({
      planLevel: 2,
      hasUsageCap: true,
      cappedAmountCents: 998,
      overageEnabled: true,
      installedAt: Date.now() - 30 * DAY,
    });
    await seedLedger(shop.id, shop.quotaPeriodStart, 2500);
    await seedLedger(shop.id, shop.quotaPeriodStart, 120, { overage: true, prefix: 'over' });
    const body = await (await call('/api/v1/getPricingPlans', { headers })).json<{ data: Record<string, any> }>();
    expect(body.data).toMatchObject({
      level: 2,
      canDiscount: false,
      img_usage_use: 2500,
      img_usage_all: 2500,
      impressions_use: 120,
      impressions_all: 2000,
      precent: 100,
      is_capped: 1,
      is_over_quota: 1,
      total: { un_opt_num: 0, total_saved_size: 0, total_opt_num: 0 },
    });
    expect(body.data.plans).toHaveLength(7);
    expect(body.data.plans[0]).toEqual({
      level: 0,
      name: 'Free',
      impressions: 150,
      price: '0.00',
      discount_mPrice: '0.00',
      proportion: 0,
    });
  });
});
