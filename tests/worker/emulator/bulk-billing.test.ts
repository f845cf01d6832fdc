// Bulk operations (JSONL with __parentId) and billing (confirmation page, approve/decline, usage caps).
import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulatorShop, type EmulatorShop } from '../emulator-client';

let shop: EmulatorShop;
beforeAll(async () => {
  shop = await createEmulatorShop({ install: true, settings: { bulkOperationMs: 20 } });
});

type Op = { id: string; status: string; objectCount: string; url: string | null };

async function waitForBulk(id: string): Promise<Op> {
  for (let i = 0; i < 100; i++) {
    const { body } = await shop.graphql<{ node: Op }>(
      'query B($id: ID!) { node(id: $id) { ... on BulkOperation { id status objectCount url } } }',
      { id },
    );
    if (body.data!.node.status === 'COMPLETED' || body.data!.node.status === 'FAILED') return body.data!.node;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('bulk operation did not finish');
}

describe('emulator bulk operations', () => {
  it('runs a bulk query and serves JSONL with children after their parent', async () => {
    const query =
      '{ products { edges { node { id title media { edges { node { id ... on MediaImage { image { url } } } } } } } } }';
    const { body } = await shop.graphql<{ bulkOperationRunQuery: { bulkOperation: { id: string }; userErrors: unknown[] } }>(
      'mutation R($q: String!) { bulkOperationRunQuery(query: $q) { bulkOperation { id status } userErrors { field message code } } }',
      { q: query },
    );
    const again = await shop.graphql<{ bulkOperationRunQuery: { userErrors: { code: string }[] } }>(
      'mutation R($q: String!) { bulkOperationRunQuery(query: $q) { userErrors { code message } } }',
      { q: query },
    );
    expect(again.body.data!.bulkOperationRunQuery.userErrors[0]!.code).toBe('OPERATION_IN_PROGRESS');

    const op = await waitForBulk(body.data!.bulkOperationRunQuery.bulkOperation.id);
    expect(op.status).toBe('COMPLETED');
    const lines = (await (await fetch(op.url!)).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; __parentId?: string });
    expect(lines.length).toBe(Number(op.objectCount));
    const products = lines.filter((l) => !l.__parentId);
    expect(products).toHaveLength(20);
    const seen = new Set<string>();
    for (const line of lines) {
      if (line.__parentId) expect(seen.has(line.__parentId)).toBe(true);
      seen.add(line.id);
    }
    expect(lines.filter((l) => l.__parentId).length).toBe((await shop.files()).length);
    expect((await shop.webhooks({ topic: 'bulk_operations/finish' })).length).toBe(1);
  });
});

const CREATE = `mutation C($name: String!, $returnUrl: URL!, $lineItems: [AppSubscriptionLineItemInput!]!, $test: Boolean) {
  appSubscriptionCreate(name: $name, returnUrl: $returnUrl, lineItems: $lineItems, test: $test) {
    appSubscription { id status lineItems { id plan { pricingDetails { __typename ... on AppUsagePricing { cappedAmount { amount } balanceUsed { amount } } } } } }
    confirmationUrl userErrors { field message } } }`;
const USAGE = `mutation U($id: ID!, $price: MoneyInput!, $key: String) { appUsageRecordCreate(subscriptionLineItemId: $id, price: $price, description: "1,000 images", idempotencyKey: $key) {
  appUsageRecord { id idempotencyKey } userErrors { field message } } }`;

type Created = {
  appSubscriptionCreate: {
    appSubscription: {
      id: string;
      status: string;
      lineItems: { id: string; plan: { pricingDetails: { __typename: string } } }[];
    };
    confirmationUrl: string;
  };
};

