import { describe, expect, it } from 'vitest';
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
    });
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
