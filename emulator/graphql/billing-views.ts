// Views of app subscriptions, line items and usage records (Shopify Billing API shapes).
import type { RecurringDiscount, SubscriptionLine, SubscriptionRec, UsageRecordRec } from '../store/types';
import { connection, type PageArgs } from './connection';
import type { Ctx } from './context';
import { gid } from './ids';

type View = Record<string, unknown>;

function discountView(d: RecurringDiscount | null): View | null {
  if (!d) return null;
  return {
    durationLimitInIntervals: d.durationLimitInIntervals,
    remainingDurationInIntervals: d.remainingDurationInIntervals,
    priceAfterDiscount: d.priceAfterDiscount,
    value:
      'percentage' in d.value
        ? { __typename: 'AppSubscriptionDiscountPercentage', percentage: d.value.percentage }
        : { __typename: 'AppSubscriptionDiscountAmount', amount: d.value.amount },
  };
}

export function lineItemView(ctx: Ctx, sub: SubscriptionRec, line: SubscriptionLine): View {
  const pricingDetails =
    line.kind === 'recurring'
      ? { __typename: 'AppRecurringPricing', price: line.price, interval: line.interval, discount: discountView(line.discount) }
      : {
          __typename: 'AppUsagePricing',
          cappedAmount: line.cappedAmount,
          balanceUsed: line.balanceUsed,
          terms: line.terms,
          interval: 'EVERY_30_DAYS',
        };
  return {
    // Shopify's line item ids carry the subscription in a query string: AppSubscriptionLineItem/<id>?v=1&index=<n>
    id: gid('AppSubscriptionLineItem', `${line.id}?v=1&index=${sub.lineItems.indexOf(line)}`),
    plan: { pricingDetails },
    usageRecords: (a: PageArgs) =>
      connection(
        ctx,
        ctx.shop.usageRecords.filter((r) => r.lineItemId === line.id),
        a,
        (r) => usageRecordView(ctx, r),
      ),
  };
}

export function subscriptionView(ctx: Ctx, sub: SubscriptionRec): View {
  return {
    __typename: 'AppSubscription',
    id: gid('AppSubscription', sub.id),
    name: sub.name,
    status: sub.status,
    test: sub.test,
    trialDays: sub.trialDays,
    returnUrl: sub.returnUrl,
    createdAt: sub.createdAt,
    currentPeriodEnd: sub.currentPeriodEnd,
    lineItems: () => sub.lineItems.map((l) => lineItemView(ctx, sub, l)),
  };
}

export function usageRecordView(ctx: Ctx, r: UsageRecordRec): View {
  return {
    __typename: 'AppUsageRecord',
    id: gid('AppUsageRecord', r.id),
    createdAt: r.createdAt,
    description: r.description,
    idempotencyKey: r.idempotencyKey,
    price: r.price,
    subscriptionLineItem: () => {
      const sub = ctx.shop.subscriptions.find((s) => s.lineItems.some((l) => l.id === r.lineItemId))!;
      return lineItemView(
        ctx,
        sub,
        sub.lineItems.find((l) => l.id === r.lineItemId)!,
      );
    },
  };
}

export function findLineItem(ctx: Ctx, lineId: number): { sub: SubscriptionRec; line: SubscriptionLine } | null {
  for (const sub of ctx.shop.subscriptions) {
    const line = sub.lineItems.find((l) => l.id === lineId);
    if (line) return { sub, line };
  }
  return null;
}
