import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PolarisProvider } from '../../admin/src/shell/polaris-provider';
import { DiscountBanner } from '../../admin/src/pricing/discount-banner';
import { mockApi, renderApp, settingInfo } from './helpers/render-app';
import { embedWithAppBridge, leaveAdmin } from './helpers/app-bridge';
import { i18next } from '../../admin/src/i18n';
import { languageAtom } from '../../admin/src/state/atoms';

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(async () => {
  leaveAdmin();
  await i18next.changeLanguage('en');
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const plans = [
  { name: 'Free', impressions: 150, price: 0 },
  { name: 'Premium', impressions: 1000, price: 4.99, discount_mPrice: 3.99 },
  { name: 'Premium', impressions: 2500, price: 9.99, discount_mPrice: 7.99 },
  { name: 'Premium', impressions: 6000, price: 19.99, discount_mPrice: 15.99 },
];

function pricing(over: Record<string, unknown> = {}) {
  return {
    code: '200',
    data: {
      plans,
      level: 0,
      canDiscount: false,
      rebate_info: { expired_time: 0, rate: 20, discount_period: 3 },
      img_usage_use: 140,
      img_usage_all: 150,
      impressions_use: 0,
      impressions_all: 0,
      precent: 93,
      total: { un_opt_num: 12, total_saved_size: 5 * 1048576, total_opt_num: 140 },
      ...over,
    },
  };
}

/** Plan changes are approved on Shopify's page: only inside the admin, with App Bridge. */
const inAdmin = () => embedWithAppBridge({ idToken: async () => 'session-token' });

describe('pricing (/pricing)', () => {
  it('steps the quota with plus/minus, never below the first paid plan, and upgrades through the returned URL', async () => {
    const api = mockApi({
      '/api/v1/getPricingPlans': pricing(),
      '/api/v1/getImageSyncStatus': { code: '200', data: { imageSync: true, imageCount: 420 } },
      '/api/v1/changePlans': { code: '200', msg: 'ok', url: 'https://demo-store.myshopify.com/admin/charges/confirm' },
    });
    inAdmin();
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    renderApp('/pricing');
    expect(await screen.findByText('1,000 images / month')).toBeTruthy();
    const minus = screen.getByRole('button', { name: 'Fewer images' });
    expect(minus.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'More images' }));
    fireEvent.click(screen.getByRole('button', { name: 'More images' }));
    expect(screen.getByText('6,000 images / month')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'More images' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Fewer images' }));
    expect(screen.getByText('$9.99')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Upgrade' }));
    // Shopify's approval page refuses frames: the admin's top frame goes there.
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://demo-store.myshopify.com/admin/charges/confirm', '_top'));
    expect(api.callsTo('/api/v1/changePlans')[0]?.body).toEqual({ newLevel: '2' });
    // 140 of 150 used: above 90 %, the bar is red
    expect(screen.getByRole('progressbar', { name: 'Image quota used' }).getAttribute('data-tone')).toBe('red');
    expect(screen.getByText('5.00 MB')).toBeTruthy();
    expect(screen.getByText('Your store has 420 images. Choose a plan that covers them.')).toBeTruthy();
  });

  it('asks before a downgrade: Let me think keeps the plan, Continue downgrade changes it', async () => {
    const api = mockApi({
      '/api/v1/getPricingPlans': pricing({ level: 2, img_usage_use: 1000, img_usage_all: 2500 }),
      '/api/v1/getImageSyncStatus': { code: '200', data: { imageSync: true, imageCount: 10 } },
      '/api/v1/changePlans': { code: '200', msg: 'Plan changed' },
    });
    inAdmin();
    renderApp('/pricing', { info: settingInfo({ shop_level: 2 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Downgrade' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Let me think' }));
    expect(api.callsTo('/api/v1/changePlans')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Downgrade' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Continue downgrade' }));
    await waitFor(() => expect(api.callsTo('/api/v1/changePlans')[0]?.body).toEqual({ newLevel: '0' }));
    expect(await screen.findByText('Plan changed')).toBeTruthy();
    // 1000 of 2500 used: under 50 %, normal colour
    expect(screen.getByRole('progressbar', { name: 'Image quota used' }).getAttribute('data-tone')).toBe('normal');
  });

  it('shows a refused plan change and releases the button', async () => {
    mockApi({
      '/api/v1/getPricingPlans': pricing(),
      '/api/v1/getImageSyncStatus': { code: '200', data: { imageSync: true, imageCount: 10 } },
      '/api/v1/changePlans': { code: '400', msg: 'Billing is not available for this store' },
    });
    inAdmin();
    renderApp('/pricing');
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade' }));
    expect(await screen.findByText('Billing is not available for this store')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upgrade' }).getAttribute('aria-disabled')).not.toBe('true');
  });

  it('polls the image sync status every 3 s until it is done', async () => {
    let polls = 0;
    const api = mockApi({
      '/api/v1/getPricingPlans': pricing(),
      '/api/v1/getImageSyncStatus': () => ({ code: '200', data: { imageSync: ++polls >= 3, imageCount: 77 } }),
    });
    renderApp('/pricing');
    expect(
      (await screen.findAllByText('Please wait while we collect and calculate the total number of new images...')).length,
    ).toBeGreaterThan(0);
    await act(() => vi.advanceTimersByTimeAsync(3000));
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(await screen.findByText('Your store has 77 images. Choose a plan that covers them.')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(9000));
    expect(api.callsTo('/api/v1/getImageSyncStatus')).toHaveLength(3);
  });

  it('shows the discount with its countdown and discounted price', async () => {
    mockApi({
      '/api/v1/getPricingPlans': pricing({
        canDiscount: true,
        rebate_info: { expired_time: Date.now() + 2 * 3600_000, rate: 20, discount_period: 3 },
      }),
      '/api/v1/getImageSyncStatus': { code: '200', data: { imageSync: true, imageCount: 1 } },
    });
    renderApp('/pricing');
    expect(await screen.findByText('New users get 20% off for the first 3 months')).toBeTruthy();
    expect(screen.getByText('$3.99')).toBeTruthy();
    expect(screen.getByTestId('countdown').textContent).toMatch(/^0[12]:[0-5]\d:[0-5]\d$/);
    // The card's price says how long it lasts and what follows, as the subscription bills it (decisions.md
    // "Money shown is money charged"): not "$3.99 per 30 days" alone.
    expect(screen.getByText('$3.99 for 3 months, then $4.99')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'More images' }));
    expect(await screen.findByText('$7.99 for 3 months, then $9.99')).toBeTruthy();
  });

  it('outside the Shopify admin a plan change says where it is made, with the way there, and calls nothing', async () => {
    const api = mockApi({
      '/api/v1/getPricingPlans': pricing(),
      '/api/v1/getImageSyncStatus': { code: '200', data: { imageSync: true, imageCount: 1 } },
    });
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    renderApp('/pricing');
    fireEvent.click(await screen.findByRole('button', { name: 'Upgrade' }));
    expect(await screen.findByText('Continue in your Shopify admin')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Open in Shopify admin' }));
    expect(assign).toHaveBeenCalledWith('https://demo-store.myshopify.com/admin/apps/test-api-key/pricing');
    expect(api.callsTo('/api/v1/changePlans')).toHaveLength(0);
  });

  it('after approval: the plan is active at the price Shopify bills, "$3.99 for 3 months, then $4.99"', async () => {
    mockApi({
      '/api/v1/getPricingPlans': pricing({
        level: 1,
        current_price: {
          price: '4.99',
          discounted_price: '3.99',
          discount_months: 3,
          discount_until: Date.now() + 90 * 86_400_000,
        },
      }),
      '/api/v1/getImageSyncStatus': { code: '200', data: { imageSync: true, imageCount: 1 } },
    });
    renderApp('/pricing?billing=approved&kind=plan', { info: settingInfo({ shop_level: 1 }) });
    expect(await screen.findByText('Your new plan is active: $3.99 for 3 months, then $4.99.')).toBeTruthy();
    // The account column mounts one transition after the plans (issue 26).
    expect(await screen.findByText('$3.99 for 3 months, then $4.99')).toBeTruthy();
  });

  it('prices in the merchant language: German reads 3,99 $ and a German date in the last discounted month', async () => {
    const until = Date.UTC(2027, 1, 26, 12);
    vi.setSystemTime(until - 10 * 86_400_000);
    mockApi({
      '/api/v1/getPricingPlans': pricing({
        level: 1,
        current_price: { price: '4.99', discounted_price: '3.99', discount_months: 1, discount_until: until },
      }),
      '/api/v1/getImageSyncStatus': { code: '200', data: { imageSync: true, imageCount: 1 } },
    });
    const german = renderApp('/pricing', { info: settingInfo({ shop_level: 1, language: 'ge' }) });
    act(() => german.store.set(languageAtom, 'ge'));
    // Intl puts a no-break space between amount and sign.
    const line = await screen.findByText(/bis 26\. Februar 2027/);
    expect(line.textContent).toBe('3,99\u00a0$ bis 26. Februar 2027, danach 4,99\u00a0$');
    expect(screen.getByText('Ihr Preis')).toBeTruthy();
  });
});

describe('discount countdown', () => {
  it('ticks hh:mm:ss each second and reloads at zero', async () => {
    const reload = vi.fn();
    const expiresAt = Date.now() + 3000;
    render(
      <PolarisProvider>
        <DiscountBanner expiresAt={expiresAt} rate={20} months={3} reload={reload} />
      </PolarisProvider>,
    );
    expect(screen.getByTestId('countdown').textContent).toMatch(/^00:00:0[23]$/);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByTestId('countdown').textContent).toMatch(/^00:00:0[12]$/);
    expect(reload).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(2500));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
