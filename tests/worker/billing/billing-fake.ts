// Shopify's Billing API as the billing tests need it, behind the fetch spy of fake-shopify.ts: a new
// subscription is PENDING until the merchant approves it on the confirmation page; approving replaces
// the app's active subscription; usage records are refused past the capped amount and deduplicated by
// idempotencyKey; a cap raise waits for approval. Mirrors emulator/graphql/mutations-billing.ts.
import { installFakeShopify, type GraphqlCall, type GraphqlReply } from '../shopify/fake-shopify';

type Money = { amount: string; currencyCode: string };
type Line =
  | { id: number; kind: 'recurring'; price: Money; discount: { percentage: number; intervals: number | null } | null }
  | { id: number; kind: 'usage'; cappedAmount: Money; balanceUsed: Money; terms: string };
export type FakeSubscription = {
  id: number;
  name: string;
  status: 'PENDING' | 'ACTIVE' | 'DECLINED' | 'CANCELLED';
  test: boolean;
  returnUrl: string;
  lines: Line[];
  pendingCap: Money | null;
};
export type FakeUsageRecord = { id: number; lineId: number; price: Money; idempotencyKey: string | null };

let nextId = 1000;
const gid = (type: string, id: number) => `gid://shopify/${type}/${id}`;
const idOf = (g: string) => Number(g.slice(g.lastIndexOf('/') + 1));
const money = (m: Money): Money => ({ amount: Number(m.amount).toFixed(2), currencyCode: m.currencyCode });

