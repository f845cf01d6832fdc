// A discount on the recurring line (AppSubscriptionDiscountInput of the published schema): what the
// confirmation page shows, what AppRecurringPricing.discount answers, and what each interval bills.
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createEmulatorShop } from '../emulator-client';

const CREATE = `mutation C($name: String!, $returnUrl: URL!, $lineItems: [AppSubscriptionLineItemInput!]!, $test: Boolean) {
  appSubscriptionCreate(name: $name, returnUrl: $returnUrl, lineItems: $lineItems, test: $test) {
    appSubscription { id status lineItems { plan { pricingDetails { __typename
      ... on AppRecurringPricing { price { amount } discount { durationLimitInIntervals remainingDurationInIntervals
        priceAfterDiscount { amount currencyCode }
        value { __typename ... on AppSubscriptionDiscountPercentage { percentage } ... on AppSubscriptionDiscountAmount { amount { amount } } } } } } } } }
    confirmationUrl userErrors { field message } } }`;

type Discount = {
  durationLimitInIntervals: number | null;
  remainingDurationInIntervals: number | null;
  priceAfterDiscount: { amount: string; currencyCode: string };
  value: { __typename: string; percentage?: number; amount?: { amount: string } };
};
type Created = {
  appSubscriptionCreate: {
    appSubscription: {
      id: string;
      status: string;
      lineItems: { plan: { pricingDetails: { discount?: Discount | null } } }[];
    } | null;
    confirmationUrl: string | null;
    userErrors: { field: string[]; message: string }[];
  };
};

const recurring = (discount: unknown, amount = 4.99) => ({
  plan: { appRecurringPricingDetails: { price: { amount, currencyCode: 'USD' }, interval: 'EVERY_30_DAYS', discount } },
});

async function create(shop: Awaited<ReturnType<typeof createEmulatorShop>>, discount: unknown, amount?: number) {
  const { body } = await shop.graphql<Created>(CREATE, {
    name: 'Premium 1,000 images per month',
    returnUrl: `${env.APP_URL}/shopify/billing/return?shop=${shop.domain}`,
    test: true,
    lineItems: [recurring(discount, amount)],
  });
  return body.data!.appSubscriptionCreate;
}

describe('emulator billing: subscription discounts', () => {
  it('20 % off for 3 intervals: the page shows $3.99 first, the subscription says so, three charges at $3.99 then $4.99', async () => {
    const shop = await createEmulatorShop({ seed: 'empty', install: true });
    const created = await create(shop, { durationLimitInIntervals: 3, value: { percentage: 0.2 } });
    expect(created.userErrors).toEqual([]);
    expect(created.appSubscription!.lineItems[0]!.plan.pricingDetails.discount).toEqual({
      durationLimitInIntervals: 3,
      remainingDurationInIntervals: 3,
      priceAfterDiscount: { amount: '3.99', currencyCode: 'USD' },
      value: { __typename: 'AppSubscriptionDiscountPercentage', percentage: 0.2 },
    });

    const page = await (await fetch(created.confirmationUrl!)).text();
    expect(page).toContain(
      '$3.99 USD every 30 days</strong> for the first 3 billing cycles (20% off), then $4.99 USD every 30 days',
    );
    // Nothing is billed before the merchant approves.
    expect((await shop.billing()).recurringCharges).toEqual([]);

    await fetch(created.confirmationUrl!, {
      method: 'POST',
      body: new URLSearchParams({ decision: 'approve' }),
      redirect: 'manual',
    });
    const afterApproval = await shop.billing();
    expect(afterApproval.recurringCharges.map((c) => [c.amount.amount, c.price.amount, c.discounted])).toEqual([
      ['3.99', '4.99', true],
    ]);
    for (let i = 0; i < 3; i++) await shop.nextBillingCycle();
    const bill = (await shop.billing()).recurringCharges;
    expect(bill.map((c) => c.amount.amount)).toEqual(['3.99', '3.99', '3.99', '4.99']);
    // Each interval follows the previous one, 30 days long.
    for (let i = 1; i < bill.length; i++) expect(bill[i]!.periodStart).toBe(bill[i - 1]!.periodEnd);

    const { body } = await shop.graphql<{
      currentAppInstallation: { activeSubscriptions: { lineItems: { plan: { pricingDetails: { discount: Discount } } }[] }[] };
    }>(
      '{ currentAppInstallation { activeSubscriptions { lineItems { plan { pricingDetails { ... on AppRecurringPricing { discount { remainingDurationInIntervals priceAfterDiscount { amount } } } } } } } } }',
    );
    expect(body.data!.currentAppInstallation.activeSubscriptions[0]!.lineItems[0]!.plan.pricingDetails.discount).toEqual({
      remainingDurationInIntervals: 0,
      priceAfterDiscount: { amount: '3.99' },
    });
  });

  it('a fixed amount off, indefinitely: every interval bills the lower price', async () => {
    const shop = await createEmulatorShop({ seed: 'empty', install: true });
    const created = await create(shop, { value: { amount: '1.00' } }, 9.99);
    expect(created.appSubscription!.lineItems[0]!.plan.pricingDetails.discount).toMatchObject({
      durationLimitInIntervals: null,
      priceAfterDiscount: { amount: '8.99' },
      value: { __typename: 'AppSubscriptionDiscountAmount', amount: { amount: '1.00' } },
    });
    expect(await (await fetch(created.confirmationUrl!)).text()).toContain(
      '$8.99 USD every 30 days</strong> ($1.00 USD off $9.99 USD)',
    );
    await shop.decideCharge(created.appSubscription!.id, true);
    await shop.nextBillingCycle();
    expect((await shop.billing()).recurringCharges.map((c) => c.amount.amount)).toEqual(['8.99', '8.99']);
  });

  it('refuses a discount Shopify would refuse, and creates nothing', async () => {
    const shop = await createEmulatorShop({ seed: 'empty', install: true });
    const refused = [
      [{ value: { percentage: 0.2, amount: '1.00' } }, 'Discount value must have either an amount or a percentage'],
      [{ value: {} }, 'Discount value must have either an amount or a percentage'],
      [{ value: { percentage: 1.5 } }, 'Discount percentage must be greater than 0 and at most 1'],
      [{ value: { percentage: 20 } }, 'Discount percentage must be greater than 0 and at most 1'],
      [{ value: { amount: '5.00' } }, 'Discount amount must be greater than 0 and not more than the price'],
      [{ durationLimitInIntervals: 0, value: { percentage: 0.2 } }, 'Duration limit in intervals must be greater than 0'],
    ] as const;
    for (const [discount, message] of refused) {
      const created = await create(shop, discount);
      expect(created.appSubscription).toBeNull();
      expect(created.userErrors.map((e) => e.message)).toEqual([message]);
    }
    expect((await shop.billing()).subscriptions).toEqual([]);
  });
});
