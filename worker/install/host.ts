// Shopify's `host` launch parameter: base64url of the admin the app is opened in, today
// `admin.shopify.com/store/<store>` (unified admin), formerly `<shop>.myshopify.com/admin`.
import { isShopDomain } from '../auth/session-token';

/** The unified admin's form; the store handle is group 1. */
export const UNIFIED_ADMIN_HOST = /^admin\.shopify\.com\/store\/([a-z0-9][a-z0-9-]*)$/;
const LEGACY_ADMIN_HOST = /^([a-z0-9][a-z0-9-]*\.myshopify\.com)\/admin$/;

/** The decoded `host`; '' when there is none or it is not base64. */
export function decodeHost(host: string | null | undefined): string {
  if (!host) return '';
  try {
    return atob(host.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return '';
  }
}

/** The myshopify domain a `host` names, or null. */
export function shopFromHost(host: string | null | undefined): string | null {
  const decoded = decodeHost(host);
  const unified = UNIFIED_ADMIN_HOST.exec(decoded);
  if (unified) return `${unified[1]}.myshopify.com`;
  const legacy = LEGACY_ADMIN_HOST.exec(decoded)?.[1];
  return legacy && isShopDomain(legacy) ? legacy : null;
}
