import { Hono } from 'hono';
import type { Context } from 'hono';
import { PREFETCH_SCRIPT } from '../../storefront-script/build/script-module';
import type { AppEnv } from '../types';

// /storefront/*: the prefetch script, public and called from every storefront (any origin).
// The versioned URL never changes content, so browsers and Cloudflare keep it for a year; the
// unversioned URL is for script-tag installs and is re-validated every 5 minutes (ETag -> 304).
export const storefrontRoutes = new Hono<AppEnv>();

export const PREFETCH_SCRIPT_PATH = `/storefront/prefetch.${PREFETCH_SCRIPT.version}.js`;
const ETAG = `"${PREFETCH_SCRIPT.version}"`;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=300, stale-while-revalidate=86400';

function corsHeaders(c: Context<AppEnv>) {
  c.header('Access-Control-Allow-Origin', '*');
  // Module scripts are fetched in CORS mode; storefronts with COEP need CORP too.
  c.header('Cross-Origin-Resource-Policy', 'cross-origin');
  c.header('Timing-Allow-Origin', '*');
}

function serveScript(c: Context<AppEnv>, cacheControl: string) {
  corsHeaders(c);
  c.header('Cache-Control', cacheControl);
  c.header('ETag', ETAG);
  c.header('X-Content-Type-Options', 'nosniff');
  const ifNoneMatch = c.req.header('If-None-Match') ?? '';
  if (ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === ETAG)) return c.body(null, 304);
  c.header('Content-Type', 'text/javascript; charset=utf-8');
  return c.body(PREFETCH_SCRIPT.source);
}

storefrontRoutes.options('/storefront/*', (c) => {
  corsHeaders(c);
  c.header('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
  c.header('Access-Control-Max-Age', '86400');
  return c.body(null, 204);
});

storefrontRoutes.get('/storefront/prefetch.js', (c) => serveScript(c, REVALIDATE));

storefrontRoutes.get('/storefront/:file{prefetch\\.[0-9a-f]{10}\\.js}', (c) => {
  if (c.req.path === PREFETCH_SCRIPT_PATH) return serveScript(c, IMMUTABLE);
  // A page cached before a deploy still names the old version: send it to the current one, briefly.
  corsHeaders(c);
  c.header('Cache-Control', 'public, max-age=300');
  return c.redirect(PREFETCH_SCRIPT_PATH, 302);
});
