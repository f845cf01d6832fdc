import { useEffect, useState } from 'react';
import type { AppConfig } from '../../../shared/api/account';
import { APP_CONFIG } from '../../../shared/api/first-reads';
import { takeFirstRead } from '../api/client';

// Runtime configuration of the deployed Worker (GET /app-config, worker/routes/app-config.ts): the
// tutorial video, the privacy contact address, the support chat widget, the merchant count claim and our
// App Store listing. Read once per page load; public, so it needs no session (the privacy policy reads it
// too). Until it answers, or if it fails, nothing is configured.
export type { AppConfig };
const NONE: AppConfig = {
  tutorial_video_url: null,
  privacy_contact_email: null,
  support_chat_url: null,
  merchant_count: null,
  app_store_url: null,
};
const text = (v: unknown) => (typeof v === 'string' && v ? v : null);

let pending: Promise<AppConfig> | null = null;

/** The configuration the document carries (api/first-reads.ts), else GET /app-config. */
async function readAppConfig(): Promise<Partial<AppConfig>> {
  const inDocument = takeFirstRead(APP_CONFIG, null);
  if (inDocument !== undefined) return inDocument ?? {};
  const res = await fetch(APP_CONFIG, { headers: { Accept: 'application/json' } });
  return res.ok ? ((await res.json()) as Partial<AppConfig>) : {};
}

export function loadAppConfig(): Promise<AppConfig> {
  pending ??= readAppConfig()
    .then((body) => ({
      tutorial_video_url: text(body.tutorial_video_url),
      privacy_contact_email: text(body.privacy_contact_email),
      support_chat_url: text(body.support_chat_url),
      merchant_count:
        typeof body.merchant_count === 'number' && Number.isFinite(body.merchant_count) && body.merchant_count > 0
          ? body.merchant_count
          : null,
      app_store_url: text(body.app_store_url),
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
