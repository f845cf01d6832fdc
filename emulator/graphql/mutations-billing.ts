// Billing: appSubscriptionCreate / Cancel / LineItemUpdate, appUsageRecordCreate, with Shopify's rules:
// a new subscription is PENDING until the merchant approves it on the confirmation page; a discount on
// the recurring line lowers what each of its intervals bills (the confirmation page, the subscription's
// `discount` and the recurring charges all show it); usage records are refused beyond the capped amount
// and deduplicated by idempotencyKey.
import { GraphQLError } from 'graphql';
import { isoNow } from '../store/registry';
import type { ShopState } from '../store/shop-state';
import type {
  Money,
  RecurringChargeRec,
  RecurringDiscount,
  RecurringLine,
  SubscriptionLine,
  SubscriptionRec,
} from '../store/types';
import { enqueueWebhook, subscriptionPayload } from '../webhooks';
import { findLineItem, subscriptionView, usageRecordView } from './billing-views';
import type { Ctx } from './context';
import { parseGid } from './ids';

type DiscountInput = {
  durationLimitInIntervals?: number | null;
  value?: { amount?: string | number | null; percentage?: number | null } | null;
};

type LineInput = {
  plan: {
    appRecurringPricingDetails?: {
      price: Money;
      interval?: 'EVERY_30_DAYS' | 'ANNUAL';
      discount?: DiscountInput | null;
    } | null;
    appUsagePricingDetails?: { cappedAmount: Money; terms: string } | null;
  };
};

export function confirmationUrl(ctx: Ctx, chargeId: number, kind: 'RecurringApplicationCharge' | 'UpdateCappedAmount'): string {
  const signature = Buffer.from(JSON.stringify({ charge: chargeId, shop: ctx.shop.domain })).toString('base64url');
  const base = `${ctx.emu.origin}/${ctx.shop.domain}/admin/charges/${encodeURIComponent(ctx.emu.app.apiKey)}/${chargeId}`;
  return kind === 'RecurringApplicationCharge'
    ? `${base}/RecurringApplicationCharge/confirm_recurring_application_charge?signature=${signature}`
    : `${base}/RecurringApplicationCharge/confirm_update_capped_amount?signature=${signature}`;
}

function money(m: Money): Money {
  return { amount: Number(m.amount).toFixed(2), currencyCode: m.currencyCode };
}

const cents = (amount: string | number) => Math.round(Number(amount) * 100);

type UserErrorOut = { field: string[]; message: string };

/**
 * AppSubscriptionDiscountInput on a recurring line, as the published schema describes it: `value` is a
 * percentage (a fraction: 0.2 is 20 % off, as shopify-app-js's billing config sends it) or a fixed
 * amount off every billing interval; `durationLimitInIntervals` (greater than 0) limits it to that many
 * intervals, blank means indefinitely. `priceAfterDiscount` is the price billed while it lasts.
 */
function readDiscount(input: DiscountInput, price: Money, errors: UserErrorOut[]): RecurringDiscount | null {
  const field = ['lineItems', 'plan', 'appRecurringPricingDetails', 'discount'];
  const amount = input.value?.amount ?? null;
  const percentage = input.value?.percentage ?? null;
  const limit = input.durationLimitInIntervals ?? null;
  if ((amount === null) === (percentage === null)) {
    errors.push({ field: [...field, 'value'], message: 'Discount value must have either an amount or a percentage' });
    return null;
  }
  if (limit !== null && limit <= 0) {
    errors.push({ field: [...field, 'durationLimitInIntervals'], message: 'Duration limit in intervals must be greater than 0' });
    return null;
  }
  const priceCents = cents(price.amount);
  let afterCents: number;
  let value: RecurringDiscount['value'];
  if (percentage !== null) {
    if (!(percentage > 0 && percentage <= 1)) {
      errors.push({
        field: [...field, 'value', 'percentage'],
        message: 'Discount percentage must be greater than 0 and at most 1',
      });
      return null;
    }
    afterCents = Math.round(priceCents * (1 - percentage));
    value = { percentage };
  } else {
    const off = cents(amount!);
    if (!(off > 0 && off <= priceCents)) {
      errors.push({
        field: [...field, 'value', 'amount'],
        message: 'Discount amount must be greater than 0 and not more than the price',
      });
      return null;
    }
    afterCents = priceCents - off;
    value = { amount: { amount: (off / 100).toFixed(2), currencyCode: price.currencyCode } };
  }
  return {
    value,
    durationLimitInIntervals: limit,
    remainingDurationInIntervals: limit,
    priceAfterDiscount: { amount: (afterCents / 100).toFixed(2), currencyCode: price.currencyCode },
  };
}

/**
 * Bills the next interval of a subscription's recurring line on the shop's bill: the discounted price
 * while the discount has intervals left (one is used up), the full price after. Approval bills the first
 * interval (no trial here); the control API's next-cycle bills the following ones.
 */
