// Banners the merchant closed stay closed for the browser session (review banner, video card,
// promo banner). Storage can be blocked inside third-party iframes: then they simply show again.
const PREFIX = 'closed:';

export function isClosed(name: string): boolean {
  try {
    return sessionStorage.getItem(PREFIX + name) === '1';
  } catch {
    return false;
  }
}

export function markClosed(name: string): void {
  try {
    sessionStorage.setItem(PREFIX + name, '1');
  } catch {
    // storage blocked: the banner is hidden for this page view only
  }
}

/** Set once the first-run wizard was opened in this session: the dashboard opens it only on the first launch. */
export const GUIDE_OFFERED = 'guide-offered';
