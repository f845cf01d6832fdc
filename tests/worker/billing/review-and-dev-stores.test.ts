// Billing reviewers and merchants can complete (issue 14 point 5, issue 17): test charges decided per
// shop (Shopify's shop.plan.partnerDevelopment), a retry as a test charge where Shopify accepts only
// test charges, the usage-cap raise through Shopify's confirmation page, a signed return URL, and test
// subscriptions that never count as paid plans for a paying store. BILLING_TEST_CHARGES is off here.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { findShopById, type ShopRow } from '../../../worker/db/shops';
import { createEmulatorShop } from '../emulator-client';
import { installedShopFor } from '../installed-shop';
import { db, sessionHeaders } from '../helpers';

const PRODUCTION = { ...env, BILLING_TEST_CHARGES: 'false' };

async function call(path: string, init: RequestInit & { form?: Record<string, string> } = {}, vars: Partial<Env> = {}) {
  const { app } = await import('../../../worker/app');
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.form) {
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
    body = new URLSearchParams(init.form).toString();
  }
  const ctx = createExecutionContext();
  const res = await app.request(path, { ...init, headers, body, redirect: 'manual' }, { ...PRODUCTION, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

// The app's row for an emulator shop installed there (tokens stored encrypted, as OAuth would).
const installed = installedShopFor;

const row = async (id: number): Promise<ShopRow> => (await findShopById(db(), id))!;

async function changePlans(domain: string, newLevel: number, vars: Partial<Env> = {}) {
  const res = await call(
    '/api/v1/changePlans',
    { method: 'POST', headers: await sessionHeaders(domain), form: { newLevel: String(newLevel) } },
    vars,
  );
  return await res.json<{ code: string; msg: string; url: string }>();
}

async function raiseCap(domain: string) {
  const res = await call('/api/v1/raiseOverageCap', { method: 'POST', headers: await sessionHeaders(domain), form: {} });
  return await res.json<{ code: string; url: string }>();
}

/** Approve or Decline on Shopify's confirmation page; returns the app's return path Shopify sends the browser to. */
async function press(confirmationUrl: string, approve: boolean): Promise<string> {
  const res = await fetch(confirmationUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ decision: approve ? 'approve' : 'decline' }).toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('Location')!);
  return location.pathname + location.search;
}

const resultOf = (res: Response) => {
  const to = new URL(res.headers.get('Location')!);
  return { billing: to.searchParams.get('billing'), kind: to.searchParams.get('kind'), page: to.pathname.split('/').at(-1) };
};

describe('test charges decided per shop', () => {
  it('a development store (Shopify says partnerDevelopment) gets a test charge, and its test plan counts', async () => {
    const emu = await createEmulatorShop({ seed: 'empty', install: true });
    const shop = await installed(emu);
    const up = await changePlans(emu.domain, 2);
    expect(up.code).toBe('200');
    expect((await emu.billing()).subscriptions.at(-1)!.test).toBe(true);
    expect((await row(shop.id)).isDevelopmentStore).toBe(true);
    const back = await call(await press(up.url, true));
    expect(resultOf(back)).toEqual({ billing: 'approved', kind: 'plan', page: 'pricing' });
    expect((await row(shop.id)).planLevel).toBe(2);
  });

  it('a paying store gets a real charge', async () => {
    const emu = await createEmulatorShop({ seed: 'empty', install: true });
    await emu.update({ partnerDevelopment: false, planName: 'Basic' });
    const shop = await installed(emu);
    const up = await changePlans(emu.domain, 1);
    expect(up.code).toBe('200');
    expect((await emu.billing()).subscriptions.at(-1)!.test).toBe(false);
    expect((await row(shop.id)).testChargesOnly).toBe(false);
  });

  it('a review store that accepts only test charges: Shopify refuses the real charge, the app retries as a test charge', async () => {
    const emu = await createEmulatorShop({ seed: 'empty', install: true });
    await emu.update({ partnerDevelopment: false, planName: 'Staff' });
    await emu.setSettings({ testChargesOnly: true } as never);
    const shop = await installed(emu);
    const up = await changePlans(emu.domain, 3);
    expect(up).toMatchObject({ code: '200' });
    expect(up.url).toContain('confirm_recurring_application_charge');
    const subs = (await emu.billing()).subscriptions;
    expect(subs.map((s) => s.test)).toEqual([true]); // the refused real charge was never created
    expect((await row(shop.id)).testChargesOnly).toBe(true);
    // The reviewer approves: the test subscription counts for this store.
    expect(resultOf(await call(await press(up.url, true)))).toMatchObject({ billing: 'approved' });
    expect((await row(shop.id)).planLevel).toBe(3);
    // Later charges start as test charges (one attempt, no refusal).
    const before = (await emu.info()).stats.graphqlRequests;
    await changePlans(emu.domain, 4);
    expect((await emu.billing()).subscriptions.at(-1)!.test).toBe(true);
    expect((await emu.info()).stats.graphqlRequests - before).toBe(1);
  });
});

