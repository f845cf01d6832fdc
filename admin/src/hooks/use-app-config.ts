import { useEffect, useState } from 'react';
import type { AppConfig } from '../../../shared/api/account';

// Runtime configuration of the deployed Worker (GET /app-config, worker/routes/app-config.ts): the
// tutorial video and the privacy contact address. Read once per page load; public, so it needs no
// session (the privacy policy reads it too). Until it answers, or if it fails, nothing is configured.
export type { AppConfig };
const NONE: AppConfig = { tutorial_video_url: null, privacy_contact_email: null };

let pending: Promise<AppConfig> | null = null;

export function loadAppConfig(): Promise<AppConfig> {
  pending ??= fetch('/app-config', { headers: { Accept: 'application/json' } })
    .then((res): Promise<Partial<AppConfig>> | Partial<AppConfig> => (res.ok ? (res.json() as Promise<Partial<AppConfig>>) : {}))
    .then((body) => ({
      tutorial_video_url: typeof body.tutorial_video_url === 'string' && body.tutorial_video_url ? body.tutorial_video_url : null,
      privacy_contact_email:
        typeof body.privacy_contact_email === 'string' && body.privacy_contact_email ? body.privacy_contact_email : null,
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
