import { useEffect, useState } from 'react';
import type { AppConfig } from '../../../shared/api/account';

// Runtime configuration of the deployed Worker (GET /app-config, worker/routes/app-config.ts): the
// tutorial video, the privacy contact address, the support chat widget and the merchant count claim. Read once per page load; public, so it needs no
// session (the privacy policy reads it too). Until it answers, or if it fails, nothing is configured.
export type { AppConfig };
const NONE: AppConfig = { tutorial_video_url: null, privacy_contact_email: null, support_chat_url: null, merchant_count: null };
const text = (v: unknown) => (typeof v === 'string' && v ? v : null);

let pending: Promise<AppConfig> | null = null;

export function loadAppConfig(): Promise<AppConfig> {
  pending ??= fetch('/app-config', { headers: { Accept: 'application/json' } })
    .then((res): Promise<Partial<AppConfig>> | Partial<AppConfig> => (res.ok ? (res.json() as Promise<Partial<AppConfig>>) : {}))
    .then((body) => ({
      tutorial_video_url: text(body.tutorial_video_url),
      privacy_contact_email: text(body.privacy_contact_email),
      support_chat_url: text(body.support_chat_url),
      merchant_count:
        typeof body.merchant_count === 'number' && Number.isFinite(body.merchant_count) && body.merchant_count > 0
          ? body.merchant_count
          : null,
    }))
    .catch(() => {
      pending = null; // a later screen may try again
      return NONE;
    });
  return pending;
}

/** For tests: forget the loaded configuration. */
export function resetAppConfig(): void {
  pending = null;
}

export function useAppConfig(): AppConfig {
  const [config, setConfig] = useState<AppConfig>(NONE);
  useEffect(() => {
    let cancelled = false;
    void loadAppConfig().then((c) => !cancelled && setConfig(c));
    return () => {
      cancelled = true;
    };
  }, []);
  return config;
}
