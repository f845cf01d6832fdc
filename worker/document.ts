// The admin's HTML document (launch at `/`, every client route, the SPA fallback) goes through the Worker
// so that each response carries the per-shop frame-ancestors policy (a <meta> cannot carry it) and the
// App Bridge API key from this Worker's configuration. Static files (/assets/*) never reach the Worker:
// wrangler.toml's run_worker_first excludes them.
import type { Context } from 'hono';
import { shopFromHost } from './install/host';
import { isShopDomain } from './auth/session-token';
import { shopifyHostUrl } from './shopify';
import type { AppEnv } from './types';
import { firstReadsBy, firstReadsElement, type InternalFetch } from './document-reads';
import {
  eventReplayScript,
  renderDocumentScreen,
  rootAttributes,
  rootGuardScript,
  screenPathScript,
  type RenderedScreen,
} from './document-render';
import { LANGUAGES } from '../shared/languages';

/** Paths the Worker answers itself; an unknown path under them is a JSON 404, never the document. */
export const WORKER_PATH = /^\/(api|shopify|webhooks|storefront|imageAddWatermark|files)(\/|$)/;

/** The shop the document is for: `?shop=` when it is a myshopify domain, else the one `?host=` names. */
export function documentShop(url: URL): string | null {
  const shop = (url.searchParams.get('shop') ?? '').trim().toLowerCase();
  return isShopDomain(shop) ? shop : shopFromHost(url.searchParams.get('host'));
}

/**
 * Who may frame the document: the shop and Shopify's unified admin. Locally (SHOPIFY_ORIGIN set) the
 * store emulator plays Shopify's admin, so its origin is allowed too. No validated shop: nobody.
 */
export function frameAncestors(env: Pick<Env, 'SHOPIFY_ORIGIN'>, shop: string | null): string {
  if (!shop) return "frame-ancestors 'none'";
  const sources = [`https://${shop}`, 'https://admin.shopify.com'];
  const local = (env.SHOPIFY_ORIGIN ?? '').trim();
  if (local) sources.push(new URL(local).origin);
  return `frame-ancestors ${sources.join(' ')}`;
}

/**
 * A fresh nonce for one document (16 random bytes, base64): the only way a script runs in the admin
 * document. Cache-Control no-store keeps a nonce from being served twice.
 */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * Directives every admin document carries besides frame-ancestors (issue 25, item 10):
 * - `script-src 'nonce-…' 'strict-dynamic'`: only the document's own `<script>` and modulepreload tags
 *   run (the Worker gives each the nonce, see withShopifyConfig), and what they load in turn (the admin's
 *   lazy chunks, whatever App Bridge adds). No host allow-list: cdn.shopify.com also serves any shop's
 *   uploaded files, so allowing the host would allow scripts an attacker uploads there. No 'unsafe-inline',
 *   no 'unsafe-eval': an injected `<script>`, an inline event handler or a `javascript:` link does not run.
 * - `object-src 'none'`: no plugins. `base-uri 'self'`: no `<base>` pointing scripts and links elsewhere.
 */
export function documentPolicy(nonce: string): string {
  return `script-src 'nonce-${nonce}' 'strict-dynamic'; object-src 'none'; base-uri 'self'`;
}

export function documentHeaders(env: Pick<Env, 'SHOPIFY_ORIGIN'>, url: URL, nonce: string): Record<string, string> {
  return {
    'Content-Security-Policy': `${frameAncestors(env, documentShop(url))}; ${documentPolicy(nonce)}`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    // The policy, its nonce and the key differ per request: no shared cache may keep one shop's document.
    'Cache-Control': 'no-store',
  };
}

const APP_BRIDGE_SCRIPT = 'https://cdn.shopify.com/shopifycloud/app-bridge.js';

/**
 * Fills App Bridge's `shopify-api-key` meta with the configured client id, and loads App Bridge from
 * Shopify's CDN by the same rule as every Shopify host (worker/shopify/api-version.ts): the CDN itself in
 * production, `<SHOPIFY_ORIGIN>/cdn.shopify.com/...` where the store emulator plays Shopify. Every
 * `<script>` and modulepreload of the document gets the response's nonce, and `<meta property="csp-nonce">`
 * carries it for Vite's loader of lazy chunks (it gives the nonce to the modulepreload links it adds).
 */