describe('test subscriptions never count as paid plans in production', () => {
  it('a paying store whose active subscription is a test charge stays on the Free plan', async () => {
    const emu = await createEmulatorShop({ seed: 'empty', install: true });
    await emu.update({ partnerDevelopment: false, planName: 'Basic' });
    const shop = await installed(emu);
    // A test charge made under the local override (as a developer could), approved on Shopify.
    const up = await changePlans(emu.domain, 5, { BILLING_TEST_CHARGES: 'true' });
    const sub = (await emu.billing()).subscriptions.at(-1)!;
    expect(sub.test).toBe(true);
    const path = await press(up.url, true);
    expect((await emu.billing()).subscriptions.at(-1)!.status).toBe('ACTIVE');
    expect(resultOf(await call(path))).toMatchObject({ billing: 'declined' });
    expect(await row(shop.id)).toMatchObject({ planLevel: 0, subscriptionId: null });
    // The same subscription counts where test charges are allowed (the local-development override).
    expect(resultOf(await call(path, {}, { BILLING_TEST_CHARGES: 'true' }))).toMatchObject({ billing: 'approved' });
    expect((await row(shop.id)).planLevel).toBe(5);
  });
});

describe('the billing return URL is signed', () => {
  it('a forged, tampered, expired or re-targeted return does nothing and asks Shopify nothing', async () => {
    const emu = await createEmulatorShop({ seed: 'empty', install: true });
    const shop = await installed(emu);
    const up = await changePlans(emu.domain, 2);
    const genuine = new URL(await press(up.url, true), 'https://app.test');
    expect(genuine.searchParams.get('sig')).toMatch(/^[0-9a-f]{64}$/);
    const before = (await emu.info()).stats.graphqlRequests;
    const forged = [
      `/shopify/billing/return?shop=${emu.domain}&kind=plan&charge_id=${genuine.searchParams.get('charge_id')}`,
      (() => {
        const u = new URL(genuine);
        u.searchParams.set('sig', '0'.repeat(64));
        return u.pathname + u.search;
      })(),
      (() => {
        const u = new URL(genuine);
        u.searchParams.set('exp', String(Number(u.searchParams.get('exp')) + 1));
        return u.pathname + u.search;
      })(),
      (() => {
        const u = new URL(genuine);
        u.searchParams.set('kind', 'cap');
        return u.pathname + u.search;
      })(),
    ];
    for (const path of forged) {
      const res = await call(path);
      expect(res.status, path).toBe(401);
    }
    expect((await emu.info()).stats.graphqlRequests).toBe(before);
    expect(await row(shop.id)).toMatchObject({ planLevel: 0, pendingPlanLevel: 2 });
    // An expired one, signed with the real secret but past its expiry, does nothing either.
    const { billingReturnUrl } = await import('../../../worker/billing/return-url');
    const old = new URL(await billingReturnUrl(env, emu.domain, 'plan', Date.now() - 401 * 86_400_000));
    expect((await call(old.pathname + old.search)).status).toBe(401);
    // The genuine return works.
    expect(resultOf(await call(genuine.pathname + genuine.search))).toMatchObject({ billing: 'approved' });
    expect((await row(shop.id)).planLevel).toBe(2);
  });
});

describe('raising the usage cap through Shopify’s confirmation page', () => {
  it('declined keeps the cap; approved raises it; the return says which', async () => {
    const emu = await createEmulatorShop({ seed: 'empty', install: true });
    const shop = await installed(emu);
    await call(await press((await changePlans(emu.domain, 2)).url, true));
    expect((await row(shop.id)).cappedAmountCents).toBe(9980);
    const pricing = await (
      await call('/api/v1/getPricingPlans', { headers: await sessionHeaders(emu.domain) })
    ).json<{ data: { capped_amount: number; next_capped_amount: number } }>();
    expect(pricing.data).toMatchObject({ capped_amount: 99.8, next_capped_amount: 199.6 });

    const no = await raiseCap(emu.domain);
    expect(no.url).toContain('confirm_update_capped_amount');
    expect(resultOf(await call(await press(no.url, false)))).toEqual({ billing: 'declined', kind: 'cap', page: 'pricing' });
    expect((await row(shop.id)).cappedAmountCents).toBe(9980);

    const yes = await raiseCap(emu.domain);
    expect(resultOf(await call(await press(yes.url, true)))).toEqual({ billing: 'approved', kind: 'cap', page: 'pricing' });
    expect(await row(shop.id)).toMatchObject({ cappedAmountCents: 19960, planLevel: 2 });
    const after = await (
      await call('/api/v1/getPricingPlans', { headers: await sessionHeaders(emu.domain) })
    ).json<{ data: { next_capped_amount: number } }>();
    expect(after.data.next_capped_amount).toBe(0);
  });
});
