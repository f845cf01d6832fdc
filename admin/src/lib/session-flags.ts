// Banners the merchant closed stay closed for the browser session (review banner, video card,
// promo banner). Storage can be blocked inside third-party iframes: then they simply show again.
import { serverRender } from '../shell/render-env';

const PREFIX = 'closed:';

export function isClosed(name: string): boolean {
  const server = serverRender();
  if (server) {
    server.flagsRead.add(name); // the Worker's render is a session's first visit: nothing closed yet
    return false;
  }
  try {
    return sessionStorage.getItem(PREFIX + name) === '1';
  } catch {
    return false;
  }
}

/** The key a flag is stored under (worker/document-render.ts checks them before the first paint). */
export const flagKey = (name: string) => PREFIX + name;

export function markClosed(name: string): void {
  try {
    sessionStorage.setItem(PREFIX + name, '1');
  } catch {
    // storage blocked: the banner is hidden for this page view only
  }
}

/** Set once the first-run wizard was opened in this session: the dashboard opens it only on the first launch. */
export const GUIDE_OFFERED = 'guide-offered';
