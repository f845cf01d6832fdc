// How the admin proves who it is. Embedded in Shopify's admin, App Bridge v4 patches fetch to add a
// fresh session token to same-origin requests. Outside the frame, the per-shop admin token (authToken)
// is read from the query string or storage and kept only if it is at least 32 characters long.
//
// Where the admin token is kept (issue 25, item 10): in this tab's sessionStorage, never localStorage. A
// script that got into the page could read either, but sessionStorage holds the token only while the
// tab is open and only for that tab: a later injection, another tab, or anything reading the browser
// profile on disk does not find a 30-day credential. The tab keeps it across reloads and same-tab trips
// (Shopify's billing approval, re-authorisation, in-app links); a new tab or a browser restart opens the
// app again from the merchant's link (Settings > Admin tokens) or from Shopify's admin. Only memory would
// be tighter, but a reload would then lose the session the address bar no longer carries. The embedded
// admin keeps nothing: it asks App Bridge for a one-minute session token per request.
import { i18next } from '../i18n';
import { serverRender } from '../shell/render-env';

export const MIN_AUTH_TOKEN_LENGTH = 32;
const STORAGE_KEY = 'authToken';

// `window.shopify` is typed by @shopify/app-bridge-types (admin/tsconfig.json); it exists only once App Bridge loaded.

export function isEmbedded(): boolean {
  const server = serverRender();
  if (server) return server.embedded;
  return typeof window !== 'undefined' && window.top !== window.self && typeof window.shopify?.idToken === 'function';
}

/**
 * Before issue 25 the token sat in localStorage for 30 days: the first read moves it into this tab and
 * removes the lasting copy.
 */
function moveLegacyToken(): void {
  try {
    const legacy = localStorage.getItem(STORAGE_KEY);
    if (legacy === null) return;
    localStorage.removeItem(STORAGE_KEY);
    if (sessionStorage.getItem(STORAGE_KEY) === null) sessionStorage.setItem(STORAGE_KEY, legacy);
  } catch {
    // storage blocked: nothing was kept there
  }
}

function storedToken(): string | null {
  moveLegacyToken();
  try {
    const stored = sessionStorage.getItem(STORAGE_KEY);
    return stored && stored.length >= MIN_AUTH_TOKEN_LENGTH ? stored : null;
  } catch {
    return null;
  }
}

/**
 * Reads authToken from the URL (and stores it) or from storage. A link carrying another token than the
 * stored one may move the merchant into another shop (their uploads and messages would land there): the
 * merchant is asked first (issue 25, item 9); declining keeps the stored token and drops the link's.
 */
export function readAuthToken(search: string = typeof location === 'undefined' ? '' : location.search): string | null {
  const server = serverRender();
  if (server) return server.authToken;
  const fromQuery = new URLSearchParams(search).get('authToken');
  if (fromQuery && fromQuery.length >= MIN_AUTH_TOKEN_LENGTH) {
    const stored = storedToken();
    if (stored && stored !== fromQuery && !confirmSwitch()) {
      if (typeof location !== 'undefined' && search === location.search) forgetTokenInAddressBar();
      return stored;
    }
    try {
      sessionStorage.setItem(STORAGE_KEY, fromQuery);
      // Stored: the token leaves the address bar (history, screenshots, shared links, Referer).
      if (typeof location !== 'undefined' && search === location.search) forgetTokenInAddressBar();
    } catch {
      // storage blocked (e.g. third-party cookies off): the token still works for this page
    }
    return fromQuery;
  }
  return storedToken();
}

function confirmSwitch(): boolean {
  try {
    return typeof window !== 'undefined' && window.confirm(i18next.t('shell.switchTokenConfirm')) === true;
  } catch {
    return false;
  }
}

/** Replaces the current history entry with the same address minus authToken. */
function forgetTokenInAddressBar(): void {
  if (typeof history === 'undefined') return;
  const url = new URL(location.href);
  url.searchParams.delete('authToken');
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

export async function authHeader(): Promise<Record<string, string>> {
  if (isEmbedded() && window.shopify?.idToken) return { Authorization: `Bearer ${await window.shopify.idToken()}` };
  const token = readAuthToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}
