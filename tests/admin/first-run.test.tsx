// Issue 23 point 3 (first run) and point 8 (score history) on the dashboard and the wizard.
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../admin/src/i18n';
import { settingInfoAtom } from '../../admin/src/state/atoms';
import { mockApi, renderApp, settingInfo } from './helpers/render-app';

const NOW = new Date('2026-11-20T10:00:00Z').getTime();
const MINUTE = 60_000;

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true, now: NOW });
  sessionStorage.clear();
});
afterEach(() => {
  cleanup(); // unmounted before the real fetch comes back: no read of this test leaves for the network
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
  void i18next.changeLanguage('en');
});

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

const offer = {
  code: '200',
  data: {
    plans: [],
    level: 0,
    canDiscount: true,
    rebate_info: { expired_time: NOW + 86_400_000, rate: 20, discount_period: 3 },
    total: {},
  },
};

/** The dashboard's reads; `info` is what a fresh getSettingInfo answers. */
function dashboardApi(info = settingInfo({ new_guide_status: 0 }), extra: Record<string, unknown> = {}) {
  return mockApi({
    '/api/v1/getSettingInfo': () => ({ code: '200', data: info }),
    '/api/v2/home/getPageSpeedScore': { ack: 1, status: 1, score: { pc: 81, mb: 52 }, checked_at: NOW - 2 * MINUTE },
    '/api/v2/home/getPageSpeedHistory': { ack: 1, data: { list: [] } },
    '/api/v2/home/checkThemeAppExtension': { ack: 1, data: { url: '', status: 1 } },
    '/api/v1/getPricingPlans': offer,
    '/api/v1/reviewTipsClick': { code: '200' },
    '/api/v1/updateCustomerClick': { code: '200' },
    ...extra,
  });
}

