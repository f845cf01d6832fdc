import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAppConfig } from '../../admin/src/hooks/use-app-config';
import { embedWithAppBridge, leaveAdmin } from './helpers/app-bridge';
import { mockApi, renderApp, settingInfo } from './helpers/render-app';

// No review gating. Every score is recorded; every merchant who rates is offered
// the public review (App Bridge's reviews modal embedded, the listing page standalone); under 4 stars the
// feedback form is offered too, beside the review, never instead of it.
// Our App Store listing comes from the Worker's configuration (GET /app-config: APP_STORE_HANDLE, else the
// app's handle); the listing page offered is its reviews page.
const LISTING = 'https://apps.shopify.com/configured-listing';
const REVIEWS = `${LISTING}/reviews`;
const answers = {
  '/app-config': {
    tutorial_video_url: null,
    privacy_contact_email: null,
    support_chat_url: null,
    merchant_count: null,
    app_store_url: LISTING,
  },
  '/api/v2/home/getPageSpeedScore': { ack: 1, status: 1, score: { pc: 90, mb: 70 } },
  '/api/v2/home/checkThemeAppExtension': { ack: 1, data: { url: '', status: 1 } },
  '/api/v1/reviewTipsClick': { code: '200' },
  '/api/v1/getThisUserEmail': { code: '200', data: { email: 'owner@example.com', name: 'Owner' } },
  '/api/v1/insertContactUs': { code: '200' },
};

beforeEach(() => {
  sessionStorage.clear();
  resetAppConfig();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  leaveAdmin();
  localStorage.clear();
});

describe('review banner, standalone (admin token)', () => {
  it.each([1, 2, 3])('%i stars: recorded, the listing page opens and the feedback form is offered beside it', async (stars) => {
    const api = mockApi(answers);
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderApp('/main', { info: settingInfo({ review_tips: 1 }) });
    fireEvent.click(await screen.findByRole('button', { name: `${stars} stars` }));
    await waitFor(() => expect(api.callsTo('/api/v1/reviewTipsClick')[0]?.body).toEqual({ score: String(stars) }));
    await waitFor(() => expect(open).toHaveBeenCalledWith(REVIEWS, '_blank', 'noopener'));
    expect(await screen.findByText('Contact us')).toBeTruthy();
    expect(screen.queryByText('How would you rate our app?')).toBeNull();
  });

  it.each([4, 5])('%i stars: recorded and the listing page opens, no feedback form', async (stars) => {
    const api = mockApi(answers);
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderApp('/main', { info: settingInfo({ review_tips: 1 }) });
    fireEvent.click(await screen.findByRole('button', { name: `${stars} stars` }));
    await waitFor(() => expect(api.callsTo('/api/v1/reviewTipsClick')[0]?.body).toEqual({ score: String(stars) }));
    await waitFor(() => expect(open).toHaveBeenCalledWith(REVIEWS, '_blank', 'noopener'));
    expect(screen.queryByText('Contact us')).toBeNull();
  });

  it('the listing page is the configured one, whatever the app is called elsewhere', async () => {
    const other = 'https://apps.shopify.com/another-listing-handle';
    mockApi({ ...answers, '/app-config': { ...answers['/app-config'], app_store_url: other } });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderApp('/main', { info: settingInfo({ review_tips: 1 }) });
    fireEvent.click(await screen.findByRole('button', { name: '5 stars' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith(`${other}/reviews`, '_blank', 'noopener'));
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('Dismiss records 0 and offers nothing', async () => {
    const api = mockApi(answers);
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderApp('/main', { info: settingInfo({ review_tips: 1 }) });
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(api.callsTo('/api/v1/reviewTipsClick')[0]?.body).toEqual({ score: '0' }));
    expect(open).not.toHaveBeenCalled();
    expect(screen.queryByText('Contact us')).toBeNull();
  });
});

describe('embedded in the admin (App Bridge)', () => {
  function embedded(reviewAnswer: unknown) {
    const request = vi.fn(async () => reviewAnswer);
    const show = vi.fn();
    embedWithAppBridge({ idToken: async () => 'session-token', reviews: { request } as never, toast: { show, hide: vi.fn() } });
    return { request, show };
  }

  it('2 stars: Shopify’s review modal is requested, the feedback form beside it; its toast is the admin’s', async () => {
    const { request, show } = embedded({ success: true, code: 'success', message: 'Review modal shown successfully' });
    const api = mockApi({ ...answers, '/api/v1/getSettingInfo': { code: '200', data: settingInfo({ review_tips: 1 }) } });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderApp('/main', { info: null, token: false });
    fireEvent.click(await screen.findByRole('button', { name: '2 stars' }));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    expect(api.callsTo('/api/v1/reviewTipsClick')[0]?.body).toEqual({ score: '2' });
    expect(open).not.toHaveBeenCalled();

    fireEvent.change(await screen.findByLabelText('Description'), { target: { value: 'Slow on big catalogues' } });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Owner'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(show).toHaveBeenCalledWith('Thank you! We will get back to you soon.', expect.objectContaining({ isError: false })),
    );
    expect(api.callsTo('/api/v1/insertContactUs')[0]?.body).toMatchObject({
      path: 'review/2',
      description: 'Slow on big catalogues',
    });
    // the Polaris toast is not shown on top of the admin's
    expect(document.querySelector('.Polaris-Frame-Toast')).toBeNull();
  });

  it('5 stars when Shopify declines the modal for a cooldown: the listing page is offered instead', async () => {
    const { request } = embedded({ success: false, code: 'cooldown-period', message: 'cooldown' });
    mockApi({ ...answers, '/api/v1/getSettingInfo': { code: '200', data: settingInfo({ review_tips: 1 }) } });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderApp('/main', { info: null, token: false });
    fireEvent.click(await screen.findByRole('button', { name: '5 stars' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith(REVIEWS, '_blank', 'noopener'));
    expect(request).toHaveBeenCalledTimes(1);
  });

  it('5 stars when the merchant already reviewed: nothing else opens', async () => {
    const { request } = embedded({ success: false, code: 'already-reviewed', message: 'done' });
    mockApi({ ...answers, '/api/v1/getSettingInfo': { code: '200', data: settingInfo({ review_tips: 1 }) } });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderApp('/main', { info: null, token: false });
    fireEvent.click(await screen.findByRole('button', { name: '5 stars' }));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(open).not.toHaveBeenCalled();
  });
});

describe('toasts standalone', () => {
  it('the Polaris toast shows the message inside the app', async () => {
    mockApi(answers);
    vi.spyOn(window, 'open').mockReturnValue(null);
    renderApp('/main', { info: settingInfo({ review_tips: 1 }) });
    fireEvent.click(await screen.findByRole('button', { name: '1 stars' }));
    fireEvent.change(await screen.findByLabelText('Description'), { target: { value: 'Hard to find the settings' } });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>('Name').value).toBe('Owner'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Thank you! We will get back to you soon.')).toBeTruthy();
  });
});
