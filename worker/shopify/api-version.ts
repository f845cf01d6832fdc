// The one place the Admin API version is pinned. Bump it here only.
export const SHOPIFY_API_VERSION = '2026-10';

/**
 * The base URL of a shop's Shopify endpoints. Production: https://<shop>. With SHOPIFY_ORIGIN set (the
 * store emulator), the shop domain becomes the first path segment: <origin>/<shop>. See README.md.
 */
export function shopBaseUrl(env: Pick<Env, 'SHOPIFY_ORIGIN'>, shopDomain: string): string {
  return shopifyHostUrl(env, shopDomain);
}

/** Any Shopify host (a shop, admin.shopify.com) under the same rule: <origin>/<host> or https://<host>. */
export function shopifyHostUrl(env: Pick<Env, 'SHOPIFY_ORIGIN'>, host: string): string {
  const origin = (env.SHOPIFY_ORIGIN ?? '').trim().replace(/\/+$/, '');
  return origin ? `${origin}/${host}` : `https://${host}`;
}

export function graphqlUrl(env: Pick<Env, 'SHOPIFY_ORIGIN'>, shopDomain: string): string {
  return `${shopBaseUrl(env, shopDomain)}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;
}

export function accessTokenUrl(env: Pick<Env, 'SHOPIFY_ORIGIN'>, shopDomain: string): string {
  return `${shopBaseUrl(env, shopDomain)}/admin/oauth/access_token`;
}

export function authorizeUrl(env: Pick<Env, 'SHOPIFY_ORIGIN'>, shopDomain: string): string {
  return `${shopBaseUrl(env, shopDomain)}/admin/oauth/authorize`;
}
