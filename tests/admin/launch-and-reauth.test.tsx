import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { render, waitFor } from '@testing-library/react';
import { createStore, Provider } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { get, REAUTHORIZE_URL_HEADER, RETRY_INVALID_SESSION_HEADER } from '../../admin/src/api/client';
import { PolarisProvider } from '../../admin/src/shell/polaris-provider';
import { createAppRouter } from '../../admin/src/router';

// The launch at application_url (`/`) and the client's answer to Shopify's re-authorisation headers.
const realTop = Object.getOwnPropertyDescriptor(window, 'top');
function embed(idToken: () => Promise<string>) {
  Object.defineProperty(window, 'top', { configurable: true, value: {} });
  (window as unknown as { shopify?: unknown }).shopify = { idToken };
}
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  delete (window as unknown as { shopify?: unknown }).shopify;
  if (realTop) Object.defineProperty(window, 'top', realTop);
  window.history.replaceState(null, '', '/');
});

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), { ...init, headers: { 'Content-Type': 'application/json', ...(init.headers ?? {}) } });

describe('the launch screen at /', () => {
  it('forwards Shopify’s launch query verbatim (unknown parameters and their order included) and moves into the app', async () => {
    const search =
      '?embedded=1&hmac=00ff&host=YWRtaW4&id_token=a.b.c&locale=de-DE&session=s1&shop=launch-shop.myshopify.com&timestamp=1700000000&zz_new=%2Fx%20y';
    window.history.replaceState(null, '', `/${search}`);
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = input instanceof Request ? input.url : String(input);
        urls.push(url);
        if (url.startsWith('/shopify/app')) return json({ code: 302, url: '/main?shop=launch-shop.myshopify.com' });
        return json({ code: '200', data: {} });
      }),
    );
    const router = createAppRouter({ history: createMemoryHistory({ initialEntries: [`/${search}`] }) });
    render(
      <Provider store={createStore()}>
        <PolarisProvider>
          <RouterProvider router={router} />
        </PolarisProvider>
      </Provider>,
    );
    await waitFor(() => expect(urls.some((u) => u.startsWith('/shopify/app'))).toBe(true));
    expect(urls.find((u) => u.startsWith('/shopify/app'))).toBe(`/shopify/app${search}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/main'));
  });
});

describe('re-authorisation answers', () => {
  it('follows X-Shopify-API-Request-Failure-Reauthorize-Url in the top frame when embedded', async () => {
    embed(async () => 'session.token.jwt');
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    const reauth = 'https://app.example.com/shopify/reShopifyAuthor?shop=s.myshopify.com';
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(
          { code: '401', msg: 'Please authorise the app again to continue.' },
          { status: 401, headers: { [REAUTHORIZE_URL_HEADER]: reauth } },
        ),
      ),
    );
    await expect(get('/api/v1/getSettingInfo')).rejects.toMatchObject({ status: 401 });
    expect(open).toHaveBeenCalledWith(reauth, '_top');
  });

  it('retries once with a fresh session token when Shopify’s retry header says the token was stale', async () => {
    let n = 0;
    embed(async () => `token-${++n}`);
    const seen: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
        seen.push((init?.headers as Record<string, string>).Authorization!);
        return seen.length === 1
          ? json({ code: '401' }, { status: 401, headers: { [RETRY_INVALID_SESSION_HEADER]: '1' } })
          : json({ code: '200', data: { ok: 1 } });
      }),
    );
    expect(await get('/api/v1/getSettingInfo')).toMatchObject({ code: '200' });
    expect(seen).toEqual(['Bearer token-1', 'Bearer token-2']);
  });
});