describe('first launch and the wizard', () => {
  it('the first launch of a shop that has not set up opens the wizard; back on the dashboard it stays there', async () => {
    dashboardApi(settingInfo({ new_guide_status: 1 }));
    const { router } = renderApp('/main', { info: settingInfo({ new_guide_status: 1 }), firstLaunch: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/guidance'));
    expect(await screen.findByRole('button', { name: "Let's start now" })).toBeTruthy();
    // The merchant leaves the wizard for the dashboard: it is not forced on them again in this session.
    act(() => void router.navigate({ to: '/main' }));
    expect((await screen.findAllByText(/forever free/i)).length).toBeGreaterThan(0);
    expect(router.state.location.pathname).toBe('/main');
  });

  it('on the way to the wizard the tabs never paint (they would vanish on /guidance and pull the page up)', async () => {
    dashboardApi(settingInfo({ new_guide_status: 1 }));
    const tabsSeen: boolean[] = [];
    const watch = new MutationObserver(() => tabsSeen.push(document.querySelector('[role="tablist"], nav') !== null));
    watch.observe(document.body, { childList: true, subtree: true });
    const { router } = renderApp('/main', { info: null, firstLaunch: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/guidance'));
    expect(await screen.findByRole('button', { name: "Let's start now" })).toBeTruthy();
    watch.disconnect();
    expect(tabsSeen.length).toBeGreaterThan(0);
    expect(tabsSeen.some(Boolean)).toBe(false);
  });

  it('a shop that finished the wizard opens on the dashboard', async () => {
    dashboardApi(settingInfo({ new_guide_status: 0 }));
    const { router } = renderApp('/main', { info: settingInfo({ new_guide_status: 0 }), firstLaunch: true });
    expect(await screen.findByRole('img', { name: 'Speed score 81 out of 100' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/main');
  });

  it('a finished wizard never shows Welcome again: /guidance goes to the dashboard', async () => {
    dashboardApi();
    const { router } = renderApp('/guidance', { info: settingInfo({ new_guide_status: 0 }) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/main'));
    expect(screen.queryByRole('button', { name: "Let's start now" })).toBeNull();
    await screen.findByRole('img', { name: 'Speed score 81 out of 100' });
  });

  it('finished in this session (Back after the wizard): Welcome does not come back', async () => {
    dashboardApi(settingInfo({ new_guide_status: 0 }));
    const { router, store } = renderApp('/guidance', { info: settingInfo({ new_guide_status: 1 }) });
    expect(await screen.findByRole('button', { name: "Let's start now" })).toBeTruthy();
    act(() => store.set(settingInfoAtom, settingInfo({ new_guide_status: 0 }))); // what a successful save does
    expect(screen.getByRole('button', { name: "Let's start now" })).toBeTruthy(); // this visit ends by itself
    act(() => void router.navigate({ to: '/pricing' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    act(() => void router.navigate({ to: '/guidance' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/main'));
    expect(screen.queryByRole('button', { name: "Let's start now" })).toBeNull();
    await screen.findByRole('img', { name: 'Speed score 81 out of 100' });
  });
});

describe('the review banner on the dashboard', () => {
  it("the wizard's Skip is not a score: nothing is recorded, so the banner can ask after the first optimisation", async () => {
    const api = dashboardApi(undefined, { '/api/v1/saveNewGuideCfg': { ack: 1, code: '200' } });
    const { router } = renderApp('/guidance', { info: settingInfo({ new_guide_status: 1 }) });
    fireEvent.click(await screen.findByRole('button', { name: "Let's start now" }));
    await screen.findByRole('button', { name: 'Next' }); // the steps' code arrives
    for (let step = 2; step < 5; step++) fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save and finish' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Skip' }));
    expect(await screen.findByText('Completed instruction!')).toBeTruthy();
    await advance(1000);
    await waitFor(() => expect(router.state.location.pathname).toBe('/pricing'));
    expect(api.callsTo('/api/v1/reviewTipsClick')).toHaveLength(0);
  });

  it('appears once the server asks (first optimisation finished), read again on the visit, and alone', async () => {
    dashboardApi(settingInfo({ new_guide_status: 0, review_tips: 1 }));
    // The session's copy was read before the optimisation finished.
    renderApp('/main', { info: settingInfo({ new_guide_status: 0, review_tips: 0 }) });
    expect(await screen.findByText('How would you rate our app?')).toBeTruthy();
    expect(screen.queryByText('New users get 20% off for the first 3 months')).toBeNull(); // one banner at a time
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByText('New users get 20% off for the first 3 months')).toBeTruthy();
    expect(screen.queryByText('How would you rate our app?')).toBeNull();
  });

  it('no rating prompt before the first optimisation: the offer shows', async () => {
    const api = dashboardApi(settingInfo({ new_guide_status: 0, review_tips: 0 }));
    renderApp('/main', { info: settingInfo({ new_guide_status: 0 }) });
    expect(await screen.findByText('New users get 20% off for the first 3 months')).toBeTruthy();
    expect(screen.queryByText('How would you rate our app?')).toBeNull();
    // The banner shows the plans the dashboard read to place it: one request, not a second on its mount.
    await advance(1000);
    expect(api.callsTo('/api/v1/getPricingPlans')).toHaveLength(1);
  });
});

describe('the gauge: when it was checked, and Recheck right after a check', () => {
  it('shows when the score was measured and moves on while the page stays open', async () => {
    dashboardApi();
    renderApp('/main', { info: settingInfo({ new_guide_status: 0 }) });
    expect(await screen.findByText('Last checked: 2 minutes ago')).toBeTruthy();
    await advance(3 * MINUTE);
    expect(await screen.findByText('Last checked: 5 minutes ago')).toBeTruthy();
  });

  it('Recheck within 5 minutes of the automatic check: the newest result with its time, no error', async () => {
    const api = dashboardApi(undefined, {
      '/api/v2/home/refreshPageSpeedOnline': {
        ack: 0,
        message: 'The page speed score was checked a moment ago. Please try again in a few minutes.',
        message_key: 'server.limits.pagespeedCooldown',
        params: {},
      },
    });
    renderApp('/main', { info: settingInfo({ new_guide_status: 0 }) });
    await screen.findByRole('img', { name: 'Speed score 81 out of 100' });
    fireEvent.click(screen.getByRole('button', { name: 'Recheck' }));
    expect(
      await screen.findByText('This is your newest score. A new check can start 5 minutes after the last one.'),
    ).toBeTruthy();
    await waitFor(() => expect(api.callsTo('/api/v2/home/getPageSpeedScore').length).toBeGreaterThan(1));
    expect(screen.getByRole('img', { name: 'Speed score 81 out of 100' })).toBeTruthy();
    expect(screen.getByText('Last checked: 2 minutes ago')).toBeTruthy();
    expect(screen.queryByText(/checked a moment ago/)).toBeNull();
  });

  it('another refusal is still the error toast', async () => {
    dashboardApi(undefined, {
      '/api/v2/home/refreshPageSpeedOnline': {
        ack: 0,
        message: 'Too many requests. Please try again in a minute.',
        message_key: 'server.limits.tooManyRequests',
        params: {},
      },
    });
    renderApp('/main', { info: settingInfo({ new_guide_status: 0 }) });
    await screen.findByRole('img', { name: 'Speed score 81 out of 100' });
    fireEvent.click(screen.getByRole('button', { name: 'Recheck' }));
    expect(await screen.findByText('Too many requests. Please try again in a minute.')).toBeTruthy();
    expect(screen.queryByText('This is your newest score. A new check can start 5 minutes after the last one.')).toBeNull();
  });

  it('in German: "Zuletzt geprüft: vor 2 Minuten"', async () => {
    dashboardApi(settingInfo({ new_guide_status: 0, language: 'ge' }));
    renderApp('/main', { info: null });
    expect(await screen.findByText('Zuletzt geprüft: vor 2 Minuten', {}, { timeout: 5000 })).toBeTruthy();
  });
});

describe('score history (issue 23 point 8)', () => {
  // The chart is a chunk of its own: transformed once here, so a busy machine does not eat the test's time.
  beforeAll(async () => {
    await import('../../admin/src/page-speed/score-history-chart');
  });

  it('draws the last checks per device, with the numbers for screen readers', async () => {
    const list = [
      { checked_at: NOW - 2 * 86_400_000, pc: 70, mb: 40 },
      { checked_at: NOW - 86_400_000, pc: 75, mb: 47 },
      { checked_at: NOW - 2 * MINUTE, pc: 81, mb: 52 },
    ];
    const api = dashboardApi(undefined, { '/api/v2/home/getPageSpeedHistory': { ack: 1, data: { list } } });
    renderApp('/main', { info: settingInfo({ new_guide_status: 0 }) });
    const chart = await screen.findByRole('img', { name: 'Score history' }, { timeout: 4000 });
    expect(chart.getAttribute('data-points')).toBe('3');
    const description = chart.querySelector('desc')?.textContent ?? '';
    expect(description).toContain('desktop 70, mobile 40');
    expect(description).toContain('desktop 81, mobile 52');
    expect(chart.querySelectorAll('[data-series="pc"] circle')).toHaveLength(3);
    expect(chart.querySelectorAll('[data-series="mb"] polyline')).toHaveLength(1);
    expect(api.callsTo('/api/v2/home/getPageSpeedHistory')).toHaveLength(1);
  });

  it('before the first finished check: a note of the same size, no read', async () => {
    const api = dashboardApi(undefined, {
      '/api/v2/home/getPageSpeedScore': { ack: 1, status: 2, score: { pc: 0, mb: 0 }, checked_at: null },
    });
    renderApp('/main', { info: settingInfo({ new_guide_status: 0 }) });
    expect(await screen.findByText('Your score history starts with your first check.')).toBeTruthy();
    expect(api.callsTo('/api/v2/home/getPageSpeedHistory')).toHaveLength(0);
  });
});
