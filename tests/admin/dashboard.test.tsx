import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAppConfig } from '../../admin/src/hooks/use-app-config';
import { mockApi, renderApp, settingInfo } from './helpers/render-app';

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  sessionStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('page speed dashboard (/main)', () => {
  it('polls the score every 5 s while status is 0 or 2, then stops and shows the bands', async () => {
    const answers = [
      { ack: 1, status: 0, score: { pc: 0, mb: 0 } },
      { ack: 1, status: 2, score: { pc: 0, mb: 0 } },
      { ack: 1, status: 1, score: { pc: 80, mb: 45 } },
    ];
    const api = mockApi({
      '/api/v2/home/getPageSpeedScore': () => answers.shift() ?? { ack: 1, status: 1, score: { pc: 80, mb: 45 } },
      '/api/v2/home/refreshPageSpeedOnline': { ack: 1 },
      '/api/v2/home/checkThemeAppExtension': { ack: 1, data: { url: 'https://admin.example/editor', status: 1 } },
    });
    renderApp('/main');
    expect(await screen.findAllByText("Measuring your store's speed...")).toBeTruthy();
    await waitFor(() => expect(api.callsTo('/api/v2/home/getPageSpeedScore')).toHaveLength(1));
    // status 0: no test ran yet, so the dashboard starts one
    await waitFor(() => expect(api.callsTo('/api/v2/home/refreshPageSpeedOnline')).toHaveLength(1));
    await advance(5000);
    expect(api.callsTo('/api/v2/home/getPageSpeedScore')).toHaveLength(2);
    await advance(5000);
    expect(api.callsTo('/api/v2/home/getPageSpeedScore')).toHaveLength(3);
    const gauge = await screen.findByRole('img', { name: 'Speed score 80 out of 100' });
    expect(gauge.getAttribute('data-band')).toBe('green');
    await advance(20000);
    expect(api.callsTo('/api/v2/home/getPageSpeedScore')).toHaveLength(3);

    fireEvent.click(screen.getByRole('button', { name: 'Mobile' }));
    expect(screen.getByRole('img', { name: 'Speed score 45 out of 100' }).getAttribute('data-band')).toBe('amber');
    expect(screen.getByText('40-59')).toBeTruthy();
  });

  it('Recheck starts a new test and polling resumes', async () => {
    let status = 1;
    const api = mockApi({
      '/api/v2/home/getPageSpeedScore': () => ({ ack: 1, status, score: { pc: 40, mb: 30 } }),
      '/api/v2/home/refreshPageSpeedOnline': () => {
        status = 2;
        return { ack: 1 };
      },
      '/api/v2/home/checkThemeAppExtension': { ack: 1, data: { url: '', status: 0 } },
    });
    renderApp('/main');
    expect((await screen.findByRole('img', { name: 'Speed score 40 out of 100' })).getAttribute('data-band')).toBe('red');
    fireEvent.click(screen.getByRole('button', { name: 'Recheck' }));
    await waitFor(() => expect(api.callsTo('/api/v2/home/refreshPageSpeedOnline')).toHaveLength(1));
    expect(await screen.findAllByText("Measuring your store's speed...")).toBeTruthy();
    await advance(5000);
    expect(api.callsTo('/api/v2/home/getPageSpeedScore')).toHaveLength(2);
  });

  it('Speed up opens the theme editor and polls the embed every 3 s until it changes', async () => {
    let embedOn = 0;
    const api = mockApi({
      '/api/v2/home/getPageSpeedScore': { ack: 1, status: 1, score: { pc: 90, mb: 70 } },
      '/api/v2/home/checkThemeAppExtension': () => ({
        ack: 1,
        data: { url: 'https://demo-store.myshopify.com/admin/themes/1/editor?context=apps', status: embedOn },
      }),
    });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderApp('/main');
    expect(await screen.findByText('Off')).toBeTruthy();
    expect(screen.getByText('Enable Shopify embed to speed up your store.')).toBeTruthy();
    expect(screen.getByText('Oops! Please turn on to boost your site speed.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Speed up' }));
    expect(open).toHaveBeenCalledWith(
      'https://demo-store.myshopify.com/admin/themes/1/editor?context=apps',
      '_blank',
      'noopener',
    );
    await advance(3000);
    await advance(3000);
    expect(api.callsTo('/api/v2/home/checkThemeAppExtension')).toHaveLength(3);
    embedOn = 1;
    await advance(3000);
    expect(await screen.findByText('Congrats! You just boost your site speed.')).toBeTruthy();
    expect(screen.getByText('On')).toBeTruthy();
    await advance(9000);
    expect(api.callsTo('/api/v2/home/checkThemeAppExtension')).toHaveLength(4);
  });

  it('review banner: Dismiss sends 0; low ratings open the feedback form beside the review; dismissals last the session', async () => {
    resetAppConfig();
    const api = mockApi({
      '/app-config': { app_store_url: 'https://apps.shopify.com/our-listing' }, // our listing (GET /app-config)
      '/api/v2/home/getPageSpeedScore': { ack: 1, status: 1, score: { pc: 90, mb: 70 } },
      '/api/v2/home/checkThemeAppExtension': { ack: 1, data: { url: '', status: 1 } },
      '/api/v1/reviewTipsClick': { code: '200' },
      '/api/v1/getThisUserEmail': { code: '200', data: { email: 'owner@example.com', name: 'Owner' } },
      '/api/v1/updateCustomerClick': { code: '200' },
      '/api/v1/getPricingPlans': {
        code: '200',
        data: {
          plans: [],
          level: 0,
          canDiscount: true,
          rebate_info: { expired_time: Date.now() + 3_600_000, rate: 20, discount_period: 3 },
          total: {},
        },
      },
    });
    const open = vi.spyOn(window, 'open').mockReturnValue(null); // the public review (no gating)
    const first = renderApp('/main', { info: settingInfo({ review_tips: 1 }) });
    fireEvent.click(await screen.findByRole('button', { name: '2 stars' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://apps.shopify.com/our-listing/reviews', '_blank', 'noopener'));
    await waitFor(() => expect(api.callsTo('/api/v1/reviewTipsClick')[0]?.body).toEqual({ score: '2' }));
    expect(await screen.findByText('Contact us')).toBeTruthy();
    expect(screen.queryByText('How would you rate our app?')).toBeNull();
    first.unmount();

    renderApp('/main', { info: settingInfo({ review_tips: 1 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(api.callsTo('/api/v1/reviewTipsClick')[1]?.body).toEqual({ score: '0' }));

    // promo banner closed: remembered in sessionStorage and recorded on the server
    fireEvent.click(
      screen
        .getAllByRole('button', { name: /dismiss/i })
        .find((b) => b.closest('.Polaris-Banner')?.textContent?.includes('New users get 20% off for the first 3 months'))!,
    );
    await waitFor(() => expect(api.callsTo('/api/v1/updateCustomerClick')[0]?.body).toMatchObject({ key: 'promo_banner' }));
    expect(sessionStorage.getItem('closed:promo_banner')).toBe('1');
  });
});
