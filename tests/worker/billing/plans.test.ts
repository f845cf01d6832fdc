import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applySubscriptionUpdate, chargeImageOnce } from '../../../worker/billing';
import { findShopById } from '../../../worker/db/shops';
import { encryptSecret } from '../../../worker/lib/crypto';
import { shopBaseUrl } from '../../../worker/shopify/api-version';
import { call, createShop, db, sessionHeadersFor } from '../helpers';
import { installBillingFake } from './billing-fake';
import { seedLedger } from './seed';

let fake: ReturnType<typeof installBillingFake>;
beforeEach(() => {
  fake = installBillingFake();
});
afterEach(() => fake.restore());

/** An installed shop with a stored (encrypted, unexpired) offline token, as after OAuth. */
export async function billingShop(overrides: Parameters<typeof createShop>[0] = {}) {
  return createShop({
    accessTokenEnc: await encryptSecret(env.TOKEN_ENCRYPTION_KEY, 'shpat_billing_test'),
    accessTokenExpiresAt: Date.now() + 3_600_000,
    ...overrides,
  });
}

async function shopRow(id: number) {
  const row = await findShopById(db(), id);
  if (!row) throw new Error('shop missing');
  return row;
}

async function changePlans(headers: Record<string, string>, newLevel: number | string) {
  const res = await call('/api/v1/changePlans', {
    method: 'POST',
    headers: await sessionHeadersFor(headers),
    form: { newLevel: String(newLevel) },
  });
  return { status: res.status, body: await res.json<{ code: string; msg: string; url?: string }>() };
}

describe('changePlans', () => {
  it('upgrade: answers the confirmation URL, and the level changes only after approval', async () => {
    const { shop, headers } = await billingShop();
    const { status, body } = await changePlans(headers, 2);
    expect(status).toBe(200);
    expect(body.code).toBe('200');
    expect(body.url).toMatch(/\/admin\/charges\/\d+\/confirm$/);

    const sub = fake.subscriptions.at(-1)!;
    expect(sub.name).toBe('Premium 2,500 images per month');
    expect(sub.test).toBe(true); // BILLING_TEST_CHARGES=true in the test configuration
    expect(sub.returnUrl).toMatch(
      new RegExp(
        `^https://app\\.test/shopify/billing/return\\?shop=${shop.domain.replace(/\./g, '\\.')}&kind=plan&exp=\\d+&sig=[0-9a-f]{64}$`,
      ),
    );
    expect(sub.lines).toEqual([
      expect.objectContaining({ kind: 'recurring', price: { amount: '9.99', currencyCode: 'USD' } }),
      expect.objectContaining({ kind: 'usage', cappedAmount: { amount: '99.80', currencyCode: 'USD' } }),
    ]);
    // Still free while the merchant has not approved.
    expect((await shopRow(shop.id)).planLevel).toBe(0);
    expect((await shopRow(shop.id)).pendingPlanLevel).toBe(2);

    const returnPath = fake.decide(body.url!, true);
    const back = await call(returnPath, { redirect: 'manual' });
    expect(back.status).toBe(302);
    expect(back.headers.get('Location')).toBe(
      `${shopBaseUrl(env, shop.domain)}/admin/apps/test-api-key/pricing?billing=approved&kind=plan`,
    );
    const after = await shopRow(shop.id);
    expect(after).toMatchObject({
      planLevel: 2,
      subscriptionId: `gid://shopify/AppSubscription/${sub.id}`,
      subscriptionStatus: 'ACTIVE',
      hasUsageCap: true,
      cappedAmountCents: 9980,
      pendingPlanLevel: null,
    });
    expect(after.usageLineItemId).toMatch(/^gid:\/\/shopify\/AppSubscriptionLineItem\/\d+$/);
  });

  it('upgrade declined: the level stays, and a forged return URL changes nothing', async () => {
    const { shop, headers } = await billingShop();
    const { body } = await changePlans(headers, 1);
    const returnPath = fake.decide(body.url!, false);
    const back = await call(returnPath, { redirect: 'manual' });
    expect(back.headers.get('Location')).toContain('billing=declined');
    expect(await shopRow(shop.id)).toMatchObject({ planLevel: 0, subscriptionId: null, pendingPlanLevel: null });

    // A signed return URL with a charge that Shopify does not report ACTIVE never upgrades.
    const { body: again } = await changePlans(headers, 6);
    const pendingId = /charges\/(\d+)\//.exec(again.url!)![1];
    const signed = new URL(returnPath, 'https://app.test');
    signed.searchParams.set('charge_id', pendingId!);
    const forged = await call(signed.pathname + signed.search, { redirect: 'manual' });
    expect(forged.headers.get('Location')).toContain('billing=declined');
    // Without the app's signature the return is refused outright.
    expect(
      (await call(`/shopify/billing/return?shop=${shop.domain}&kind=plan&charge_id=${pendingId}`, { redirect: 'manual' })).status,
    ).toBe(401);
    expect((await shopRow(shop.id)).planLevel).toBe(0);
  });

  it('downgrade to free cancels the subscription on Shopify and switches overcharge off', async () => {
    const { shop, headers } = await billingShop();
    const { body } = await changePlans(headers, 3);
    await call(fake.decide(body.url!, true), { redirect: 'manual' });
    await call('/api/v2/setting/saveAppSwitch', {
      method: 'POST',
      headers: await sessionHeadersFor(headers),
      form: { name: 'is_over_quota', st: '1', exp: '0', type: 'param' },
    });
    expect((await shopRow(shop.id)).overageEnabled).toBe(true);

    const down = await changePlans(headers, 0);
    expect(down.body).toMatchObject({ code: '200', url: '' });
    expect(fake.subscriptions.at(-1)!.status).toBe('CANCELLED');
    expect(await shopRow(shop.id)).toMatchObject({
      planLevel: 0,
      subscriptionId: null,
      hasUsageCap: false,
      cappedAmountCents: 0,
      overageEnabled: false,
    });
  });

  it('downgrade bills pending overage blocks before the subscription is cancelled', async () => {
    const { shop, headers } = await billingShop();
    await call(fake.decide((await changePlans(headers, 1)).body.url!, true), { redirect: 'manual' });
    await call('/api/v2/setting/saveAppSwitch', {
      method: 'POST',
      headers: await sessionHeadersFor(headers),
      form: { name: 'is_over_quota', st: '1', exp: '0', type: 'param' },
    });
    const paid = await shopRow(shop.id);
    await seedLedger(shop.id, paid.quotaPeriodStart, 1000);
    expect(await chargeImageOnce(db(), paid, { imageId: 1 })).toMatchObject({ charged: true, overage: true });
    await changePlans(headers, 0);
    expect(fake.usageRecords.map((r) => r.price.amount)).toEqual(['4.99']);
    expect(fake.subscriptions.at(-1)!.status).toBe('CANCELLED');
  });

  it('moving between paid plans replaces the subscription after approval', async () => {
    const { shop, headers } = await billingShop();
    await call(fake.decide((await changePlans(headers, 1)).body.url!, true), { redirect: 'manual' });
    await call(fake.decide((await changePlans(headers, 4)).body.url!, true), { redirect: 'manual' });
    expect((await shopRow(shop.id)).planLevel).toBe(4);
    expect(fake.subscriptions.filter((s) => s.status === 'ACTIVE')).toHaveLength(1);
    expect(await changePlans(headers, 4)).toEqual({
      status: 400,
      body: { code: '400', msg: 'You are already on this plan', message_key: 'server.billing.alreadyOnPlan', params: {} },
    });
  });

  it('answers the documented {code, msg} on bad input and on Shopify failures', async () => {
    const { headers } = await billingShop();
    expect(await changePlans(headers, 9)).toEqual({
      status: 400,
      body: { code: '400', msg: 'Invalid plan level', message_key: 'server.billing.invalidPlanLevel', params: {} },
    });
    expect(await changePlans(headers, 'abc')).toEqual({
      status: 400,
      body: { code: '400', msg: 'Invalid plan level', message_key: 'server.billing.invalidPlanLevel', params: {} },
    });
    // An empty field is not level 0 (a downgrade).
    expect(await changePlans(headers, '')).toEqual({
      status: 400,
      body: { code: '400', msg: 'Invalid plan level', message_key: 'server.billing.invalidPlanLevel', params: {} },
    });
    expect(await changePlans(headers, 0)).toEqual({
      status: 400,
      body: { code: '400', msg: 'You are already on the Free plan', message_key: 'server.billing.alreadyFree', params: {} },
    });

    // No stored token: plan changes need a session token (issue 17), and a session token for a shop without
    // a grant is exchanged for one first, so the change goes on rather than failing.
    const { headers: noToken } = await createShop();
    const changed = await changePlans(noToken, 1);
    expect(changed.status).toBe(200);
    // An admin token alone cannot change the plan.
    const byAdminToken = await call('/api/v1/changePlans', { method: 'POST', headers: noToken, form: { newLevel: '1' } });
    expect(byAdminToken.status).toBe(401);
  });
});

