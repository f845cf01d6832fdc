import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { vi } from 'vitest';
import type { SettingInfo } from '../../../admin/src/api/calls';
import { PolarisProvider } from '../../../admin/src/shell/polaris-provider';
import { GUIDE_OFFERED, markClosed } from '../../../admin/src/lib/session-flags';
import { createAppRouter } from '../../../admin/src/router';
import { settingInfoAtom } from '../../../admin/src/state/atoms';

// Component tests mock the network at the module boundary: fetch answers by path, and every call the
// admin made is recorded (method, path, body) so tests can assert what was sent.
export type Call = { method: string; path: string; query: URLSearchParams; body: unknown };
export type Handler = (call: Call) => unknown;

export const TOKEN = 'a'.repeat(40);

export function settingInfo(overrides: Partial<SettingInfo> = {}): SettingInfo {
  return {
    shop_owner: 'demo-store.myshopify.com',
    shopname: 'Demo Store',
    name: 'demo-store.myshopify.com',
    email: 'owner@example.com',
    user_id: 1,
    shop_level: 0,
    shopify_level: 'basic',
    review: 0,
    review_tips: 0,
    is_old: 0,
    language: 'en',
    new_guide_status: 1,
    app_switch: [],
    admin_url: 'https://demo-store.myshopify.com/admin/apps/test-api-key',
    ...overrides,
  };
}

/** `routes`: per path, a Handler or the body to answer with. */
export function mockApi(routes: Record<string, unknown>) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input, 'http://localhost');
    const raw = typeof init?.body === 'string' ? init.body : '';
    let body: unknown = raw;
    if (raw && String((init?.headers as Record<string, string> | undefined)?.['Content-Type']).includes('json'))
      body = JSON.parse(raw);
    else if (raw) body = Object.fromEntries(new URLSearchParams(raw));
    const call = { method: init?.method ?? 'GET', path: url.pathname, query: url.searchParams, body };
    calls.push(call);
    const route = routes[url.pathname] ?? routes[`${call.method} ${url.pathname}`];
    if (route === undefined) return new Response(JSON.stringify({ code: '404', msg: 'not mocked' }), { status: 404 });
    const answer = typeof route === 'function' ? (route as Handler)(call) : route;
    return new Response(JSON.stringify(answer), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls, fetchMock, callsTo: (path: string) => calls.filter((c) => c.path === path) };
}

/**
 * Renders the whole admin (shell + router) at `path` with a fresh store and a standalone admin token.
 * `firstLaunch`: the session has not opened the set-up wizard yet (the dashboard then opens it for a shop
 * that has not finished it); by default it has, so screens render as they are.
 */
export function renderApp(path: string, opts: { info?: SettingInfo | null; token?: boolean; firstLaunch?: boolean } = {}) {
  if (opts.token === false) sessionStorage.removeItem('authToken');
  else sessionStorage.setItem('authToken', TOKEN);
  if (opts.firstLaunch) sessionStorage.removeItem(`closed:${GUIDE_OFFERED}`);
  else markClosed(GUIDE_OFFERED);
  const store = createStore();
  if (opts.info !== null) store.set(settingInfoAtom, opts.info ?? settingInfo());
  const router = createAppRouter({ history: createMemoryHistory({ initialEntries: [path] }) });
  const view = render(
    <Provider store={store}>
      <PolarisProvider>
        <RouterProvider router={router} />
      </PolarisProvider>
    </Provider>,
  );
  return { ...view, router, store };
}