export function installBillingFake() {
  const subscriptions: FakeSubscription[] = [];
  const usageRecords: FakeUsageRecord[] = [];
  const calls: GraphqlCall[] = [];
  let failUsageRecords = 0;

  const view = (s: FakeSubscription) => ({
    id: gid('AppSubscription', s.id),
    name: s.name,
    status: s.status,
    test: s.test,
    trialDays: 0,
    createdAt: new Date().toISOString(),
    currentPeriodEnd: null,
    lineItems: s.lines.map((l) => ({
      id: gid('AppSubscriptionLineItem', l.id),
      plan: {
        pricingDetails:
          l.kind === 'recurring'
            ? {
                __typename: 'AppRecurringPricing',
                price: l.price,
                interval: 'EVERY_30_DAYS',
                discount: l.discount
                  ? {
                      durationLimitInIntervals: l.discount.intervals,
                      remainingDurationInIntervals: l.discount.intervals,
                      priceAfterDiscount: {
                        amount: (
                          Math.round(Math.round(Number(l.price.amount) * 100) * (1 - l.discount.percentage)) / 100
                        ).toFixed(2),
                        currencyCode: l.price.currencyCode,
                      },
                    }
                  : null,
              }
            : {
                __typename: 'AppUsagePricing',
                cappedAmount: l.cappedAmount,
                balanceUsed: l.balanceUsed,
                terms: l.terms,
                interval: 'EVERY_30_DAYS',
              },
      },
    })),
  });
  const usageLineOf = (lineGid: string) => {
    for (const s of subscriptions) for (const l of s.lines) if (l.id === idOf(lineGid) && l.kind === 'usage') return { s, l };
    return null;
  };
  const userError = (message: string) => [{ field: [], message }];

  function graphql(call: GraphqlCall): GraphqlReply | undefined {
    calls.push(call);
    const v = call.variables as Record<string, any>;
    if (call.query.includes('appSubscriptionCreate(')) {
      const lines: Line[] = (v.lineItems as any[]).map((item) => {
        const r = item.plan.appRecurringPricingDetails;
        if (r)
          return {
            id: nextId++,
            kind: 'recurring',
            price: money(r.price),
            discount: r.discount
              ? { percentage: r.discount.value.percentage, intervals: r.discount.durationLimitInIntervals ?? null }
              : null,
          };
        const u = item.plan.appUsagePricingDetails;
        return {
          id: nextId++,
          kind: 'usage',
          cappedAmount: money(u.cappedAmount),
          balanceUsed: { amount: '0.00', currencyCode: 'USD' },
          terms: u.terms,
        };
      });
      const sub: FakeSubscription = {
        id: nextId++,
        name: v.name,
        status: 'PENDING',
        test: Boolean(v.test),
        returnUrl: v.returnUrl,
        lines,
        pendingCap: null,
      };
      subscriptions.push(sub);
      return {
        data: {
          appSubscriptionCreate: {
            appSubscription: view(sub),
            confirmationUrl: `https://${call.shop}/admin/charges/${sub.id}/confirm`,
            userErrors: [],
          },
        },
      };
    }
    if (call.query.includes('appSubscriptionCancel(')) {
      const sub = subscriptions.find((s) => s.id === idOf(v.id));
      if (!sub || sub.status !== 'ACTIVE')
        return {
          data: { appSubscriptionCancel: { appSubscription: null, userErrors: userError('Subscription is not active') } },
        };
      sub.status = 'CANCELLED';
      return { data: { appSubscriptionCancel: { appSubscription: view(sub), userErrors: [] } } };
    }
    if (call.query.includes('activeSubscriptions')) {
      return {
        data: {
          currentAppInstallation: {
            id: 'gid://shopify/AppInstallation/1',
            activeSubscriptions: subscriptions.filter((s) => s.status === 'ACTIVE').map(view),
          },
        },
      };
    }
    if (call.query.includes('appUsageRecordCreate(')) {
      if (failUsageRecords > 0) {
        failUsageRecords -= 1;
        return { status: 503, data: { errors: 'Unavailable' } };
      }
      const found = usageLineOf(v.subscriptionLineItemId);
      if (!found)
        return { data: { appUsageRecordCreate: { appUsageRecord: null, userErrors: userError('Line item does not exist') } } };
      const existing = usageRecords.find((r) => r.lineId === found.l.id && r.idempotencyKey === v.idempotencyKey);
      const recordView = (r: FakeUsageRecord) => ({
        id: gid('AppUsageRecord', r.id),
        idempotencyKey: r.idempotencyKey,
        createdAt: new Date().toISOString(),
        price: r.price,
      });
      if (existing) return { data: { appUsageRecordCreate: { appUsageRecord: recordView(existing), userErrors: [] } } };
      const line = found.l;
      const used = Number(line.balanceUsed.amount);
      if (used + Number(v.price.amount) > Number(line.cappedAmount.amount) + 1e-9) {
        return {
          data: {
            appUsageRecordCreate: { appUsageRecord: null, userErrors: userError('Total price exceeds balance remaining') },
          },
        };
      }
      line.balanceUsed = { amount: (used + Number(v.price.amount)).toFixed(2), currencyCode: 'USD' };
      const record = { id: nextId++, lineId: line.id, price: money(v.price), idempotencyKey: v.idempotencyKey ?? null };
      usageRecords.push(record);
      return { data: { appUsageRecordCreate: { appUsageRecord: recordView(record), userErrors: [] } } };
    }
    if (call.query.includes('appSubscriptionLineItemUpdate(')) {
      const found = usageLineOf(v.id);
      if (!found)
        return {
          data: {
            appSubscriptionLineItemUpdate: {
              appSubscription: null,
              confirmationUrl: null,
              userErrors: userError('Line item does not exist'),
            },
          },
        };
      found.s.pendingCap = money(v.cappedAmount);
      return {
        data: {
          appSubscriptionLineItemUpdate: {
            appSubscription: view(found.s),
            confirmationUrl: `https://${call.shop}/admin/charges/${found.s.id}/confirm_update_capped_amount`,
            userErrors: [],
          },
        },
      };
    }
    return undefined;
  }

  const fake = installFakeShopify({ graphql, cost: 1 });

  return {
    subscriptions,
    usageRecords,
    calls,
    restore: fake.restore,
    failUsageRecordsNext(times: number) {
      failUsageRecords = times;
    },
    /** The merchant approves or declines on the confirmation page; returns the return URL Shopify opens. */
    decide(confirmationUrl: string, approve: boolean): string {
      const sub = subscriptions.find((s) => s.id === Number(/\/charges\/(\d+)\//.exec(confirmationUrl)?.[1]));
      if (!sub) throw new Error(`no charge for ${confirmationUrl}`);
      if (sub.pendingCap) {
        const line = sub.lines.find((l) => l.kind === 'usage');
        if (approve && line && line.kind === 'usage') line.cappedAmount = sub.pendingCap;
        sub.pendingCap = null;
      } else if (approve) {
        for (const other of subscriptions) if (other !== sub && other.status === 'ACTIVE') other.status = 'CANCELLED';
        sub.status = 'ACTIVE';
      } else sub.status = 'DECLINED';
      const url = new URL(sub.returnUrl);
      url.searchParams.set('charge_id', String(sub.id));
      return url.pathname + url.search;
    },
    /** The app_subscriptions/update webhook body Shopify sends for a subscription. */
    webhookPayload(sub: FakeSubscription) {
      return { app_subscription: { admin_graphql_api_id: gid('AppSubscription', sub.id), name: sub.name, status: sub.status } };
    },
  };
}
