// Required secrets are checked once per isolate, so a missing one is a clear error at the first request
// instead of a silent "" deep inside a signature check.
const REQUIRED = ['SHOPIFY_API_KEY', 'SHOPIFY_API_SECRET', 'TOKEN_ENCRYPTION_KEY', 'APP_URL'] as const;

let checked = false;

export function assertConfig(env: Env): void {
  if (checked) return;
  const missing = REQUIRED.filter((name) => !env[name] || String(env[name]).trim() === '');
  if (missing.length > 0) throw new Error(`Missing required configuration: ${missing.join(', ')}`);
  checked = true;
}
