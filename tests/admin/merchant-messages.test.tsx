import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AccountCard } from '../../admin/src/pricing/account-card';
import { readPricing } from '../../admin/src/pricing/pricing-data';
import { PolarisProvider } from '../../admin/src/shell/polaris-provider';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultImageSettings } from '../../shared/image-settings';
import { showingRange } from '../../admin/src/image-opt/paging-footer';
import { resetAppConfig } from '../../admin/src/hooks/use-app-config';
import { mockApi, renderApp } from './helpers/render-app';
import { historyRow, idleSchedule, idleTab, page, totals } from './image-opt/fixtures';

// Issue 15: the documented messages that never showed, the history's pattern and paging text, the
// next quota reset date, and the embed buttons that stop waiting.
beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  sessionStorage.clear();
  Object.defineProperty(window, 'innerWidth', { value: 1280, configurable: true });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
vi.setConfig({ testTimeout: 20_000 });
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const EDITOR = 'https://demo-store.myshopify.com/admin/themes/1/editor?context=apps';

describe('the page speed dashboard', () => {
  it("Preview with the embed off says 'Before using this function, please enable the APP embed block'", async () => {
    mockApi({
      '/api/v2/home/getPageSpeedScore': { ack: 1, status: 1, score: { pc: 90, mb: 70 } },
      '/api/v2/home/checkThemeAppExtension': { ack: 1, data: { url: EDITOR, status: 0 } },
    });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderApp('/main');
    await screen.findByText('Off');
    fireEvent.click(screen.getAllByRole('button', { name: 'Preview' })[0]!);
    expect(await screen.findByText('Before using this function, please enable the APP embed block')).toBeTruthy();
    expect(open).not.toHaveBeenCalled();
  });

  it('Turn off says where the switch is, and after two minutes without a change stops waiting with a hint', async () => {
    let embedOn = 1;
    const api = mockApi({
      '/api/v2/home/getPageSpeedScore': { ack: 1, status: 1, score: { pc: 90, mb: 70 } },
      '/api/v2/home/checkThemeAppExtension': () => ({ ack: 1, data: { url: EDITOR, status: embedOn } }),
    });
    vi.spyOn(window, 'open').mockReturnValue(null);
    renderApp('/main');
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    expect(screen.getByText(/switch off “Speed prefetch” and save/)).toBeTruthy();
    await advance(120_000);
    expect(await screen.findByText(/No change yet\. Switch off “Speed prefetch”/)).toBeTruthy();
    const reads = api.callsTo('/api/v2/home/checkThemeAppExtension').length;
    await advance(9000);
    expect(api.callsTo('/api/v2/home/checkThemeAppExtension')).toHaveLength(reads); // stopped waiting
    expect(screen.getByRole('button', { name: 'Turn off' }).getAttribute('aria-busy')).not.toBe('true');
    embedOn = 0;
    fireEvent.click(screen.getByRole('button', { name: 'Check again' }));
    expect(await screen.findByRole('button', { name: 'Speed up' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByText(/No change yet/)).toBeNull());
  });
});

describe('the image page', () => {
  const api = (over: Record<string, unknown> = {}) =>
    mockApi({
      '/api/v2/image-opt/getImgOptTotal': totals(),
      '/api/v2/image-opt/getOptSchedule': idleSchedule(),
      '/api/v2/image-opt/getImageOptDataPage': page([historyRow(1)]),
      '/api/v2/image-opt/getSettings': { ack: 1, data: totals().settings },
      ...over,
    });

  it("automatic mode with nothing to optimise says 'Your automatic setting are disabled…' and opens the settings", async () => {
    const off = { ...defaultImageSettings(), is_default: 0, auto_switch: 1 };
    off.image_opt = { ...off.image_opt, switch: 0 };
    off.alt_text = { ...off.alt_text, switch: 0 }; // (on by default: alt text where an image has none)
    const body = { ...totals({ auto: 1 }), settings: off };
    api({ '/api/v2/image-opt/getImgOptTotal': body, '/api/v2/image-opt/getSettings': { ack: 1, data: off } });
    renderApp('/image_optimisation');
    const message = await screen.findByText('Your automatic setting are disabled, please set up auto-optimized content');
    fireEvent.click(within(message.closest('.Polaris-Banner') as HTMLElement).getByRole('button', { name: 'Settings' }));
    expect(await screen.findByRole('dialog', { name: 'Settings' })).toBeTruthy();
  });

  it('no such message while automatic mode has something to do', async () => {
    api({ '/api/v2/image-opt/getImgOptTotal': totals({ auto: 1 }) });
    renderApp('/image_optimisation');
    await screen.findByText('Optimization History');
    expect(screen.queryByText('Your automatic setting are disabled, please set up auto-optimized content')).toBeNull();
  });

  it("history rows show their pattern, the paging says 'Showing x - y of z results', the plan card the next reset date", async () => {
    const reset = Date.UTC(2026, 11, 3, 12);
    const withReset = totals();
    (withReset.opt_schedule as Record<string, unknown>).next_reset_at = reset;
    api({
      '/api/v2/image-opt/getImgOptTotal': withReset,
      '/api/v2/image-opt/getImageOptDataPage': {
        ack: 1,
        data: {
          data: [historyRow(1, { pattern: 'automatic', title: 'A' }), historyRow(2, { pattern: 'manual', title: 'B' })],
          current_page: 1,
          per_page: 10,
          total: 23,
        },
      },
    });
    renderApp('/image_optimisation');
    const a = (await screen.findAllByText('A'))[0]!.closest('tr') as HTMLElement;
    expect(within(a).getByText('Automatic')).toBeTruthy();
    expect(within(screen.getAllByText('B')[0]!.closest('tr') as HTMLElement).getByText('Manual')).toBeTruthy();
    expect(screen.getByText('Showing 1 - 10 of 23 results')).toBeTruthy();
    expect(screen.getByText('Next reset date: December 3, 2026')).toBeTruthy();
  });

  it('showingRange covers the last page and an empty list', () => {
    expect(showingRange(3, 10, 23)).toEqual({ from: 21, to: 23, total: 23 });
    expect(showingRange(1, 10, 0)).toEqual({ from: 0, to: 0, total: 0 });
  });
});

describe('the detail page', () => {
  it("restoring several pictures ends with 'All your pictures have been restored'", async () => {
    let running = false;
    const img = (id: number) => ({
      id,
      img_id: `i${id}`,
      opt_id: 7,
      src: '',
      alt: '',
      file_name: `p${id}.jpg`,
      file_type: 'jpg',
      img_size: 10,
      comp_size: 5,
      comp_ratio: 50,
      before_file_path: '',
      after_file_path: '',
      is_compress: 1,
      is_to_jpg: 0,
      is_edit_alt: 0,
      is_edit_name: 0,
      is_watermark: 0,
      is_restore: 0,
      is_overdue: 0,
      is_delete: 0,
    });
    mockApi({
      '/api/v2/image-opt/getImgOptTotal': totals(),
      '/api/v2/image-opt/getImageOptDataPage': page([]),
      '/api/v2/image-opt/getProductImagesData': {
        ack: 1,
        data: { data: [img(1), img(2)], total: 2, current_page: 1, per_page: 10, item: { id: 7, data_type: 1, title: 'Hat' } },
      },
      '/api/v2/image-opt/restore': () => ((running = true), { ack: 1, data: { job_id: 'r', total: 2 } }),
      '/api/v2/image-opt/getOptSchedule': () => ({
        ack: 1,
        data: running
          ? { ...idleTab(1), process_type: 'restore', process_result: 0, opt_in: 2, opt_total: 2, status: 'running' }
          : { ...idleTab(1), process_type: 'restore', opt_total: 2, status: 'done' },
      }),
    });
    const view = renderApp('/image_optimisation');
    await screen.findByText('Optimization History');
    act(
      () => void view.router.navigate({ to: '/image_optimisation_details', state: (s) => ({ ...s, prodId: 7, title: 'Hat' }) }),
    );
    await screen.findAllByText('p1.jpg');
    fireEvent.click(screen.getAllByRole('checkbox')[0]!);
    fireEvent.click((await screen.findAllByRole('button', { name: 'Restore' }))[0]!);
    await advance(1600);
    running = false;
    await advance(5000);
    expect((await screen.findAllByText('All your pictures have been restored')).length).toBeGreaterThan(0);
  });
});

describe('the pricing page account card', () => {
  it('shows the next quota reset date', () => {
    const data = readPricing({
      plans: [],
      level: 1,
      img_usage_use: 3,
      img_usage_all: 1000,
      total: {},
      next_reset_at: Date.UTC(2026, 11, 3, 12),
    })!;
    render(
      <PolarisProvider>
        <AccountCard data={data} />
      </PolarisProvider>,
    );
    expect(screen.getByText('Next reset date')).toBeTruthy();
    expect(screen.getByText('December 3, 2026')).toBeTruthy();
  });
});

describe('runtime configuration (GET /app-config)', () => {
  const score = {
    '/api/v2/home/getPageSpeedScore': { ack: 1, status: 1, score: { pc: 90, mb: 70 } },
    '/api/v2/home/checkThemeAppExtension': { ack: 1, data: { url: EDITOR, status: 1 } },
  };
  beforeEach(() => resetAppConfig());

  it('the video card promises a video only when one is configured; Watch the video opens it at 115 s', async () => {
    mockApi({
      ...score,
      '/app-config': { tutorial_video_url: 'https://www.youtube-nocookie.com/embed/demo', privacy_contact_email: null },
    });
    renderApp('/main');
    fireEvent.click((await screen.findAllByRole('button', { name: 'Watch the video' }))[0]!); // the thumbnail and the action
    const modal = await screen.findByRole('dialog', { name: 'See how Page Speed works' });
    const src = modal.querySelector('iframe')?.getAttribute('src') ?? '';
    expect(src).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\/demo\?/);
    expect(new URL(src).searchParams.get('start')).toBe('115');
  });

  it('without one, no Watch the video', async () => {
    mockApi({ ...score, '/app-config': { tutorial_video_url: null, privacy_contact_email: null } });
    renderApp('/main');
    await screen.findByText('See how Page Speed works');
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(screen.queryByRole('button', { name: 'Watch the video' })).toBeNull();
  });

  it('the privacy policy names the configured contact address', async () => {
    mockApi({ '/app-config': { tutorial_video_url: null, privacy_contact_email: 'privacy@shop-apps.example' } });
    renderApp('/privacy-policy', { info: null, token: false });
    const mail = await screen.findByRole('link', { name: 'privacy@shop-apps.example' });
    expect(mail.getAttribute('href')).toBe('mailto:privacy@shop-apps.example');
    expect(mail.closest('p')?.textContent).toBe(
      'For more information about our privacy practices, questions or complaints, email us at privacy@shop-apps.example, or use the contact form in the app.',
    );
  });
});