function withShopifyConfig(
  res: Response,
  env: Pick<Env, 'SHOPIFY_API_KEY' | 'SHOPIFY_ORIGIN'>,
  nonce: string,
  reads: string,
  screen: RenderedScreen | null,
  path: string,
): Response {
  const appBridge = `${shopifyHostUrl(env, 'cdn.shopify.com')}/shopifycloud/app-bridge.js`;
  return (
    new HTMLRewriter()
      .on('head', {
        element(el) {
          el.append(`<meta property="csp-nonce" nonce="${nonce}" />`, { html: true });
        },
      })
      // The address of the screen rendered, before the head's preloads read it (document-render.ts).
      .on('meta[charset]', {
        element(el) {
          if (screen) el.after(screenPathScript(nonce, screen, path), { html: true });
        },
      })
      .on('meta[name="shopify-api-key"]', {
        element(el) {
          el.setAttribute('content', env.SHOPIFY_API_KEY);
        },
      })
      .on(`script[src="${APP_BRIDGE_SCRIPT}"]`, {
        element(el) {
          el.setAttribute('src', appBridge);
        },
      })
      .on('script, link[rel="modulepreload"]', {
        element(el) {
          el.setAttribute('nonce', nonce);
        },
      })
      // The first screen rendered by the Worker (worker/document-render.ts), in its language.
      .on('html', {
        element(el) {
          const html = screen && LANGUAGES.find((l) => l.code === screen.language)?.html;
          if (html) el.setAttribute('lang', html);
        },
      })
      .on('div#root', {
        element(el) {
          if (!screen) return;
          for (const [name, value] of Object.entries(rootAttributes(screen))) el.setAttribute(name, value);
          el.setInnerContent(screen.html, { html: true });
          el.after(rootGuardScript(nonce, screen.flags, screen.stateKeys) + eventReplayScript(nonce), { html: true });
        },
      })
      // The first screen's data (worker/document-reads.ts), last in <body>.
      .on('body', {
        element(el) {
          if (reads) el.append(reads, { html: true });
        },
      })
      .transform(res)
  );
}

/**
 * GET/HEAD of any non-Worker path: the asset (index.html for `/` and, through the SPA fallback, for every
 * client route). HTML gets the key, the security headers, its screen's first reads (made through
 * `internal`, the Worker's own routes) and its first screen rendered from them (`render`, which never
 * fails the document: nothing rendered, the root stays empty); anything else passes through untouched.
 */
/** The time zone Cloudflare places the request in (`request.cf.timezone`), if it says. */
function timeZoneOf(req: Request): string | null {
  const tz = (req as Request & { cf?: { timezone?: unknown } }).cf?.timezone;
  return typeof tz === 'string' && tz ? tz : null;
}

export async function serveDocument(
  c: Context<AppEnv>,
  internal: InternalFetch,
  render: typeof renderDocumentScreen = renderDocumentScreen,
): Promise<Response> {
  const url = new URL(c.req.url);
  // Started before the asset is read: the reads run meanwhile, then the first screen is rendered from them.
  const reads = c.req.method === 'GET' && !/\.\w+$/.test(url.pathname) ? firstReadsBy(internal, url) : null;
  const rendered = reads?.then(async (answers) => ({
    element: firstReadsElement(answers),
    screen: await render(url, answers, c.req.raw.headers, timeZoneOf(c.req.raw)).catch(() => null),
  }));
  // No conditional request: a 304 would answer for the document without its per-request headers.
  const headers = new Headers(c.req.raw.headers);
  headers.delete('If-None-Match');
  headers.delete('If-Modified-Since');
  const asset = await c.env.ASSETS.fetch(new Request(url, { method: c.req.method, headers }));
  if (!(asset.headers.get('Content-Type') ?? '').includes('text/html')) return asset;
  const res = new Response(asset.body, { status: asset.status, statusText: asset.statusText, headers: asset.headers });
  const nonce = newNonce();
  for (const [k, v] of Object.entries(documentHeaders(c.env, url, nonce))) res.headers.set(k, v);
  res.headers.delete('ETag'); // the body changes with the key and the nonce; the asset's ETag no longer describes it
  // The whole document once the reads answered (at most READS_DEADLINE_MS): a document whose end came
  // later than its head held Chrome's first frame back (measured: LCP 3.52 s streamed, 2.89 s whole on
  // /main, Lighthouse mobile), while the reads take a few milliseconds of D1 each.
  if (c.req.method === 'HEAD' || !rendered) return res;
  const { element, screen } = await rendered;
  return withShopifyConfig(res, c.env, nonce, element, screen, url.pathname);
}
