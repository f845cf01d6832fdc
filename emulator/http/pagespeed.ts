// PageSpeed Insights v5 `runPagespeed`: Lighthouse-shaped answers with a performance score per
// strategy, plus the failures the product must handle (429 quota, password-protected store,
// unreachable host), switchable per storefront host through the control API.
import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import type { Emulator, PageSpeedRule } from '../store/registry';
import type { ShopState } from '../store/shop-state';

/** Lighthouse 12 performance weights and log-normal scoring curves (p10, median), per form factor. */
const METRICS: Record<'desktop' | 'mobile', Record<string, readonly [p10: number, median: number, weight: number]>> = {
  desktop: {
    'first-contentful-paint': [934, 1600, 0.1],
    'largest-contentful-paint': [1200, 2400, 0.25],
    'total-blocking-time': [150, 350, 0.3],
    'cumulative-layout-shift': [0.1, 0.25, 0.25],
    'speed-index': [1311, 2300, 0.1],
  },
  mobile: {
    'first-contentful-paint': [1800, 3000, 0.1],
    'largest-contentful-paint': [2500, 4000, 0.25],
    'total-blocking-time': [200, 600, 0.3],
    'cumulative-layout-shift': [0.1, 0.25, 0.25],
    'speed-index': [3387, 5800, 0.1],
  },
};

const TITLES: Record<string, string> = {
  'first-contentful-paint': 'First Contentful Paint',
  'largest-contentful-paint': 'Largest Contentful Paint',
  'total-blocking-time': 'Total Blocking Time',
  'cumulative-layout-shift': 'Cumulative Layout Shift',
  'speed-index': 'Speed Index',
};

function googleError(code: number, message: string, reason: string, status: string): Response {
  return Response.json(
    { error: { code, message, errors: [{ message, domain: code === 429 ? 'global' : 'lighthouse', reason }], status } },
    { status: code },
  );
}

/** A stable score per URL and strategy (0.55-0.95 desktop, 0.30-0.75 mobile) unless a rule fixes it. */
function defaultScore(url: string, strategy: 'desktop' | 'mobile'): number {
  const h = createHash('sha256').update(`${url}|${strategy}`).digest()[0]! / 255;
  return Math.round((strategy === 'desktop' ? 0.55 + h * 0.4 : 0.3 + h * 0.45) * 100) / 100;
}

/** Metric values that land each metric's score near the overall score. */
function audits(score: number, strategy: 'desktop' | 'mobile') {
  const out: Record<string, unknown> = {};
  for (const [id, [p10, median]] of Object.entries(METRICS[strategy])) {
    // Interpolate on the log-normal curve: score 0.9 at p10, 0.5 at the median.
    const t = (0.9 - score) / 0.4;
    const value = Math.exp(Math.log(p10) + t * (Math.log(median) - Math.log(p10)));
    const isCls = id === 'cumulative-layout-shift';
    out[id] = {
      id,
      title: TITLES[id],
      score: Math.max(0, Math.min(1, Math.round(score * 100) / 100)),
      scoreDisplayMode: 'numeric',
      numericValue: isCls ? Math.round(value * 1000) / 1000 : Math.round(value),
      numericUnit: isCls ? 'unitless' : 'millisecond',
      displayValue: isCls
        ? (Math.round(value * 1000) / 1000).toFixed(3)
        : id === 'total-blocking-time'
          ? `${Math.round(value / 10) * 10} ms`
          : `${(value / 1000).toFixed(1)} s`,
    };
  }
  return out;
}

function shopForUrl(emu: Emulator, url: URL): ShopState | undefined {
  const host = url.hostname;
  const viaLocalhost = /^([a-z0-9-]+)\.localhost$/.exec(host);
  if (viaLocalhost) return emu.shops.get(`${viaLocalhost[1]}.myshopify.com`);
  return emu.shops.get(host) ?? [...emu.shops.values()].find((s) => new URL(s.primaryDomainUrl).hostname === host);
}

