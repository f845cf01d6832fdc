// PageSpeed Insights API v5, performance category only. One call per strategy (desktop, mobile).
// PAGESPEED_ORIGIN is https://www.googleapis.com in production and the local PSI emulator in tests.

export type Strategy = 'desktop' | 'mobile';

export type PsiOutcome =
  | { kind: 'score'; score: number; finalUrl: string }
  /** The storefront answered with its password page: Lighthouse scored /password, not the store. */
  | { kind: 'password_protected'; detail: string }
  /** Lighthouse could not load the storefront (DNS, connection, HTTP error, blank page). */
  | { kind: 'unreachable'; detail: string }
  /** PSI's quota (HTTP 429): try again later, later still each time. */
  | { kind: 'rate_limited'; retryAfterSeconds: number | null; detail: string }
  /** Anything worth retrying as is: PSI 5xx without a Lighthouse verdict, network errors, timeouts. */
  | { kind: 'temporary'; detail: string }
  /** Our request is wrong (bad API key, bad parameters): retrying will not help. */
  | { kind: 'rejected'; detail: string };

// Lighthouse "user errors": the page itself could not be loaded or rendered. Codes from Lighthouse's
// LighthouseError (lighthouse-core/lib/lh-error.js), as PSI reports them in `error.message`.
const UNREACHABLE_CODES = [
  'FAILED_DOCUMENT_REQUEST',
  'ERRORED_DOCUMENT_REQUEST',
  'DNS_FAILURE',
  'NOT_HTML',
  'NO_FCP',
  'PAGE_HUNG',
  'INSECURE_DOCUMENT_REQUEST',
  'CHROME_INTERSTITIAL_ERROR',
  'INVALID_URL',
];

// Lighthouse runs take 10-60 s; past this PSI is stuck and the queue retries later.
const PSI_TIMEOUT_MS = 120_000;

export function psiRequestUrl(origin: string, apiKey: string, pageUrl: string, strategy: Strategy): string {
  const url = new URL('/pagespeedonline/v5/runPagespeed', origin);
  url.searchParams.set('url', pageUrl);
  url.searchParams.set('strategy', strategy);
  url.searchParams.set('category', 'performance');
  if (apiKey) url.searchParams.set('key', apiKey);
  return url.toString();
}

type PsiBody = {
  error?: { code?: number; message?: string };
  lighthouseResult?: {
    finalUrl?: string;
    finalDisplayedUrl?: string;
    runtimeError?: { code?: string; message?: string };
    categories?: { performance?: { score?: number | null } };
  };
};

/** Shopify sends visitors of a password-protected store to /password (also under a locale prefix). */
function isPasswordPage(url: string | undefined): boolean {
  if (!url) return false;
  try {
    return /^\/(?:[a-z]{2}(?:-[a-z]{2,4})?\/)?password\/?$/i.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

export function classifyPsiResponse(status: number, body: PsiBody | null, retryAfter: string | null): PsiOutcome {
  const message = body?.error?.message ?? `HTTP ${status}`;
  if (status === 429) {
    const seconds = retryAfter && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null;
    return { kind: 'rate_limited', retryAfterSeconds: seconds, detail: message };
  }
  if (status !== 200 || !body?.lighthouseResult) {
    if (/Status code: 401\b/.test(message)) return { kind: 'password_protected', detail: message };
    if (UNREACHABLE_CODES.some((code) => message.includes(code))) return { kind: 'unreachable', detail: message };
    if (status === 400 || status === 401 || status === 403) return { kind: 'rejected', detail: message };
    return { kind: 'temporary', detail: message };
  }
  const result = body.lighthouseResult;
  const finalUrl = result.finalDisplayedUrl ?? result.finalUrl ?? '';
  if (isPasswordPage(finalUrl) || isPasswordPage(result.finalUrl)) return { kind: 'password_protected', detail: finalUrl };
  const runtimeCode = result.runtimeError?.code;
  if (runtimeCode) {
    const detail = `${runtimeCode}: ${result.runtimeError?.message ?? ''}`;
    return UNREACHABLE_CODES.includes(runtimeCode) ? { kind: 'unreachable', detail } : { kind: 'temporary', detail };
  }
  const score = result.categories?.performance?.score;
  // Lighthouse scores are fractions 0..1; anything else is a malformed answer, not a score of 8,100.
  if (typeof score !== 'number' || !(score >= 0 && score <= 1))
    return { kind: 'temporary', detail: 'no valid performance score in the PSI response' };
  return { kind: 'score', score: Math.round(score * 100), finalUrl };
}

export async function runPagespeed(
  env: Pick<Env, 'PAGESPEED_ORIGIN' | 'PAGESPEED_API_KEY'>,
  pageUrl: string,
  strategy: Strategy,
): Promise<PsiOutcome> {
  let res: Response;
  try {
    res = await fetch(psiRequestUrl(env.PAGESPEED_ORIGIN, env.PAGESPEED_API_KEY, pageUrl, strategy), {
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(PSI_TIMEOUT_MS),
    });
  } catch (error) {
    return { kind: 'temporary', detail: error instanceof Error ? error.message : String(error) };
  }
  const body = (await res.json().catch(() => null)) as PsiBody | null;
  return classifyPsiResponse(res.status, body, res.headers.get('Retry-After'));
}
