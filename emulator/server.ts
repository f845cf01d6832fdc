// The Shopify store emulator: Admin GraphQL, OAuth, staged uploads, CDN, billing pages, themes,
// webhooks, storefront pages and a PageSpeed Insights emulator, on one local HTTP origin.
//   npx tsx emulator/server.ts        (or: npm run emulator) -> http://127.0.0.1:8788
// Used by `npm start` and by vitest's globalSetup (tests/global-setup.ts). See README.md beside this file.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { parseAppToml, resolveWebhookTargets, type AppToml } from './app-toml';
import { mountAdminApi } from './http/admin-api';
import { mountAdminAppFrame } from './http/admin-app-frame';
import { mountBillingPages } from './http/billing-pages';
import { CONTROL, mountControlShops } from './http/control-shops';
import { mountControlImages } from './http/control-images';
import { mountControlResources } from './http/control-resources';
import { mountFiles } from './http/files';
import { mountOAuth } from './http/oauth';
import { mountPageSpeed } from './http/pagespeed';
import { mountStorefront } from './http/storefront';
import { type AppConfig, createEmulator, type Emulator } from './store/registry';
import { createShop, DEV_STORE_DOMAIN } from './store/seed';
import type { ShopSettings } from './store/shop-state';

export type EmulatorOptions = {
  port?: number; // 0 picks a free port
  host?: string;
  app: AppConfig;
  /** Seed the dev store (dev-store.myshopify.com). */
  seedDevStore?: boolean;
  /** Settings every new shop starts with (e.g. webhookUrl for `npm start`). */
  defaults?: Partial<ShopSettings>;
  log?: boolean;
};

export type RunningEmulator = { origin: string; port: number; emu: Emulator; close: () => Promise<void> };

export function buildApp(emu: Emulator, log = false): Hono {
  const app = new Hono();
  if (log) {
    app.use('*', async (c, next) => {
      const t = Date.now();
      await next();
      console.log(`[emulator] ${c.req.method} ${c.req.path} ${c.res.status} ${Date.now() - t}ms`);
    });
  }
  mountStorefront(app, emu); // host-based storefront (<name>.localhost) first
  mountControlShops(app, emu);
  mountControlResources(app, emu);
  mountControlImages(app, emu);
  mountOAuth(app, emu);
  mountAdminApi(app, emu);
  mountBillingPages(app, emu);
  mountAdminAppFrame(app, emu);
  mountFiles(app, emu);
  mountPageSpeed(app, emu);
  app.get('/', (c) => c.text(`Shopify store emulator. Control API under ${CONTROL}; see emulator/README.md.`));
  app.onError((err, c) => {
    console.error('[emulator] error', err);
    return c.json({ errors: 'Internal Server Error' }, 500);
  });
  return app;
}

export async function startEmulator(opts: EmulatorOptions): Promise<RunningEmulator> {
  let app: Hono | null = null;
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve(
      {
        fetch: (req) => (app ? app.fetch(req) : new Response('starting', { status: 503 })),
        port: opts.port ?? 0,
        hostname: opts.host ?? '127.0.0.1',
      },
      () => resolve(s),
    );
    s.once('error', reject); // e.g. EADDRINUSE: fail loudly instead of hanging
  });
  // Long bulk operations can keep the event loop busy; a short keep-alive would then close sockets that
  // clients are about to reuse (ECONNRESET). Node's default is 5 s.
  (server as import('node:http').Server).keepAliveTimeout = 65_000;
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${opts.host ?? '127.0.0.1'}:${port}`;
  // Webhooks go where Shopify would send them for this app: shopify.app.toml resolved against appUrl.
  const emu = createEmulator(origin, {
    ...opts.app,
    webhooks: opts.app.webhooks ?? resolveWebhookTargets(APP_TOML, opts.app.appUrl),
  });
  Object.assign(emu.defaultSettings, opts.defaults ?? {});
  if (opts.seedDevStore !== false) createShop(emu, { domain: DEV_STORE_DOMAIN, seed: 'dev' });
  app = buildApp(emu, opts.log);
  return {
    origin,
    port,
    emu,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** KEY=value lines of .dev.vars (wrangler's local secrets), for running the emulator beside `wrangler dev`. */
export function readDevVars(path = '.dev.vars'): Record<string, string> {
  try {
    return Object.fromEntries(
      readFileSync(path, 'utf8')
        .split('\n')
        .map((l) => /^\s*([A-Z0-9_]+)\s*=\s*"?(.*?)"?\s*$/.exec(l))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1]!, m[2]!]),
    );
  } catch {
    return {};
  }
}

/** The repository's shopify.app.toml: the app's scopes and webhook subscriptions come from it. */
export const APP_TOML: AppToml = parseAppToml(
  readFileSync(fileURLToPath(new URL('../shopify.app.toml', import.meta.url)), 'utf8'),
);

/** The app's scopes, from their one source (shopify.app.toml). */
export const DEFAULT_SCOPES = APP_TOML.access_scopes?.scopes ?? '';

/** The app's handle, from its one source (shopify.app.toml): Shopify names our theme blocks with it. */
export const APP_HANDLE = APP_TOML.handle ?? '';

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const vars = { ...readDevVars(), ...process.env } as Record<string, string | undefined>;
  const appUrl = vars.APP_URL ?? 'http://localhost:8787';
  const running = await startEmulator({
    port: Number(vars.EMULATOR_PORT ?? 8788),
    host: vars.EMULATOR_HOST ?? '127.0.0.1',
    app: {
      apiKey: vars.SHOPIFY_API_KEY ?? 'local-dev-api-key',
      apiSecret: vars.SHOPIFY_API_SECRET ?? 'local-dev-api-secret-change-me-0123456789',
      appUrl,
      handle: APP_HANDLE,
      scopes: (vars.SHOPIFY_SCOPES ?? DEFAULT_SCOPES).split(','),
    },
    // Deliver at once, to the URL shopify.app.toml resolves to (EMULATOR_WEBHOOK_URL overrides it).
    defaults: { deliverWebhooks: true, webhookUrl: vars.EMULATOR_WEBHOOK_URL ?? '' },
    log: vars.EMULATOR_LOG === '1',
  });
  console.log(
    `Shopify store emulator on ${running.origin} (dev store: ${DEV_STORE_DOMAIN}; storefront http://dev-store.localhost:${running.port}/)`,
  );
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
