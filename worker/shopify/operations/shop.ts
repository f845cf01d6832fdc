import type { AdminClient } from '../graphql-client';

export type ShopInfo = {
  id: string;
  name: string;
  email: string;
  contactEmail: string;
  shopOwnerName: string;
  myshopifyDomain: string;
  primaryDomainUrl: string;
  planName: string;
  isDevelopmentStore: boolean;
  currencyCode: string;
  /** The primary published shop locale, e.g. "de" or "pt-BR". */
  primaryLocale: string;
};

export const SHOP_INFO = /* GraphQL */ `
  query ShopInfo {
    shop {
      id
      name
      email
      contactEmail
      shopOwnerName
      myshopifyDomain
      currencyCode
      primaryDomain { url host }
      plan { publicDisplayName partnerDevelopment shopifyPlus }
    }
    shopLocales(published: true) { locale primary }
  }
`;

type ShopInfoData = {
  shop: {
    id: string;
    name: string;
    email: string;
    contactEmail: string;
    shopOwnerName: string;
    myshopifyDomain: string;
    currencyCode: string;
    primaryDomain: { url: string; host: string };
    plan: { publicDisplayName: string; partnerDevelopment: boolean; shopifyPlus: boolean };
  };
  shopLocales: { locale: string; primary: boolean }[];
};

export async function getShopInfo(client: AdminClient): Promise<ShopInfo> {
  const d = await client.request<ShopInfoData>(SHOP_INFO);
  const primary = d.shopLocales.find((l) => l.primary) ?? d.shopLocales[0];
  return {
    id: d.shop.id,
    name: d.shop.name,
    email: d.shop.email,
    contactEmail: d.shop.contactEmail,
    shopOwnerName: d.shop.shopOwnerName,
    myshopifyDomain: d.shop.myshopifyDomain,
    primaryDomainUrl: d.shop.primaryDomain.url,
    planName: d.shop.plan.publicDisplayName,
    isDevelopmentStore: d.shop.plan.partnerDevelopment,
    currencyCode: d.shop.currencyCode,
    primaryLocale: primary?.locale ?? 'en',
  };
}

export const SHOP_PLAN = /* GraphQL */ `
  query ShopPlan {
    shop { plan { partnerDevelopment } }
  }
`;

/** Whether Shopify calls this a partner development store (it can only accept test charges). */
export async function isPartnerDevelopmentShop(client: AdminClient): Promise<boolean> {
  const d = await client.request<{ shop: { plan: { partnerDevelopment: boolean } } }>(SHOP_PLAN);
  return d.shop.plan.partnerDevelopment === true;
}

export const SHOP_ID = /* GraphQL */ `
  query ShopId {
    shop { id }
  }
`;

/** The cheapest authenticated question: whether Shopify still accepts the shop's token (worker/webhooks/grant.ts). */
export async function getShopId(client: AdminClient): Promise<string> {
  const d = await client.request<{ shop: { id: string } }>(SHOP_ID);
  return d.shop.id;
}
