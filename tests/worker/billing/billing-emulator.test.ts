// Billing end to end against the store emulator: the real Admin GraphQL billing mutations, the
// merchant's confirmation page (approve / decline), Shopify's return redirect, app_subscriptions/update
// webhooks, usage records under the cap.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { applySubscriptionUpdate, chargeImageOnce, quotaStatus, settleUsageCharges } from '../../../worker/billing';
import { findShopById, type ShopRow } from '../../../worker/db/shops';
import { currentPrice } from '../../../worker/billing/pricing';
import type { PricingData } from '../../../shared/api/billing';
import { encryptSecret } from '../../../worker/lib/crypto';
import { createEmulatorShop, type EmulatorShop } from '../emulator-client';
import { call, createShop, db, sessionHeadersFor } from '../helpers';
import { seedLedger } from './seed';

async function installed(emu: EmulatorShop) {
  const t = emu.tokens!;
  const enc = (s: string) => encryptSecret(env.TOKEN_ENCRYPTION_KEY, s);
  return createShop({
    domain: emu.domain,
    accessTokenEnc: await enc(t.access_token),
    accessTokenExpiresAt: Date.now() + (t.expires_in ?? 3600) * 1000,
    refreshTokenEnc: t.refresh_token ? await enc(t.refresh_token) : null,
    refreshTokenExpiresAt: t.refresh_token_expires_in ? Date.now() + t.refresh_token_expires_in * 1000 : null,
  });
}

async function shopRow(id: number): Promise<ShopRow> {
  const row = await findShopById(db(), id);
  if (!row) throw new Error('shop missing');
  return row;
}

/** The merchant presses Approve or Decline on Shopify's confirmation page; returns where Shopify sends the browser. */
async function pressOnConfirmationPage(confirmationUrl: string, approve: boolean): Promise<string> {
  const page = await fetch(confirmationUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(approve ? 'Approve' : 'Decline');
  const res = await fetch(confirmationUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision: approve ? 'approve' : 'decline' }).toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('Location')!);
  expect(location.origin).toBe('https://app.test'); // our APP_URL: the return route
  return location.pathname + location.search;
}

async function changePlans(headers: Record<string, string>, newLevel: number) {
  const res = await call('/api/v1/changePlans', {
    method: 'POST',
    headers: await sessionHeadersFor(headers),
    form: { newLevel: String(newLevel) },
  });
  return await res.json<{ code: string; msg: string; url: string }>();
}

/** Hands the emulator's pending webhooks, signed as Shopify signs them, to the in-process Worker. */
async function deliverWebhooks(emu: EmulatorShop) {
  const { app } = await import('../../../worker/app');
  return emu.postPendingWebhooks(async (req) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(req, env, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  });
}

