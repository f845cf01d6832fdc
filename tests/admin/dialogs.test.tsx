import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Frame } from '@shopify/polaris';
import { createStore, Provider } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContactFormHost } from '../../admin/src/support/contact-form';
import { PlanLimitDialog } from '../../admin/src/pricing/plan-limit-dialog';
import { PolarisProvider } from '../../admin/src/shell/polaris-provider';
import { ToastHost } from '../../admin/src/widgets/toast-host';
import { mockApi, renderApp, settingInfo } from './helpers/render-app';
import { QueryProvider } from '../../admin/src/api/query';
import { loadAppConfig, resetAppConfig } from '../../admin/src/hooks/use-app-config';
import { planTag } from '../../admin/src/support/support-chat';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

const home = {
  '/api/v2/home/getPageSpeedScore': { ack: 1, status: 1, score: { pc: 90, mb: 80 } },
  '/api/v2/home/checkThemeAppExtension': { ack: 1, data: { url: '', status: 1 } },
  '/api/v1/getAppDashboardData': { code: '200', initData: {}, data: { idOld: 1 } },
};

describe('re-authorisation for old installs', () => {
  it('Authorise app sends the browser to the re-authorisation path with the shop', async () => {
    mockApi(home);
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    renderApp('/main', { info: settingInfo({ is_old: 1 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Authorise app' }));
    expect(assign).toHaveBeenCalledWith('/shopify/reShopifyAuthor?shop=demo-store.myshopify.com');
  });

  it('closing it shows the upgrade reminder and does not ask again this session', async () => {
    mockApi(home);
    const first = renderApp('/main', { info: settingInfo({ is_old: 1 }) });
    expect(await screen.findByText('Automatic optimization')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('For the better experience of the APP, please upgrade.')).toBeTruthy();
    first.unmount();
    const api = mockApi(home);
    renderApp('/main', { info: settingInfo({ is_old: 1 }) });
    await screen.findByText('Web performance');
    expect(api.callsTo('/api/v1/getAppDashboardData')).toHaveLength(0);
  });
});

describe('plan-limit dialog', () => {
  it('Request more trial credits opens the contact form prefilled and records the request', async () => {
    const api = mockApi({
      '/api/v1/getThisUserEmail': { code: '200', data: { email: 'owner@example.com', name: 'Alex' } },
      '/api/v1/insertContactUs': { code: '200', msg: 'ok' },
    });
    const onClose = vi.fn();
    render(
      <Provider store={createStore()}>
        <PolarisProvider>
          <QueryProvider>
            <Frame>
              <PlanLimitDialog open remaining={37} onClose={onClose} />
              <ContactFormHost />
              <ToastHost />
            </Frame>
          </QueryProvider>
        </PolarisProvider>
      </Provider>,
    );
    expect(screen.getByText("You've reached the plan limit")).toBeTruthy();
    expect(screen.getByText('There are 37 images that can be optimized.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Request more trial credits' }));
    expect(onClose).toHaveBeenCalled();
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Email').value).toBe('owner@example.com'));
    expect(screen.getByLabelText<HTMLTextAreaElement>('Description').value).toMatch(/more trial credits/);
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(api.callsTo('/api/v1/insertContactUs')).toHaveLength(1));
    expect(api.callsTo('/api/v1/insertContactUs')[0]?.body).toMatchObject({
      name: 'Alex',
      email: 'owner@example.com',
      title: 'Request more trial credits',
      path: 'plan-limit/credits',
    });
    expect((await screen.findAllByText('Thank you! We will get back to you soon.')).length).toBeGreaterThan(0);
  });

  it('the contact form refuses empty fields with the documented messages and shows a server failure', async () => {
    const api = mockApi({
      '/api/v1/getThisUserEmail': { code: '500' },
      '/api/v1/insertContactUs': { code: '400', msg: 'Too many requests' },
    });
    render(
      <Provider store={createStore()}>
        <PolarisProvider>
          <QueryProvider>
            <Frame>
              <PlanLimitDialog open remaining={0} onClose={() => undefined} />
              <ContactFormHost />
              <ToastHost />
            </Frame>
          </QueryProvider>
        </PolarisProvider>
      </Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Apply for permission' }));
    fireEvent.change(await screen.findByLabelText('Description'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByText('Name should not be empty')).toBeTruthy();
    expect(screen.getByText('Email should not be empty')).toBeTruthy();
    expect(screen.getByText('Description should not be empty')).toBeTruthy();
    expect(api.callsTo('/api/v1/insertContactUs')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Alex' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a@b.c' } });
    fireEvent.change(screen.getByLabelText('Description'), { target: { value: 'More please' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findAllByText('Too many requests')).length).toBeGreaterThan(0);
  });
});

describe('support chat (decisions.md "Support chat": an optional, configured chat-widget URL)', () => {
  const chatConfig = {
    tutorial_video_url: null,
    privacy_contact_email: null,
    support_chat_url: 'https://chat.example/widget',
    merchant_count: null,
  };
  afterEach(() => resetAppConfig());

  it('the plan tag: Free for level 0, otherwise Premium at the plan price', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(planTag)).toEqual([
      'Free',
      'Premium $4.99',
      'Premium $9.99',
      'Premium $19.99',
      'Premium $39.99',
      'Premium $79.99',
      'Premium $149.99',
    ]);
  });

  it('configured: contact support opens the chat with the user info and the plan tag, not the form', async () => {
    resetAppConfig();
    mockApi({ ...home, '/app-config': chatConfig });
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    renderApp('/main', { info: settingInfo({ shop_level: 2, new_guide_status: 0 }) });
    await screen.findByText('Web performance');
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Contact support' }).length).toBeGreaterThan(0));
    await act(async () => void (await loadAppConfig())); // the configuration is read once per page load
    fireEvent.click(screen.getAllByRole('button', { name: 'Contact support' })[0]!);
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    const url = new URL(String(open.mock.calls[0]![0]));
    expect(url.origin + url.pathname).toBe('https://chat.example/widget');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      name: 'demo-store.myshopify.com',
      email: 'owner@example.com',
      shop: 'demo-store.myshopify.com',
      plan: 'Premium $9.99',
      language: 'en',
    });
    expect(screen.queryByRole('dialog')).toBeNull(); // no contact form
  });

  it('configured: a quota-increase request opens the chat prefilled and is logged', async () => {
    resetAppConfig();
    const api = mockApi({ '/app-config': chatConfig, '/api/v1/insertContactLog': { code: '200', data: { id: 1 } } });
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    render(
      <Provider store={createStore()}>
        <PolarisProvider>
          <QueryProvider>
            <Frame>
              <PlanLimitDialog open remaining={37} onClose={() => undefined} />
              <ContactFormHost />
            </Frame>
          </QueryProvider>
        </PolarisProvider>
      </Provider>,
    );
    await act(async () => void (await loadAppConfig()));
    fireEvent.click(screen.getByRole('button', { name: 'Request more trial credits' }));
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    expect(new URL(String(open.mock.calls[0]![0])).searchParams.get('message')).toMatch(
      /Request more trial credits\n.*more trial credits/s,
    );
    await waitFor(() => expect(api.callsTo('/api/v1/insertContactLog')).toHaveLength(1));
    expect(api.callsTo('/api/v1/insertContactLog')[0]?.body).toMatchObject({ path: 'plan-limit/credits' });
    expect(screen.queryByLabelText('Description')).toBeNull();
  });
});
