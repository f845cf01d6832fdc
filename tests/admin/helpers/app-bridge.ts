import type { ShopifyGlobal } from '@shopify/app-bridge-types';

// A partial App Bridge for admin tests: the parts a test needs, typed against @shopify/app-bridge-types,
// and a top window that differs from the app's own so the app believes it is framed by the admin.
const realTop = Object.getOwnPropertyDescriptor(window, 'top');

export function embedWithAppBridge(parts: Partial<ShopifyGlobal>): void {
  Object.defineProperty(window, 'top', { configurable: true, value: {} });
  (window as { shopify?: Partial<ShopifyGlobal> }).shopify = parts;
}

export function leaveAdmin(): void {
  delete (window as { shopify?: unknown }).shopify;
  if (realTop) Object.defineProperty(window, 'top', realTop);
}