describe('emulator billing', () => {
  it('a subscription is PENDING until approved on the confirmation page, which returns to the app with charge_id', async () => {
    const vars = {
      name: 'Premium 1000',
      returnUrl: `${env.APP_URL}/api/billing/return?shop=${shop.domain}`,
      test: true,
      lineItems: [
        { plan: { appRecurringPricingDetails: { price: { amount: 4.99, currencyCode: 'USD' }, interval: 'EVERY_30_DAYS' } } },
        {
          plan: {
            appUsagePricingDetails: { cappedAmount: { amount: 9.98, currencyCode: 'USD' }, terms: '$4.99 per 1,000 images' },
          },
        },
      ],
    };
    const { body } = await shop.graphql<Created>(CREATE, vars);
    const created = body.data!.appSubscriptionCreate;
    expect(created.appSubscription.status).toBe('PENDING');
    const page = await fetch(created.confirmationUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Approve');
    const approved = await fetch(created.confirmationUrl, {
      method: 'POST',
      body: new URLSearchParams({ decision: 'approve' }),
      redirect: 'manual',
    });
    expect(approved.status).toBe(302);
    const back = new URL(approved.headers.get('Location')!);
    expect(back.searchParams.get('charge_id')).toBe(created.appSubscription.id.split('/').pop());
    expect(back.searchParams.get('shop')).toBe(shop.domain);

    const active = await shop.graphql<{ currentAppInstallation: { activeSubscriptions: { id: string; status: string }[] } }>(
      '{ currentAppInstallation { activeSubscriptions { id status } } }',
    );
    expect(active.body.data!.currentAppInstallation.activeSubscriptions).toEqual([
      { id: created.appSubscription.id, status: 'ACTIVE' },
    ]);

    // Usage records: idempotent by key, refused beyond the capped amount.
    const usageLine = created.appSubscription.lineItems.find((l) => l.plan.pricingDetails.__typename === 'AppUsagePricing')!.id;
    const one = await shop.graphql<{ appUsageRecordCreate: { appUsageRecord: { id: string } } }>(USAGE, {
      id: usageLine,
      price: { amount: 4.99, currencyCode: 'USD' },
      key: 'k1',
    });
    const dup = await shop.graphql<{ appUsageRecordCreate: { appUsageRecord: { id: string } } }>(USAGE, {
      id: usageLine,
      price: { amount: 4.99, currencyCode: 'USD' },
      key: 'k1',
    });
    expect(dup.body.data!.appUsageRecordCreate.appUsageRecord.id).toBe(one.body.data!.appUsageRecordCreate.appUsageRecord.id);
    await shop.graphql(USAGE, { id: usageLine, price: { amount: 4.99, currencyCode: 'USD' }, key: 'k2' });
    const over = await shop.graphql<{ appUsageRecordCreate: { appUsageRecord: null; userErrors: { message: string }[] } }>(
      USAGE,
      { id: usageLine, price: { amount: 4.99, currencyCode: 'USD' }, key: 'k3' },
    );
    expect(over.body.data!.appUsageRecordCreate.userErrors[0]!.message).toBe('Total price exceeds balance remaining');

    // Raising the cap needs the merchant's approval too.
    const raise = await shop.graphql<{ appSubscriptionLineItemUpdate: { confirmationUrl: string } }>(
      'mutation L($id: ID!, $c: MoneyInput!) { appSubscriptionLineItemUpdate(id: $id, cappedAmount: $c) { confirmationUrl userErrors { field message } } }',
      { id: usageLine, c: { amount: 49.9, currencyCode: 'USD' } },
    );
    await fetch(raise.body.data!.appSubscriptionLineItemUpdate.confirmationUrl, {
      method: 'POST',
      body: new URLSearchParams({ decision: 'approve' }),
      redirect: 'manual',
    });
    const after = await shop.graphql<{ appUsageRecordCreate: { userErrors: unknown[] } }>(USAGE, {
      id: usageLine,
      price: { amount: 4.99, currencyCode: 'USD' },
      key: 'k3',
    });
    expect(after.body.data!.appUsageRecordCreate.userErrors).toEqual([]);
    expect((await shop.webhooks({ topic: 'app_subscriptions/update' })).length).toBeGreaterThanOrEqual(1);
  });

  it('a declined charge returns to the app and stays inactive; cancel ends an active one', async () => {
    const base = {
      returnUrl: `${env.APP_URL}/return`,
      test: true,
      lineItems: [{ plan: { appRecurringPricingDetails: { price: { amount: 9.99, currencyCode: 'USD' } } } }],
    };
    const declined = (await shop.graphql<Created>(CREATE, { ...base, name: 'Premium 2500' })).body.data!.appSubscriptionCreate;
    expect(await shop.decideCharge(declined.appSubscription.id, false)).toContain('charge_id=');
    const status = (await shop.billing()).subscriptions.find(
      (s) => `gid://shopify/AppSubscription/${s.id}` === declined.appSubscription.id,
    )!.status;
    expect(status).toBe('DECLINED');
    const cancel = await shop.graphql<{ appSubscriptionCancel: { appSubscription: { status: string } } }>(
      'mutation X($id: ID!) { appSubscriptionCancel(id: $id) { appSubscription { status } userErrors { message } } }',
      {
        id: (
          await shop.graphql<{ currentAppInstallation: { activeSubscriptions: { id: string }[] } }>(
            '{ currentAppInstallation { activeSubscriptions { id } } }',
          )
        ).body.data!.currentAppInstallation.activeSubscriptions[0]!.id,
      },
    );
    expect(cancel.body.data!.appSubscriptionCancel.appSubscription.status).toBe('CANCELLED');
  });
});
