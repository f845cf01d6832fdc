// Our Shopify App Store listing, the one place the admin sends a merchant who reviews outside Shopify's
// admin (decisions.md "Reviews"). The listing's handle is chosen when the listing is created and can
// differ from the app's handle; without APP_STORE_HANDLE it is the app's (SHOPIFY_APP_HANDLE, the copy
// of shopify.app.<env>.toml's `handle`).

/** A handle as Shopify allows it (Shopify CLI, app_config_branding.ts): lowercase letters, digits, '-' and '_'. */
const HANDLE = /^[a-z0-9](?:[a-z0-9_-]*[a-z0-9_])?$/;

type ListingEnv = { SHOPIFY_APP_HANDLE: string; APP_STORE_HANDLE?: string };

/** What is wrong with APP_STORE_HANDLE, or null (empty is fine: the app handle is used). */
export function appStoreHandleProblem(env: ListingEnv): string | null {
  const configured = (env.APP_STORE_HANDLE ?? '').trim();
  return configured && !HANDLE.test(configured)
    ? `APP_STORE_HANDLE must be the listing's handle (as in https://apps.shopify.com/<handle>), not "${configured}"`
    : null;
}

/** https://apps.shopify.com/<listing handle> */
export function appStoreUrl(env: ListingEnv): string {
  const handle = (env.APP_STORE_HANDLE ?? '').trim() || env.SHOPIFY_APP_HANDLE.trim();
  return `https://apps.shopify.com/${encodeURIComponent(handle)}`;
}
