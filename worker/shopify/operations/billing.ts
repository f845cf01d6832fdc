// App billing through Shopify: a 30-day recurring plan plus a capped usage line for overage.
import { throwOnUserErrors, type UserError } from '../errors';
import type { AdminClient } from '../graphql-client';

export type Money = { amount: string; currencyCode: string };

/** AppSubscriptionDiscount: what the recurring line bills while the discount lasts. */
export type SubscriptionDiscount = {
  durationLimitInIntervals: number | null;
  remainingDurationInIntervals: number | null;
  priceAfterDiscount: Money;
};

export type SubscriptionLineItem = {
  id: string;
  plan: {
    pricingDetails:
      | { __typename: 'AppRecurringPricing'; price: Money; interval: string; discount: SubscriptionDiscount | null }
      | { __typename: 'AppUsagePricing'; cappedAmount: Money; balanceUsed: Money; terms: string; interval: string };
  };
};

export type AppSubscription = {
  id: string;
  name: string;
  /** AppSubscriptionStatus: PENDING, ACTIVE, DECLINED, EXPIRED, FROZEN, CANCELLED, ACCEPTED; a string, as Shopify may add values. */
  status: string;
  test: boolean;
  trialDays: number;
  createdAt: string;
  currentPeriodEnd: string | null;
  lineItems: SubscriptionLineItem[];
};

const SUBSCRIPTION_FIELDS = /* GraphQL */ `
  id name status test trialDays createdAt currentPeriodEnd
  lineItems {
    id
    plan {
      pricingDetails {
        __typename
        ... on AppRecurringPricing {
          price { amount currencyCode } interval
          discount { durationLimitInIntervals remainingDurationInIntervals priceAfterDiscount { amount currencyCode } }
        }
        ... on AppUsagePricing { cappedAmount { amount currencyCode } balanceUsed { amount currencyCode } terms interval }
      }
    }
  }
`;

export const SUBSCRIPTION_CREATE = /* GraphQL */ `
  mutation AppSubscriptionCreate($name: String!, $returnUrl: URL!, $lineItems: [AppSubscriptionLineItemInput!]!, $trialDays: Int, $test: Boolean, $replacementBehavior: AppSubscriptionReplacementBehavior) {
    appSubscriptionCreate(name: $name, returnUrl: $returnUrl, lineItems: $lineItems, trialDays: $trialDays, test: $test, replacementBehavior: $replacementBehavior) {
      appSubscription { ${SUBSCRIPTION_FIELDS} }
      confirmationUrl
      userErrors { field message }
    }
  }
`;

export type CreateSubscriptionArgs = {
  name: string;
  returnUrl: string;
  /** Price per 30 days. */
  price: Money;
  /** Optional capped usage line (overage). */
  usage?: { cappedAmount: Money; terms: string };
  trialDays?: number;
  /** New-user discount on the recurring line: a percentage (0-1) or a fixed amount, for N billing cycles. */
  discount?: { percentage?: number; amount?: number; durationLimitInIntervals?: number };
  test: boolean;
  replacementBehavior?: 'APPLY_IMMEDIATELY' | 'APPLY_ON_NEXT_BILLING_CYCLE' | 'STANDARD';
};

/** Creates a subscription; the merchant approves it at `confirmationUrl`, then Shopify returns to returnUrl. */
export async function createAppSubscription(
  client: AdminClient,
  args: CreateSubscriptionArgs,
): Promise<{ subscription: AppSubscription; confirmationUrl: string }> {
  const recurring: Record<string, unknown> = { price: args.price, interval: 'EVERY_30_DAYS' };
  if (args.discount) {
    recurring.discount = {
      ...(args.discount.durationLimitInIntervals ? { durationLimitInIntervals: args.discount.durationLimitInIntervals } : {}),
      value: args.discount.percentage != null ? { percentage: args.discount.percentage } : { amount: args.discount.amount },
    };
  }
  const lineItems: Record<string, unknown>[] = [{ plan: { appRecurringPricingDetails: recurring } }];
  if (args.usage)
    lineItems.push({ plan: { appUsagePricingDetails: { cappedAmount: args.usage.cappedAmount, terms: args.usage.terms } } });
  const d = await client.request<{
    appSubscriptionCreate: { appSubscription: AppSubscription | null; confirmationUrl: string | null; userErrors: UserError[] };
  }>(SUBSCRIPTION_CREATE, {
    name: args.name,
    returnUrl: args.returnUrl,
    lineItems,
    trialDays: args.trialDays ?? null,
    test: args.test,
    replacementBehavior: args.replacementBehavior ?? null,
  });
  throwOnUserErrors('appSubscriptionCreate', d.appSubscriptionCreate);
  const { appSubscription, confirmationUrl } = d.appSubscriptionCreate;
  if (!appSubscription || !confirmationUrl) throw new Error('appSubscriptionCreate returned no subscription');
  return { subscription: appSubscription, confirmationUrl };
}