describe('claims (decisions.md "Claims")', () => {
  const score = {
    '/api/v2/home/getPageSpeedScore': { ack: 1, status: 1, score: { pc: 90, mb: 70 } },
    '/api/v2/home/checkThemeAppExtension': { ack: 1, data: { url: 'https://x.example', status: 1 } },
  };
  const none = { tutorial_video_url: null, privacy_contact_email: null, support_chat_url: null, merchant_count: null };
  beforeEach(() => resetAppConfig());

  it('"Trusted by over N merchants" shows only when a number is configured', async () => {
    mockApi({ ...score, '/app-config': none });
    const first = renderApp('/main');
    expect(await screen.findByText('Forever free.')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/merchants/);
    first.unmount();
    resetAppConfig();
    mockApi({ ...score, '/app-config': { ...none, merchant_count: 11000 } });
    renderApp('/main');
    expect(await screen.findByText('Forever free. Trusted by over 11,000 merchants.')).toBeTruthy();
  });

  it("the privacy policy names the recommendations frame as a recipient of the owner's email", async () => {
    mockApi({ '/app-config': none });
    renderApp('/privacy-policy', { info: null, token: false });
    const heading = await screen.findByRole('heading', { name: 'Who receives it' });
    expect(heading.parentElement?.textContent).toMatch(/Recommendations page.*store owner's email address/);
  });

  // decisions.md "Money shown is money charged": the free quota is one-time per shop, so shop/redact keeps a
  // keyed hash of the domain with the free images used (worker/db/redacted-shops.ts), and the policy says so.
  it('the privacy policy says what is kept after the store data is deleted', async () => {
    mockApi({ '/app-config': none });
    renderApp('/privacy-policy', { info: null, token: false });
    const heading = await screen.findByRole('heading', { name: 'Data retention' });
    expect(heading.parentElement?.textContent).toMatch(
      /your data is deleted\..*keyed hash of your store's domain.*free images used.*once per store/,
    );
  });
});

describe('one offer everywhere', () => {
  const base = {
    '/api/v2/home/getPageSpeedScore': { ack: 1, status: 1, score: { pc: 90, mb: 70 } },
    '/api/v2/home/checkThemeAppExtension': { ack: 1, data: { url: EDITOR, status: 1 } },
  };
  const pricing = (canDiscount: boolean) => ({
    code: '200',
    data: {
      plans: [],
      level: 0,
      canDiscount,
      rebate_info: { expired_time: canDiscount ? Date.now() + 3_600_000 : 0, rate: 20, discount_period: 3 },
      total: {},
    },
  });

  it('the dashboard banner shows the discount billing applies (rate and months from the pricing data)', async () => {
    mockApi({ ...base, '/api/v1/getPricingPlans': pricing(true) });
    renderApp('/main');
    expect(await screen.findByText('New users get 20% off for the first 3 months')).toBeTruthy();
    expect(screen.queryByText(/30%/)).toBeNull();
  });

  it('no offer, no banner', async () => {
    const api = mockApi({ ...base, '/api/v1/getPricingPlans': pricing(false) });
    renderApp('/main');
    await waitFor(() => expect(api.callsTo('/api/v1/getPricingPlans')).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(50));
    expect(screen.queryByText(/New users get/)).toBeNull();
  });
});
