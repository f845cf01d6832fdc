import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { languageAtom } from '../../admin/src/state/atoms';
import { mockApi, renderApp, settingInfo } from './helpers/render-app';
import { embedWithAppBridge, leaveAdmin } from './helpers/app-bridge';

// The billing result after Shopify's approval page, and the usage-cap raise (issue 14 point 5).
afterEach(async () => {
  leaveAdmin();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await i18next.changeLanguage('en');
});

const plans = [
  { name: 'Free', impressions: 150, price: 0 },
  { name: 'Premium', impressions: 1000, price: 4.99 },
  { name: 'Premium', impressions: 2500, price: 9.99 },
];
const pricing = (over: Record<string, unknown> = {}) => ({
  code: '200',
  data: {
    plans,
    level: 0,
    canDiscount: false,
    rebate_info: { expired_time: 0, rate: 20, discount_period: 3 },
    img_usage_use: 10,
    img_usage_all: 150,
    impressions_use: 0,
    impressions_all: 0,
    precent: 6,
    total: { un_opt_num: 0, total_saved_size: 0, total_opt_num: 10 },
    capped_amount: 0,
    next_capped_amount: 0,
    ...over,
  },
});
const baseRoutes = { '/api/v1/getImageSyncStatus': { code: '200', data: { imageSync: true, imageCount: 10 } } };

describe('the billing result on the pricing page', () => {
  it.each([
    ['billing=approved&kind=plan', 'Your new plan is active.'],
    ['billing=declined&kind=plan', 'You declined the charge, so your plan has not changed.'],
    ['billing=approved&kind=cap', 'Your new usage limit is active.'],
    ['billing=declined&kind=cap', 'You declined the new usage limit, so it has not changed.'],
    ['billing=approved', 'Your new plan is active.'],
  ])('?%s shows “%s”', async (query, text) => {
    mockApi({ ...baseRoutes, '/api/v1/getPricingPlans': pricing() });
    renderApp(`/pricing?${query}`);
    expect(await screen.findByText(text)).toBeTruthy();
  });

  it('shows nothing without a result, and the banner speaks the merchant’s language', async () => {
    mockApi({ ...baseRoutes, '/api/v1/getPricingPlans': pricing() });
    const first = renderApp('/pricing?billing=forged');
    await screen.findByText('Your account');
    expect(screen.queryByText(/Your new plan|You declined/)).toBeNull();
    first.unmount();
    const german = renderApp('/pricing?billing=declined&kind=cap', { info: settingInfo({ language: 'ge' }) });
    act(() => german.store.set(languageAtom, 'ge'));
    expect(
      await screen.findByText('Sie haben die neue Nutzungsobergrenze abgelehnt, daher wurde sie nicht geändert.'),
    ).toBeTruthy();
  });
});

describe('raising the usage cap', () => {
  it('a paid plan shows its cap and raises it through Shopify’s confirmation page', async () => {
    const confirm =
      'https://demo-store.myshopify.com/admin/charges/1/RecurringApplicationCharge/confirm_update_capped_amount?signature=x';
    const api = mockApi({
      ...baseRoutes,
      '/api/v1/getPricingPlans': pricing({ level: 2, capped_amount: 99.8, next_capped_amount: 199.6 }),
      '/api/v1/raiseOverageCap': { code: '200', msg: 'success', url: confirm, data: { url: confirm, capped_amount: 199.6 } },
    });
    // A higher limit lets Shopify bill more: asked for inside the admin (session token), approved in its top frame.
    embedWithAppBridge({ idToken: async () => 'session-token' });
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    renderApp('/pricing', { info: settingInfo({ shop_level: 2 }) });
    expect(await screen.findByText('Usage charges up to $99.80 per 30 days')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Raise the limit to $199.60' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith(confirm, '_top'));
    expect(api.callsTo('/api/v1/raiseOverageCap')).toHaveLength(1);
  });

  it('offers no raise at the highest cap, and no cap card on the free plan', async () => {
    mockApi({ ...baseRoutes, '/api/v1/getPricingPlans': pricing({ level: 2, capped_amount: 199.6, next_capped_amount: 0 }) });
    const view = renderApp('/pricing', { info: settingInfo({ shop_level: 2 }) });
    expect(await screen.findByText('Usage charges up to $199.60 per 30 days')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Raise the limit/ })).toBeNull();
    view.unmount();
    mockApi({ ...baseRoutes, '/api/v1/getPricingPlans': pricing() });
    renderApp('/pricing');
    await screen.findByText('Your account');
    expect(screen.queryByText('Usage limit')).toBeNull();
  });
});