export const SUBSCRIPTION_CANCEL = /* GraphQL */ `
  mutation AppSubscriptionCancel($id: ID!, $prorate: Boolean) {
    appSubscriptionCancel(id: $id, prorate: $prorate) {
      appSubscription { ${SUBSCRIPTION_FIELDS} }
      userErrors { field message }
    }
  }
`;

export async function cancelAppSubscription(client: AdminClient, id: string, prorate = false): Promise<AppSubscription> {
  const d = await client.request<{ appSubscriptionCancel: { appSubscription: AppSubscription | null; userErrors: UserError[] } }>(
    SUBSCRIPTION_CANCEL,
    { id, prorate },
  );
  throwOnUserErrors('appSubscriptionCancel', d.appSubscriptionCancel);
  if (!d.appSubscriptionCancel.appSubscription) throw new Error('appSubscriptionCancel returned no subscription');
  return d.appSubscriptionCancel.appSubscription;
}

export const ACTIVE_SUBSCRIPTIONS = /* GraphQL */ `
  query ActiveSubscriptions { currentAppInstallation { id activeSubscriptions { ${SUBSCRIPTION_FIELDS} } } }
`;

export async function getActiveSubscriptions(client: AdminClient): Promise<AppSubscription[]> {
  const d = await client.request<{ currentAppInstallation: { activeSubscriptions: AppSubscription[] } }>(ACTIVE_SUBSCRIPTIONS);
  return d.currentAppInstallation.activeSubscriptions;
}

export const USAGE_RECORD_CREATE = /* GraphQL */ `
  mutation AppUsageRecordCreate($subscriptionLineItemId: ID!, $price: MoneyInput!, $description: String!, $idempotencyKey: String) {
    appUsageRecordCreate(subscriptionLineItemId: $subscriptionLineItemId, price: $price, description: $description, idempotencyKey: $idempotencyKey) {
      appUsageRecord { id idempotencyKey createdAt price { amount currencyCode } }
      userErrors { field message }
    }
  }
`;

export type UsageRecord = { id: string; idempotencyKey: string | null; createdAt: string; price: Money };

/**
 * Records an overage charge on the usage line. The idempotencyKey (max 255 chars) makes a retry return
 * the same record instead of charging twice. Exceeding the capped amount is a ShopifyUserError.
 */
export async function createUsageRecord(
  client: AdminClient,
  args: { subscriptionLineItemId: string; price: Money; description: string; idempotencyKey: string },
): Promise<UsageRecord> {
  const d = await client.request<{ appUsageRecordCreate: { appUsageRecord: UsageRecord | null; userErrors: UserError[] } }>(
    USAGE_RECORD_CREATE,
    args,
  );
  throwOnUserErrors('appUsageRecordCreate', d.appUsageRecordCreate);
  if (!d.appUsageRecordCreate.appUsageRecord) throw new Error('appUsageRecordCreate returned no record');
  return d.appUsageRecordCreate.appUsageRecord;
}

export const LINE_ITEM_UPDATE = /* GraphQL */ `
  mutation AppSubscriptionLineItemUpdate($id: ID!, $cappedAmount: MoneyInput!) {
    appSubscriptionLineItemUpdate(id: $id, cappedAmount: $cappedAmount) {
      appSubscription { ${SUBSCRIPTION_FIELDS} }
      confirmationUrl
      userErrors { field message }
    }
  }
`;

/** Raises the usage cap; the merchant must approve the new cap at confirmationUrl. */
export async function updateUsageCap(
  client: AdminClient,
  args: { lineItemId: string; cappedAmount: Money },
): Promise<{ subscription: AppSubscription | null; confirmationUrl: string | null }> {
  const d = await client.request<{
    appSubscriptionLineItemUpdate: {
      appSubscription: AppSubscription | null;
      confirmationUrl: string | null;
      userErrors: UserError[];
    };
  }>(LINE_ITEM_UPDATE, { id: args.lineItemId, cappedAmount: args.cappedAmount });
  throwOnUserErrors('appSubscriptionLineItemUpdate', d.appSubscriptionLineItemUpdate);
  return {
    subscription: d.appSubscriptionLineItemUpdate.appSubscription,
    confirmationUrl: d.appSubscriptionLineItemUpdate.confirmationUrl,
  };
}
