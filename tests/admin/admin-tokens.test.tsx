// Issue 17: the admin token's lifecycle on the admin side. Settings lists the live tokens (who issued each,
// when it expires) and revokes them; a token read from the address bar leaves it once stored.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultImageSettings } from '../../shared/image-settings';
import { readAuthToken } from '../../admin/src/api/auth';
import { mockApi, renderApp, settingInfo } from './helpers/render-app';
import { embedWithAppBridge, leaveAdmin } from './helpers/app-bridge';

afterEach(() => {
  leaveAdmin();
  vi.unstubAllGlobals();
});

const day = 86_400_000;

describe('Settings: admin tokens', () => {
  it('lists the live tokens with their Shopify user and revokes one', async () => {
    let tokens = [
      { id: 7, user_id: '42', created_at: Date.now(), expires_at: Date.now() + 30 * day, current: true },
      { id: 5, user_id: '', created_at: Date.now() - day, expires_at: Date.now() + 2 * day, current: false },
    ];
    const api = mockApi({
      '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 0 } },
      '/api/v2/image-opt/getSettings': { ack: 1, data: { ...defaultImageSettings(), is_default: 0 } },
      '/api/v2/setting/getAdminTokens': () => ({ ack: 1, data: tokens }),
      '/api/v2/setting/revokeAdminToken': (call: { body: unknown }) => {
        tokens = tokens.filter((t) => String(t.id) !== (call.body as { id: string }).id);
        return { ack: 1 };
      },
    });
    renderApp('/setting', { info: settingInfo({ shop_level: 1, new_guide_status: 0 }) });
    expect(await screen.findByText('Shopify user 42')).toBeTruthy();
    expect(screen.getByText('In use here')).toBeTruthy();
    expect(screen.getByText('Created before users were recorded')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Revoke' })[1]!);
    expect(await screen.findByText('Token revoked')).toBeTruthy();
    expect(api.callsTo('/api/v2/setting/revokeAdminToken')[0]?.body).toEqual({ id: '5' });
    await waitFor(() => expect(screen.queryByText('Created before users were recorded')).toBeNull());
  });
});

describe('authToken in the address bar', () => {
  it('is stored and removed from the address, other parameters kept', () => {
    const token = 'x'.repeat(43);
    sessionStorage.clear(); // no token yet: nothing to ask
    history.replaceState(null, '', `/main?shop=demo.myshopify.com&authToken=${token}#top`);
    expect(readAuthToken()).toBe(token);
    expect(sessionStorage.getItem('authToken')).toBe(token);
    expect(location.search).toBe('?shop=demo.myshopify.com');
    expect(location.hash).toBe('#top');
    // Later reads come from storage.
    expect(readAuthToken()).toBe(token);
  });

  it('creates a token inside the admin and shows its link once; outside it says where to create one', async () => {
    const routes = {
      '/api/v2/setting/getAccount': { ack: 1, data: { is_over_quota: 0, is_capped: 0 } },
      '/api/v2/image-opt/getSettings': { ack: 1, data: { ...defaultImageSettings(), is_default: 0 } },
      '/api/v2/setting/getAdminTokens': { ack: 1, data: [] },
      '/api/v1/adminToken': {
        code: '200',
        msg: 'success',
        data: { authToken: 'n'.repeat(43), expires_at: Date.now() + 30 * day },
      },
    };
    const outside = mockApi(routes);
    const view = renderApp('/setting', { info: settingInfo({ shop_level: 1, new_guide_status: 0 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Create token' }));
    expect(await screen.findByText(/A token is created from the app inside your Shopify admin/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open in Shopify admin' })).toBeTruthy();
    expect(outside.callsTo('/api/v1/adminToken')).toHaveLength(0);
    view.unmount();

    embedWithAppBridge({ idToken: async () => 'session-token' });
    const inside = mockApi(routes);
    renderApp('/setting', { info: settingInfo({ shop_level: 1, new_guide_status: 0 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Create token' }));
    const link = await screen.findByLabelText<HTMLInputElement>('Link with the new token');
    expect(link.value).toBe(`${window.location.origin}/main?authToken=${'n'.repeat(43)}`);
    expect(inside.callsTo('/api/v1/adminToken')).toHaveLength(1);
  });
});

describe('a link carrying another authToken (issue 25, item 9)', () => {
  it('asks before replacing the stored token; declining keeps the stored one and drops the link token', () => {
    const mine = 'm'.repeat(43);
    const theirs = 't'.repeat(43);
    sessionStorage.setItem('authToken', mine);
    const confirm = vi.fn<(message?: string) => boolean>().mockReturnValue(false);
    vi.stubGlobal('confirm', confirm);
    history.replaceState(null, '', `/main?shop=other.myshopify.com&authToken=${theirs}`);
    expect(readAuthToken()).toBe(mine);
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(confirm.mock.calls[0]![0]).toMatch(/another access token/);
    expect(sessionStorage.getItem('authToken')).toBe(mine);
    expect(location.search).toBe('?shop=other.myshopify.com');

    confirm.mockReturnValue(true);
    history.replaceState(null, '', `/main?authToken=${theirs}`);
    expect(readAuthToken()).toBe(theirs);
    expect(sessionStorage.getItem('authToken')).toBe(theirs);
    // The same token again asks nothing.
    history.replaceState(null, '', `/main?authToken=${theirs}`);
    expect(readAuthToken()).toBe(theirs);
    expect(confirm).toHaveBeenCalledTimes(2);
  });
});

describe('where the admin token is kept (issue 25, item 10)', () => {
  afterEach(() => {
    sessionStorage.clear();
    localStorage.clear();
  });

  it('in this tab only (sessionStorage), never in the lasting localStorage; a reload of the tab still reads it', () => {
    const token = 's'.repeat(43);
    sessionStorage.clear();
    localStorage.clear();
    history.replaceState(null, '', `/main?authToken=${token}`);
    expect(readAuthToken()).toBe(token);
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.getItem('authToken')).toBe(token);
    // The address bar no longer carries it; the tab's storage does (a reload, Shopify's billing approval).
    expect(location.search).toBe('');
    expect(readAuthToken()).toBe(token);
    // Another tab (its own sessionStorage) has none: it opens from the merchant's link or Shopify's admin.
    sessionStorage.clear();
    expect(readAuthToken()).toBeNull();
  });

  it('a token an earlier version left in localStorage moves into this tab and leaves localStorage', () => {
    const legacy = 'l'.repeat(43);
    sessionStorage.clear();
    localStorage.setItem('authToken', legacy);
    history.replaceState(null, '', '/main');
    expect(readAuthToken()).toBe(legacy);
    expect(localStorage.getItem('authToken')).toBeNull();
    expect(sessionStorage.getItem('authToken')).toBe(legacy);
  });
});
