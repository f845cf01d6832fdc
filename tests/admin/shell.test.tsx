import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readAuthToken } from '../../admin/src/api/auth';
import { i18next } from '../../admin/src/i18n';
import { mockApi, renderApp, settingInfo } from './helpers/render-app';

const realTop = Object.getOwnPropertyDescriptor(window, 'top');

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  delete (window as { shopify?: unknown }).shopify;
  if (realTop) Object.defineProperty(window, 'top', realTop);
  sessionStorage.clear();
  void i18next.changeLanguage('en');
});

const answers = {
  '/api/v2/home/getPageSpeedScore': { ack: 1, status: 1, score: { pc: 90, mb: 80 } },
  '/api/v2/home/checkThemeAppExtension': { ack: 1, data: { url: '', status: 1 } },
  '/api/v1/getRecommendedApps': { code: '200', data: {} },
};

const tabNames = () => screen.queryAllByRole('tab').map((t) => t.textContent);

describe('app shell', () => {
  it.each([0, 1])('standalone: every merchant sees the whole product (is_old %i)', async (isOld) => {
    mockApi({ ...answers, '/api/v1/getAppDashboardData': { code: '200', initData: {}, data: { idOld: isOld } } });
    renderApp('/main', { info: settingInfo({ is_old: isOld }) });
    await waitFor(() =>
      expect(tabNames()).toEqual(['Image Optimization', 'Page Speed', 'Settings', 'Pricing', 'Recommendation']),
    );
    // 'Forever free' page speed shows to everyone (once the dashboard's own reads answered).
    expect((await screen.findAllByText(/forever free/i)).length).toBeGreaterThan(0);
  });

  it('hides the tabs on /guidance', async () => {
    mockApi(answers);
    renderApp('/guidance', { info: settingInfo({ is_old: 1 }) });
    await screen.findByRole('button', { name: "Let's start now" });
    expect(tabNames()).toEqual([]);
  });

  it('loads settingInfo with the admin token and applies its language', async () => {
    const api = mockApi({ ...answers, '/api/v1/getSettingInfo': { code: '200', data: settingInfo({ language: 'ja' }) } });
    renderApp('/main', { info: null });
    expect((await screen.findAllByText('ページ速度')).length).toBeGreaterThan(0);
    expect(api.fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({ Authorization: `Bearer ${'a'.repeat(40)}` });
  });

  it('without a token outside the admin, says to open the app from Shopify', async () => {
    const api = mockApi(answers);
    renderApp('/main', { info: null, token: false });
    expect(await screen.findByText('Open the app from your Shopify admin')).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  it('keeps an authToken from the query only when it has at least 32 characters', () => {
    sessionStorage.clear();
    expect(readAuthToken('?authToken=short')).toBeNull();
    expect(readAuthToken(`?authToken=${'b'.repeat(32)}`)).toBe('b'.repeat(32));
    expect(readAuthToken('')).toBe('b'.repeat(32));
  });

  it('embedded: uses the App Bridge session token, renders the nav menu and follows shopify:navigate', async () => {
    Object.defineProperty(window, 'top', { configurable: true, value: {} });
    (window as { shopify?: unknown }).shopify = { idToken: async () => 'session-token' };
    const api = mockApi({ ...answers, '/api/v1/getSettingInfo': { code: '200', data: settingInfo({ is_old: 0 }) } });
    const { router } = renderApp('/main', { info: null, token: false });
    await waitFor(() => expect(api.callsTo('/api/v1/getSettingInfo')).toHaveLength(1));
    expect(api.fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({ Authorization: 'Bearer session-token' });
    const links = [...document.querySelectorAll('ui-nav-menu a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(['/main', '/image_optimisation', '/setting', '/pricing', '/recommended-apps']);
    expect(tabNames()).toEqual([]);
    document
      .querySelector('ui-nav-menu a[href="/recommended-apps"]')!
      .dispatchEvent(new Event('shopify:navigate', { bubbles: true }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/recommended-apps'));
  });

  it('inside a frame without App Bridge (script blocked), falls back to standalone after the wait', async () => {
    Object.defineProperty(window, 'top', { configurable: true, value: {} });
    mockApi(answers);
    renderApp('/main', { info: settingInfo({ is_old: 0 }) });
    await waitFor(
      () => expect(tabNames()).toEqual(['Image Optimization', 'Page Speed', 'Settings', 'Pricing', 'Recommendation']),
      { timeout: 5000 },
    );
  });
});

describe('app shell tab highlight', () => {
  it('highlights the Pricing tab on /pricing', async () => {
    mockApi({ '/api/v1/getPricingPlans': { code: '500' }, '/api/v1/getImageSyncStatus': { code: '500' } });
    renderApp('/pricing', { info: settingInfo({ is_old: 0 }) });
    await waitFor(() =>
      expect(tabNames()).toEqual(['Image Optimization', 'Page Speed', 'Settings', 'Pricing', 'Recommendation']),
    );
    // (Polaris renders each tab twice: once to measure, once to show)
    const selected = screen.getAllByRole('tab').filter((t) => t.getAttribute('aria-selected') === 'true');
    expect(new Set(selected.map((t) => t.textContent))).toEqual(new Set(['Pricing']));
  });
});

describe('app shell session failures', () => {
  it('a refused admin token shows the open-from-Shopify notice, not the error page', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ code: '401', msg: 'Unauthorized' }), { status: 401 })),
    );
    const { router } = renderApp('/main', { info: null });
    expect(await screen.findByText('Open the app from your Shopify admin')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/main');
  });

  it('retries once after a server error, then shows the error page', async () => {
    let calls = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        calls++;
        return new Response(JSON.stringify({ code: '500', msg: 'boom' }), { status: 500 });
      }),
    );
    const { router } = renderApp('/main', { info: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/error'), { timeout: 3000 });
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});

describe('app shell storage', () => {
  it('sends the merchant to the enable-cookies page when storage is blocked and there is no token', async () => {
    sessionStorage.clear();
    const setItem = vi.spyOn(window.sessionStorage, 'setItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    const getItem = vi.spyOn(window.sessionStorage, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
    vi.stubGlobal('fetch', vi.fn());
    const { router } = renderApp('/main', { info: null, token: false });
    await waitFor(() => expect(router.state.location.pathname).toBe('/cookieError'));
    expect(await screen.findByText('Please enable cookies')).toBeTruthy();
    setItem.mockRestore();
    getItem.mockRestore();
  });
});

describe('internal links', () => {
  it('a Polaris link to an app path moves inside the app (router), not a full page load', async () => {
    mockApi({
      '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 0 } },
      '/api/v1/getPricingPlans': { code: '500' },
      '/api/v1/getImageSyncStatus': { code: '500' },
    });
    const { router } = renderApp('/setting', { info: settingInfo({ new_guide_status: 0 }) });
    const link = await screen.findByRole('link', { name: 'View plans and usage' });
    expect(link.getAttribute('href')).toBe('/pricing');
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    link.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true); // the browser does not load /pricing itself
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
  });

  it.each([
    ['/404', 'Die gesuchte Seite wurde nicht gefunden'],
    ['/privacy-policy', 'Datenschutzerklärung'],
  ])('%s reloaded with a session shows in the merchant language, "Skip to content" too', async (path, heading) => {
    mockApi({ '/api/v1/getSettingInfo': { code: '200', data: settingInfo({ language: 'ge' }) } });
    renderApp(path, { info: null });
    expect((await screen.findAllByText(new RegExp(heading))).length).toBeGreaterThan(0);
    await waitFor(() => expect(screen.getByText('Direkt zum Inhalt')).toBeTruthy());
  });

  it('a public page without a session follows the launch locale, else the browser', async () => {
    mockApi({});
    renderApp('/404', { info: null, token: false });
    // happy-dom's navigator says en-US: English.
    expect(await screen.findByText("The page you're looking for couldn't be found")).toBeTruthy();
  });
});