export function mountPageSpeed(app: Hono, emu: Emulator): void {
  app.get('/pagespeedonline/v5/runPagespeed', async (c) => {
    const raw = c.req.query('url') ?? '';
    const strategy = (c.req.query('strategy') ?? 'desktop').toLowerCase() === 'mobile' ? 'mobile' : 'desktop';
    const record = (status: number) => emu.pageSpeedCalls.push({ url: raw, strategy, at: new Date().toISOString(), status });
    let url: URL;
    try {
      url = new URL(raw);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
    } catch {
      record(400);
      return googleError(400, "Invalid value at 'url' (TYPE_STRING), \"" + raw + '"', 'badRequest', 'INVALID_ARGUMENT');
    }
    const key = emu.pageSpeed.has(url.host) ? url.host : '*';
    const rule: PageSpeedRule = emu.pageSpeed.get(key) ?? { mode: 'ok' };
    if (rule.remaining !== undefined) {
      rule.remaining -= 1; // a rule with `remaining` applies to that many calls, then the default returns
      if (rule.remaining <= 0) emu.pageSpeed.delete(key);
    }
    const mode = rule.mode;
    if (rule.delayMs) await new Promise((r) => setTimeout(r, rule.delayMs));
    const shop = shopForUrl(emu, url);
    if (mode === 'rate-limited') {
      record(429);
      return googleError(
        429,
        "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service 'pagespeedonline.googleapis.com' for consumer 'project_number:583797351490'.",
        'rateLimitExceeded',
        'RESOURCE_EXHAUSTED',
      );
    }
    if (mode === 'password' || (mode === 'ok' && shop?.settings.storefrontPassword)) {
      record(400);
      return googleError(
        400,
        'Lighthouse returned error: ERRORED_DOCUMENT_REQUEST. Lighthouse was unable to reliably load the page you requested. Make sure you are testing the correct URL and that the server is properly responding to all requests. (Status code: 401)',
        'lighthouseUserError',
        'INVALID_ARGUMENT',
      );
    }
    if (mode === 'unreachable') {
      record(400);
      return googleError(
        400,
        'Lighthouse returned error: FAILED_DOCUMENT_REQUEST. Lighthouse was unable to reliably load the page you requested. Make sure you are testing the correct URL and that the server is properly responding to all requests. (Details: net::ERR_NAME_NOT_RESOLVED)',
        'lighthouseUserError',
        'INVALID_ARGUMENT',
      );
    }
    if (mode === 'error') {
      record(500);
      return googleError(500, 'Lighthouse returned error: Something went wrong.', 'internalError', 'INTERNAL');
    }
    const score = rule[strategy] ?? defaultScore(url.toString(), strategy);
    const now = new Date().toISOString();
    const finalUrl = url.toString();
    record(200);
    return c.json({
      captchaResult: 'CAPTCHA_NOT_NEEDED',
      kind: 'pagespeedonline#result',
      id: finalUrl,
      loadingExperience: { initial_url: finalUrl },
      lighthouseResult: {
        requestedUrl: raw,
        finalUrl,
        mainDocumentUrl: finalUrl,
        finalDisplayedUrl: finalUrl,
        lighthouseVersion: '12.8.2',
        userAgent:
          strategy === 'mobile'
            ? 'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Mobile Safari/537.36'
            : 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
        fetchTime: now,
        environment: { networkUserAgent: 'Chrome-Lighthouse', hostUserAgent: 'HeadlessChrome/140', benchmarkIndex: 2150 },
        runWarnings: [],
        configSettings: {
          emulatedFormFactor: strategy,
          formFactor: strategy,
          locale: c.req.query('locale') ?? 'en-US',
          onlyCategories: ['performance'],
          channel: 'lr',
        },
        audits: audits(score, strategy),
        categories: {
          performance: {
            id: 'performance',
            title: 'Performance',
            score,
            auditRefs: Object.entries(METRICS[strategy]).map(([id, [, , weight]]) => ({
              id,
              weight: weight * 100,
              group: 'metrics',
              acronym: id
                .split('-')
                .map((w) => w[0]!.toUpperCase())
                .join(''),
            })),
          },
        },
        timing: { total: 8000 + Math.round(Math.random() * 6000) },
      },
      analysisUTCTimestamp: now,
    });
  });
}
