import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { appStoreHandleProblem, appStoreUrl } from '../../../worker/lib/app-store';
import { contactEmailOf, merchantCountOf, videoUrlOf } from '../../../worker/routes/app-config';
import { call } from '../helpers';

// GET /app-config: the admin's runtime configuration (tutorial video, privacy contact), public.
describe('GET /app-config', () => {
  it('answers without a session; nothing configured in the test environment', async () => {
    const res = await call('/app-config');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      tutorial_video_url: null,
      privacy_contact_email: null,
      support_chat_url: null,
      merchant_count: null,
      // No APP_STORE_HANDLE: the listing is the app's handle (shopify.app.toml's, SHOPIFY_APP_HANDLE).
      app_store_url: `https://apps.shopify.com/${env.SHOPIFY_APP_HANDLE}`,
    });
    expect(env.SHOPIFY_APP_HANDLE).toBe('image-optimizer-page-speed');
  });

  it('our App Store listing: APP_STORE_HANDLE when set (a listing handle may differ from the app’s), else the app handle', () => {
    const app = { SHOPIFY_APP_HANDLE: 'image-optimizer-page-speed' };
    expect(appStoreUrl({ ...app, APP_STORE_HANDLE: '' })).toBe('https://apps.shopify.com/image-optimizer-page-speed');
    expect(appStoreUrl({ ...app, APP_STORE_HANDLE: ' image-optimizer-7 ' })).toBe('https://apps.shopify.com/image-optimizer-7');
    expect(appStoreHandleProblem({ ...app, APP_STORE_HANDLE: '' })).toBeNull();
    expect(appStoreHandleProblem({ ...app, APP_STORE_HANDLE: 'image-optimizer-7' })).toBeNull();
    // A URL or anything that is not a handle stops the Worker at its first request instead of a broken link.
    expect(appStoreHandleProblem({ ...app, APP_STORE_HANDLE: 'https://apps.shopify.com/x' })).toMatch(/APP_STORE_HANDLE/);
    expect(appStoreHandleProblem({ ...app, APP_STORE_HANDLE: 'Image Optimizer' })).toMatch(/APP_STORE_HANDLE/);
  });

  it('accepts only an https video URL and a plausible address', () => {
    expect(videoUrlOf(' https://www.youtube-nocookie.com/embed/abc ')).toBe('https://www.youtube-nocookie.com/embed/abc');
    expect(videoUrlOf('http://example.com/v')).toBeNull();
    expect(videoUrlOf('javascript:alert(1)')).toBeNull();
    expect(videoUrlOf('')).toBeNull();
    expect(contactEmailOf('privacy@example.com')).toBe('privacy@example.com');
    expect(contactEmailOf('not an address')).toBeNull();
    expect(contactEmailOf(undefined)).toBeNull();
    // The merchant claim: only a real, configured number (decisions.md "Claims").
    expect(merchantCountOf('11000')).toBe(11000);
    expect(merchantCountOf(' 11,000 ')).toBe(11000);
    expect(merchantCountOf('')).toBeNull();
    expect(merchantCountOf('0')).toBeNull();
    expect(merchantCountOf('many')).toBeNull();
    expect(merchantCountOf(undefined)).toBeNull();
  });
});