describe('app_subscriptions/update webhook', () => {
  it('keeps the level true when the merchant acts in Shopify', async () => {
    const { shop, headers } = await billingShop();
    const { body } = await changePlans(headers, 5);
    // The merchant approves, but the browser never comes back to the return URL: the webhook does it.
    fake.decide(body.url!, true);
    const sub = fake.subscriptions.at(-1)!;
    expect(await applySubscriptionUpdate(env, db(), shop.domain, fake.webhookPayload(sub))).toEqual({
      planLevel: 5,
      changed: true,
    });
    expect((await shopRow(shop.id)).planLevel).toBe(5);

    // A replayed delivery changes nothing.
    expect(await applySubscriptionUpdate(env, db(), shop.domain, fake.webhookPayload(sub))).toEqual({
      planLevel: 5,
      changed: false,
    });

    // The merchant cancels in Shopify's admin: the shop drops to free.
    sub.status = 'CANCELLED';
    expect(await applySubscriptionUpdate(env, db(), shop.domain, fake.webhookPayload(sub))).toEqual({
      planLevel: 0,
      changed: true,
    });
    expect(await shopRow(shop.id)).toMatchObject({ planLevel: 0, subscriptionId: null, hasUsageCap: false });
  });

  it('an out-of-order ACTIVE delivery for an old subscription cannot restore a stale plan', async () => {
    const { shop, headers } = await billingShop();
    await call(fake.decide((await changePlans(headers, 1)).body.url!, true), { redirect: 'manual' });
    const first = fake.subscriptions.at(-1)!;
    await call(fake.decide((await changePlans(headers, 3)).body.url!, true), { redirect: 'manual' });
    const stale = { app_subscription: { admin_graphql_api_id: `gid://shopify/AppSubscription/${first.id}`, status: 'ACTIVE' } };
    expect(await applySubscriptionUpdate(env, db(), shop.domain, stale)).toMatchObject({ planLevel: 3 });
    expect(await applySubscriptionUpdate(env, db(), 'unknown-shop.myshopify.com', stale)).toBeNull();
  });
});
