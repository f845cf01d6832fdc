import { Hono } from 'hono';
import type { AppEnv } from '../types';
import type { AppConfig } from '../../shared/api/account';
import { appStoreUrl } from '../lib/app-store';

// GET /app-config: what the admin shows from runtime configuration (wrangler [vars] or the dashboard),
// not from build-time variables, so a deploy can change it without rebuilding the admin (issue 15).
// Public and shop-independent: the privacy policy page reads it without a session.
export const appConfigRoutes = new Hono<AppEnv>();

/** Optional variables: absent or empty means "none configured". */
type RuntimeConfigEnv = {
  SHOPIFY_APP_HANDLE: string;
  APP_STORE_HANDLE?: string;
  TUTORIAL_VIDEO_URL?: string;
  PRIVACY_CONTACT_EMAIL?: string;
  SUPPORT_CHAT_URL?: string;
  MERCHANT_COUNT?: string;
};

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/** An https URL (an embeddable video, the chat widget's page), or null (anything else is ignored). */
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

/** A real, positive whole number of merchants ("11000" or "11,000"), or null: no claim without one. */
export function merchantCountOf(raw: string | undefined): number | null {
  const value = (raw ?? '').trim().replace(/[,_\s]/g, '');
  if (!/^\d{1,9}$/.test(value)) return null;
  const n = Number(value);
  return n > 0 ? n : null;
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
    support_chat_url: videoUrlOf(env.SUPPORT_CHAT_URL),
    merchant_count: merchantCountOf(env.MERCHANT_COUNT),
    app_store_url: appStoreUrl(env),
  } satisfies AppConfig);
});
