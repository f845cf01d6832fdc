// App Bridge v4 comes from Shopify's CDN (admin/index.html); `window.shopify` is typed by
// @shopify/app-bridge-types. Inside the admin iframe the shell waits briefly for it so the first calls
// carry a session token; outside the iframe, or when the script cannot load (local runs without
// network), the app goes on in standalone mode with the admin token.
import type { ShopifyGlobal } from '@shopify/app-bridge-types';
import { serverRender } from '../shell/render-env';
import { listingReviewsUrl } from './rating';

export const APP_BRIDGE_WAIT_MS = 3000;

/** Inside a frame (Shopify's admin); in the Worker's render of the first screen, whether it is for one. */
export const inIframe = () => serverRender()?.embedded ?? (typeof window !== 'undefined' && window.top !== window.self);

/** App Bridge, only when the app runs embedded in the admin with the script loaded; null in standalone mode. */
export function appBridge(): ShopifyGlobal | null {
  if (!inIframe() || typeof window === 'undefined') return null;
  // The global exists only once the CDN script ran; its type says it always does.
  const shopify = (window as { shopify?: ShopifyGlobal }).shopify;
  return typeof shopify?.idToken === 'function' ? shopify : null;
}

export function waitForAppBridge(timeoutMs = APP_BRIDGE_WAIT_MS): Promise<boolean> {
  const ready = () => appBridge() !== null;
  if (!inIframe()) return Promise.resolve(false);
  if (ready()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const started = Date.now();
    const id = setInterval(() => {
      if (ready() || Date.now() - started >= timeoutMs) {
        clearInterval(id);
        resolve(ready());
      }
    }, 50);
  });
}

/** Opens a URL in the top frame when embedded (billing confirmation pages refuse to load in iframes). */
export function openTop(url: string): void {
  if (inIframe()) window.open(url, '_top');
  else window.location.assign(url);
}

/**
 * Shows a toast in the admin's own toast area when embedded (the app's iframe may be scrolled or
 * small); returns false in standalone mode, where the Polaris toast is used.
 */
export function showAdminToast(content: string, opts: { error?: boolean; duration?: number } = {}): boolean {
  const shopify = appBridge();
  if (!shopify?.toast) return false;
  shopify.toast.show(content, { isError: opts.error ?? false, duration: opts.duration ?? 3000 });
  return true;
}

/** Declines after which the listing page is not offered instead: the merchant already saw or left the modal. */
const FINAL_DECLINES = new Set(['already-reviewed', 'already-open', 'open-in-progress', 'cancelled']);

/**
 * Offers the public review: embedded, Shopify's own review modal (`shopify.reviews.request()`);
 * standalone, or when Shopify declines to show the modal for another reason (cooldown, mobile app...),
 * the reviews page of `listingUrl` (our App Store listing, GET /app-config) in a new tab; without one
 * (the configuration did not load) there is no page to offer. Resolves with where the merchant was sent.
 */
export async function requestPublicReview(listingUrl: string | null): Promise<'modal' | 'listing' | 'declined'> {
  const reviews = appBridge()?.reviews;
  if (reviews) {
    try {
      const result = await reviews.request();
      if (result.success) return 'modal';
      if (FINAL_DECLINES.has(result.code)) return 'declined';
    } catch {
      // an App Bridge without the reviews API: the listing page below
    }
  }
  if (!listingUrl) return 'declined';
  window.open(listingReviewsUrl(listingUrl), '_blank', 'noopener');
  return 'listing';
}
