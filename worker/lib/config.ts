// Required secrets are checked once per isolate, so a missing one is a clear error at the first request
// instead of a silent "" deep inside a signature check. So is the new-user offer's configuration: a typo
// there would otherwise show one discount and bill another (or none); and the App Store listing's handle.
import { offerProblem } from '../billing/terms';
import { appStoreHandleProblem } from './app-store';

// SHOPIFY_APP_HANDLE names our embed block in the theme: without it the dashboard would say "off" forever.
const REQUIRED = ['SHOPIFY_API_KEY', 'SHOPIFY_API_SECRET', 'TOKEN_ENCRYPTION_KEY', 'APP_URL', 'SHOPIFY_APP_HANDLE'] as const;

/** The stand-in values wrangler.toml carries ("set-by-…", "set-in-…"). */
const PLACEHOLDER = /^set-(by|in)-/;

let checked = false;

/** What is wrong with the configuration, or null. */
export function configProblem(env: Env): string | null {
  const missing = REQUIRED.filter((name) => !env[name] || String(env[name]).trim() === '');
  if (missing.length > 0) return `Missing required configuration: ${missing.join(', ')}`;
  // wrangler.toml ships a stand-in for the client id until `shopify app config link` fills it: App Bridge
  // would get it in every document, so a deploy that still carries it fails loudly here instead.
  if (PLACEHOLDER.test(String(env.SHOPIFY_API_KEY))) return 'SHOPIFY_API_KEY is still the placeholder: set the app client id';
  return appStoreHandleProblem(env) ?? offerProblem(env);
}

export function assertConfig(env: Env): void {
  if (checked) return;
  const problem = configProblem(env);
  if (problem) throw new Error(problem);
  checked = true;
}
