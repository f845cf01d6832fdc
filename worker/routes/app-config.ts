import { Hono } from 'hono';
import type { AppEnv } from '../types';
import type { AppConfig } from '../../shared/api/account';

// GET /app-config: what the admin shows from runtime configuration (wrangler [vars] or the dashboard),
// not from build-time variables, so a deploy can change it without rebuilding the admin (issue 15).
// Public and shop-independent: the privacy policy page reads it without a session.
export const appConfigRoutes = new Hono<AppEnv>();

/** Optional variables: absent or empty means "none configured". */
type RuntimeConfigEnv = { TUTORIAL_VIDEO_URL?: string; PRIVACY_CONTACT_EMAIL?: string };

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/** An embeddable https video URL, or null (anything else is ignored rather than framed). */
export function videoUrlOf(raw: string | undefined): string | null {
  const value = (raw ?? '').trim();
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

export function contactEmailOf(raw: string | undefined): string | null {
  const value = (raw ?? '').trim();
  return EMAIL.test(value) ? value : null;
}

appConfigRoutes.get('/app-config', (c) => {
  const env = c.env as unknown as RuntimeConfigEnv;
  c.header('Cache-Control', 'public, max-age=300');
  return c.json({
    tutorial_video_url: videoUrlOf(env.TUTORIAL_VIDEO_URL),
    privacy_contact_email: contactEmailOf(env.PRIVACY_CONTACT_EMAIL),
  } satisfies AppConfig);
});
