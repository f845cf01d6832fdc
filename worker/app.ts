import { Hono, type Context } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { serveDocument, WORKER_PATH } from './document';
import { assertConfig } from './lib/config';
import { authenticate } from './middleware/authenticate';
import { limitBody } from './middleware/body-limit';
import { onError, onNotFound } from './middleware/error-handler';
import { rateLimit } from './middleware/rate-limit';
import { requestContext } from './middleware/request-context';
import { accountRoutes } from './routes/account';
import { adminTokenRoutes } from './routes/admin-tokens';
import { billingRoutes } from './routes/billing';
import { catalogueRoutes } from './routes/catalogue';
import { filesRoutes } from './routes/files';
import { appConfigRoutes } from './routes/app-config';
import { healthRoutes } from './routes/health';
import { historyRoutes } from './routes/history';
import { homeRoutes } from './routes/home';
import { imageSettingsRoutes } from './routes/image-settings';
import { legacySettingsRoutes } from './routes/legacy-settings';
import { optimiseRoutes } from './routes/optimise';
import { recommendationsRoutes } from './routes/recommendations';
import { shopifyRoutes } from './routes/shopify';
import { storefrontRoutes } from './routes/storefront';
import { webhooksRoutes } from './routes/webhooks';
import type { AppEnv } from './types';

export const app = new Hono<AppEnv>();

/** The request's execution context, when it has one (app.request in a test may give none). */
function executionCtxOf(c: Context<AppEnv>): Context<AppEnv>['executionCtx'] | undefined {
  try {
    return c.executionCtx;
  } catch {
    return undefined;
  }
}

app.use('*', async (c, next) => {
  assertConfig(c.env);
  await next();
});
app.use('*', requestContext());
// Abuse limits (worker/lib/limits.ts): oversized bodies are refused before they are read; the
// unauthenticated entry points are rate-limited per client. On /webhooks only refused (unsigned or
// untrusted) deliveries count, so Shopify's own bursts (a product import) are never throttled.
// ('/webhooks/*' also matches '/webhooks' itself: one registration, one count per request.)
app.use('*', limitBody());
app.use('/shopify/*', rateLimit('SHOPIFY_RATE_LIMITER'));
app.use('/webhooks/*', rateLimit('WEBHOOK_RATE_LIMITER', 'refused'));
// API answers are JSON, never framed documents. The admin's HTML gets its per-shop frame-ancestors policy
// from serveDocument below (a <meta> cannot carry frame-ancestors, so it must be this response header).
app.use('/api/*', secureHeaders({ xFrameOptions: false, crossOriginResourcePolicy: false }));

// Unauthenticated entry points: health, Shopify's redirects and webhooks, public files, storefront script.
app.route('/', healthRoutes);
app.route('/', appConfigRoutes);
app.route('/', shopifyRoutes);
app.route('/', webhooksRoutes);
app.route('/', storefrontRoutes);
app.route('/', filesRoutes);

// Every other /api route authenticates first (session token or admin token) and is scoped to that shop.
app.use('/api/*', authenticate());
app.route('/', accountRoutes);
app.route('/', adminTokenRoutes);
app.route('/', billingRoutes);
app.route('/', recommendationsRoutes);
app.route('/', imageSettingsRoutes);
app.route('/', legacySettingsRoutes);
app.route('/', catalogueRoutes);
app.route('/', historyRoutes);
app.route('/', optimiseRoutes);
app.route('/', homeRoutes);

// Everything else is the admin: its HTML document (launch at `/`, client routes, SPA fallback) with the
// security headers and the API key. run_worker_first sends every path but /assets/* here.
app.get('*', async (c, next) =>
  WORKER_PATH.test(c.req.path) ? next() : serveDocument(c, async (req) => app.fetch(req, c.env, executionCtxOf(c))),
);

app.onError(onError);
app.notFound(onNotFound);