describe('billing against the store emulator', () => {
  it('upgrade approved on the confirmation page: ACTIVE verified, level set; declined: nothing changes', async () => {
    const emu = await createEmulatorShop({ seed: 'empty', install: true });
    const { shop, headers } = await installed(emu);

    const declined = await changePlans(headers, 3);
    expect(declined.code).toBe('200');
    const back = await call(await pressOnConfirmationPage(declined.url, false), { redirect: 'manual' });
    expect(back.headers.get('Location')).toContain('billing=declined');
    expect((await shopRow(shop.id)).planLevel).toBe(0);

    const upgrade = await changePlans(headers, 2);
    const approved = await call(await pressOnConfirmationPage(upgrade.url, true), { redirect: 'manual' });
    expect(approved.status).toBe(302);
    expect(approved.headers.get('Location')).toBe(`${emu.base}/admin/apps/test-api-key/pricing?billing=approved&kind=plan`);
    const row = await shopRow(shop.id);
    expect(row).toMatchObject({ planLevel: 2, subscriptionStatus: 'ACTIVE', hasUsageCap: true, cappedAmountCents: 9980 });
    const billing = await emu.billing();
    expect(billing.subscriptions.map((s) => [s.name, s.status])).toEqual([
      ['Premium 6,000 images per month', 'DECLINED'],
      ['Premium 2,500 images per month', 'ACTIVE'],
    ]);

    // Shopify's webhooks for these changes arrive afterwards, some twice: the level stays true.
    const delivered = await deliverWebhooks(emu);
    expect(delivered.every((d) => d.status === 200)).toBe(true);
    expect((await shopRow(shop.id)).planLevel).toBe(2);
  });

  it('downgrade to free cancels on Shopify; a cancellation in Shopify reaches the shop by webhook', async () => {
    const emu = await createEmulatorShop({ seed: 'empty', install: true });
    const { shop, headers } = await installed(emu);
    await call(await pressOnConfirmationPage((await changePlans(headers, 1)).url, true), { redirect: 'manual' });
    expect((await shopRow(shop.id)).planLevel).toBe(1);
    expect(await changePlans(headers, 0)).toMatchObject({ code: '200', url: '' });
    expect((await emu.billing()).subscriptions.at(-1)!.status).toBe('CANCELLED');
    expect((await shopRow(shop.id)).planLevel).toBe(0);

    // Approved in Shopify, the browser never returns: the app_subscriptions/update webhook applies it.
    const upgrade = await changePlans(headers, 4);
    await emu.decideCharge(/\/(\d+)\/RecurringApplicationCharge/.exec(upgrade.url)![1]!, true);
    const sub = (await emu.billing()).subscriptions.at(-1)!;
    const payload = { app_subscription: { admin_graphql_api_id: `gid://shopify/AppSubscription/${sub.id}`, status: 'ACTIVE' } };
    expect(await applySubscriptionUpdate(env, db(), emu.domain, payload)).toEqual({ planLevel: 4, changed: true });
    expect((await shopRow(shop.id)).planLevel).toBe(4);
  });

  it('the new-user discount from the plan change to the charge: $3.99 approved, billed, shown for 3 months, then $4.99', async () => {
    const emu = await createEmulatorShop({ seed: 'empty', install: true });
    const { shop, headers } = await installed(emu);
    const before = await call('/api/v1/getPricingPlans', { headers });
    const offered = await before.json<{ data: PricingData }>();
    expect(offered.data.canDiscount).toBe(true);
    expect(offered.data.plans[1]).toMatchObject({ price: '4.99', discount_mPrice: '3.99' });
    expect(offered.data.current_price).toBeNull();

    const { url } = await changePlans(headers, 1);
    const page = await (await fetch(url)).text();
    expect(page).toContain(
      '$3.99 USD every 30 days</strong> for the first 3 billing cycles (20% off), then $4.99 USD every 30 days',
    );
    await call(await pressOnConfirmationPage(url, true), { redirect: 'manual' });

    // Shopify billed the first interval at the price the pricing page showed.
    const billing = await emu.billing();
    expect(billing.recurringCharges.map((c) => [c.amount.amount, c.discounted])).toEqual([['3.99', true]]);
    const row = await shopRow(shop.id);
    expect(row).toMatchObject({ planLevel: 1, subscriptionDiscountCents: 399 });
    const firstPeriodEnd = Date.parse(billing.recurringCharges[0]!.periodEnd);
    expect(row.subscriptionDiscountUntil).toBe(firstPeriodEnd + 2 * 30 * 86_400_000);

    const after = await (await call('/api/v1/getPricingPlans', { headers })).json<{ data: PricingData }>();
    expect(after.data.current_price).toEqual({
      price: '4.99',
      discounted_price: '3.99',
      discount_months: 3,
      discount_until: row.subscriptionDiscountUntil,
    });
    // The offer is used up: no countdown, full prices for any later change.
    expect(after.data.canDiscount).toBe(false);

    // Two more intervals at $3.99, then $4.99: what the app said.
    for (let i = 0; i < 3; i++) await emu.nextBillingCycle();
    expect((await emu.billing()).recurringCharges.map((c) => c.amount.amount)).toEqual(['3.99', '3.99', '3.99', '4.99']);
    expect(currentPrice(row, row.subscriptionDiscountUntil!)).toEqual({
      price: '4.99',
      discounted_price: null,
      discount_months: 0,
      discount_until: 0,
    });
  });

  it('overcharge: switching it on needs a session token (it lets Shopify bill); off works with the admin token', async () => {
    const emu = await createEmulatorShop({ seed: 'empty', install: true });
    const { shop, headers } = await installed(emu);
    await call(await pressOnConfirmationPage((await changePlans(headers, 1)).url, true), { redirect: 'manual' });
    const overcharge = async (h: Record<string, string>, st: '0' | '1') =>
      call('/api/v2/setting/saveAppSwitch', {
        method: 'POST',
        headers: h,
        form: { name: 'is_over_quota', st, exp: '0', type: 'param' },
      });
    const refused = await overcharge(headers, '1');
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ ack: 0, message_key: 'server.auth.sessionTokenRequired' });
    expect((await shopRow(shop.id)).overageEnabled).toBe(false);
    expect((await overcharge(await sessionHeadersFor(headers), '1')).status).toBe(200);
    expect((await shopRow(shop.id)).overageEnabled).toBe(true);
    expect((await overcharge(headers, '0')).status).toBe(200);
    expect((await shopRow(shop.id)).overageEnabled).toBe(false);
  });

  it('overage: usage records on the emulator, once per block, never past the capped amount', async () => {
    const emu = await createEmulatorShop({ seed: 'empty', install: true });
    const { shop, headers } = await installed(emu);
    await call(await pressOnConfirmationPage((await changePlans(headers, 1)).url, true), { redirect: 'manual' });
    await call('/api/v2/setting/saveAppSwitch', {
      method: 'POST',
      headers: await sessionHeadersFor(headers),
      form: { name: 'is_over_quota', st: '1', exp: '0', type: 'param' },
    });
    const paid = await shopRow(shop.id);
    await seedLedger(shop.id, paid.quotaPeriodStart, 1000);
    for (const imageId of [1, 2, 1, 2]) await chargeImageOnce(db(), paid, { imageId, jobId: 'job-e2e' });
    expect(await settleUsageCharges({ env, db: db() }, shop.id)).toMatchObject({ recorded: 1, refused: 0 });
    expect(await settleUsageCharges({ env, db: db() }, shop.id)).toMatchObject({ recorded: 0 });
    let billing = await emu.billing();
    expect(billing.usageRecords).toHaveLength(1);

    // Fill the rest of the cap: 20 blocks in all, $99.80, exactly the capped amount.
    await seedLedger(shop.id, paid.quotaPeriodStart, 20_000 - 3, { overage: true, prefix: 'over' });
    expect(await chargeImageOnce(db(), paid, { imageId: 3 })).toMatchObject({ charged: true, overage: true });
    expect(await chargeImageOnce(db(), paid, { imageId: 4 })).toMatchObject({ ok: false, reason: 'quota_exhausted' });
    expect((await quotaStatus(db(), paid)).canOptimise).toBe(false);
    expect(await settleUsageCharges({ env, db: db() }, shop.id)).toMatchObject({ recorded: 19, refused: 0 });
    billing = await emu.billing();
    expect(billing.usageRecords).toHaveLength(20);
    const usageLine = JSON.stringify(billing.subscriptions.at(-1)!.lineItems);
    expect(usageLine).toContain('"99.80"');
  });
});