export function billRecurringInterval(shop: ShopState, sub: SubscriptionRec, periodStart: string, periodEnd: string, id: number) {
  const line = sub.lineItems.find((l): l is RecurringLine => l.kind === 'recurring');
  if (!line) return null;
  const d = line.discount;
  const discounted = d !== null && (d.remainingDurationInIntervals === null || d.remainingDurationInIntervals > 0);
  if (d && discounted && d.remainingDurationInIntervals !== null) d.remainingDurationInIntervals -= 1;
  const charge: RecurringChargeRec = {
    id,
    subscriptionId: sub.id,
    lineItemId: line.id,
    amount: discounted ? d.priceAfterDiscount : line.price,
    price: line.price,
    discounted,
    periodStart,
    periodEnd,
    createdAt: isoNow(),
  };
  shop.recurringCharges.push(charge);
  return charge;
}

export function appSubscriptionCreate(
  args: { name: string; lineItems: LineInput[]; returnUrl: string; test?: boolean | null; trialDays?: number | null },
  ctx: Ctx,
) {
  const errors: UserErrorOut[] = [];
  if (!args.name.trim()) errors.push({ field: ['name'], message: "Name can't be blank" });
  if (args.lineItems.length === 0 || args.lineItems.length > 2)
    errors.push({ field: ['lineItems'], message: 'Line items must have between 1 and 2 items' });
  if (!/^https?:\/\//.test(args.returnUrl)) errors.push({ field: ['returnUrl'], message: 'Return url is invalid' });
  const lines: SubscriptionLine[] = [];
  for (const item of args.lineItems) {
    const r = item.plan.appRecurringPricingDetails;
    const u = item.plan.appUsagePricingDetails;
    if (r) {
      const price = money(r.price);
      lines.push({
        id: ctx.emu.nextId(),
        kind: 'recurring',
        price,
        interval: r.interval ?? 'EVERY_30_DAYS',
        discount: r.discount ? readDiscount(r.discount, price, errors) : null,
      });
    } else if (u) {
      if (Number(u.cappedAmount.amount) <= 0)
        errors.push({
          field: ['lineItems', 'plan', 'appUsagePricingDetails', 'cappedAmount'],
          message: 'Capped amount must be greater than 0',
        });
      lines.push({
        id: ctx.emu.nextId(),
        kind: 'usage',
        cappedAmount: money(u.cappedAmount),
        balanceUsed: { amount: '0.00', currencyCode: u.cappedAmount.currencyCode },
        terms: u.terms,
        pendingCappedAmount: null,
      });
    } else errors.push({ field: ['lineItems', 'plan'], message: 'Plan must have pricing details' });
  }
  // Development stores, and stores Shopify lets make only test charges, refuse a real charge.
  if (!args.test && (ctx.shop.partnerDevelopment || ctx.shop.settings.testChargesOnly))
    errors.push({ field: [], message: 'The shop cannot accept the provided charge.' });
  if (errors.length) return { appSubscription: null, confirmationUrl: null, userErrors: errors };
  const sub: SubscriptionRec = {
    id: ctx.emu.nextId(),
    name: args.name,
    status: 'PENDING',
    test: Boolean(args.test),
    returnUrl: args.returnUrl,
    trialDays: args.trialDays ?? 0,
    lineItems: lines,
    createdAt: isoNow(),
    currentPeriodEnd: null,
    pendingLineItemUpdate: null,
  };
  ctx.shop.subscriptions.push(sub);
  return {
    appSubscription: subscriptionView(ctx, sub),
    confirmationUrl: confirmationUrl(ctx, sub.id, 'RecurringApplicationCharge'),
    userErrors: [],
  };
}

export function appSubscriptionCancel(args: { id: string }, ctx: Ctx) {
  const sub = ctx.shop.subscriptions.find((s) => s.id === parseGid(args.id, 'AppSubscription'));
  if (!sub)
    return { appSubscription: null, userErrors: [{ field: ['id'], message: "Couldn't find RecurringApplicationCharge" }] };
  if (sub.status !== 'ACTIVE' && sub.status !== 'ACCEPTED' && sub.status !== 'FROZEN') {
    return {
      appSubscription: null,
      userErrors: [{ field: ['id'], message: 'Subscription is not active and cannot be cancelled' }],
    };
  }
  sub.status = 'CANCELLED';
  enqueueWebhook(ctx.emu, ctx.shop, 'app_subscriptions/update', subscriptionPayload(ctx.shop, sub));
  return { appSubscription: subscriptionView(ctx, sub), userErrors: [] };
}

export function appSubscriptionLineItemUpdate(args: { id: string; cappedAmount: Money }, ctx: Ctx) {
  const found = findLineItem(ctx, parseGid(args.id, 'AppSubscriptionLineItem') ?? -1);
  if (!found)
    return { appSubscription: null, confirmationUrl: null, userErrors: [{ field: ['id'], message: 'Line item does not exist' }] };
  const { sub, line } = found;
  if (line.kind !== 'usage')
    return {
      appSubscription: null,
      confirmationUrl: null,
      userErrors: [{ field: ['id'], message: 'Only usage line items have a capped amount' }],
    };
  if (sub.status !== 'ACTIVE')
    return {
      appSubscription: null,
      confirmationUrl: null,
      userErrors: [{ field: ['id'], message: 'The subscription is not active' }],
    };
  if (Number(args.cappedAmount.amount) <= Number(line.cappedAmount.amount)) {
    return {
      appSubscription: null,
      confirmationUrl: null,
      userErrors: [{ field: ['cappedAmount'], message: 'The capped amount must be greater than the existing capped amount' }],
    };
  }
  sub.pendingLineItemUpdate = { lineItemId: line.id, cappedAmount: money(args.cappedAmount) };
  return {
    appSubscription: subscriptionView(ctx, sub),
    confirmationUrl: confirmationUrl(ctx, sub.id, 'UpdateCappedAmount'),
    userErrors: [],
  };
}

export function appUsageRecordCreate(
  args: { subscriptionLineItemId: string; price: Money; description: string; idempotencyKey?: string | null },
  ctx: Ctx,
) {
  const lineId = parseGid(args.subscriptionLineItemId, 'AppSubscriptionLineItem');
  const found = lineId === null ? null : findLineItem(ctx, lineId);
  if (!found || found.line.kind !== 'usage') {
    return {
      appUsageRecord: null,
      userErrors: [
        { field: ['subscriptionLineItemId'], message: 'Subscription line item does not exist or has no usage pricing' },
      ],
    };
  }
  const { sub, line } = found;
  if (args.idempotencyKey && args.idempotencyKey.length > 255)
    throw new GraphQLError('idempotencyKey is too long (maximum is 255 characters)');
  const existing = args.idempotencyKey
    ? ctx.shop.usageRecords.find((r) => r.lineItemId === line.id && r.idempotencyKey === args.idempotencyKey)
    : undefined;
  if (existing) return { appUsageRecord: usageRecordView(ctx, existing), userErrors: [] };
  if (sub.status !== 'ACTIVE')
    return {
      appUsageRecord: null,
      userErrors: [{ field: ['subscriptionLineItemId'], message: 'The subscription is not active' }],
    };
  const price = money(args.price);
  const used = Number(line.balanceUsed.amount);
  if (Number(price.amount) <= 0)
    return { appUsageRecord: null, userErrors: [{ field: ['price'], message: 'Price must be greater than 0' }] };
  if (used + Number(price.amount) > Number(line.cappedAmount.amount) + 1e-9) {
    return { appUsageRecord: null, userErrors: [{ field: [], message: 'Total price exceeds balance remaining' }] };
  }
  line.balanceUsed = { amount: (used + Number(price.amount)).toFixed(2), currencyCode: price.currencyCode };
  const record = {
    id: ctx.emu.nextId(),
    lineItemId: line.id,
    description: args.description,
    price,
    idempotencyKey: args.idempotencyKey ?? null,
    createdAt: isoNow(),
  };
  ctx.shop.usageRecords.push(record);
  return { appUsageRecord: usageRecordView(ctx, record), userErrors: [] };
}

/** Approve or decline from the confirmation page; returns where Shopify sends the merchant next. */
export function decideCharge(ctx: Ctx, chargeId: number, approve: boolean): string | null {
  const sub = ctx.shop.subscriptions.find((s) => s.id === chargeId);
  if (!sub) return null;
  if (sub.pendingLineItemUpdate) {
    if (approve) {
      const line = sub.lineItems.find((l) => l.id === sub.pendingLineItemUpdate!.lineItemId);
      if (line && line.kind === 'usage') line.cappedAmount = sub.pendingLineItemUpdate.cappedAmount;
    }
    sub.pendingLineItemUpdate = null;
  } else if (sub.status === 'PENDING') {
    if (approve) {
      // Approving a new plan replaces the app's current subscription.
      for (const other of ctx.shop.subscriptions) {
        if (other !== sub && other.status === 'ACTIVE') {
          other.status = 'CANCELLED';
          enqueueWebhook(ctx.emu, ctx.shop, 'app_subscriptions/update', subscriptionPayload(ctx.shop, other));
        }
      }
      sub.status = 'ACTIVE';
      sub.currentPeriodEnd = isoNow((30 + sub.trialDays) * 86_400_000);
      // No trial here: the first interval is billed at approval (at the discounted price while it lasts).
      if (!sub.trialDays) billRecurringInterval(ctx.shop, sub, isoNow(), sub.currentPeriodEnd, ctx.emu.nextId());
    } else sub.status = 'DECLINED';
    enqueueWebhook(ctx.emu, ctx.shop, 'app_subscriptions/update', subscriptionPayload(ctx.shop, sub));
  }
  const url = new URL(sub.returnUrl);
  url.searchParams.set('charge_id', String(sub.id));
  return url.toString();
}
