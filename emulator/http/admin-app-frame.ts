// The app's page inside Shopify's admin: after OAuth the app sends the browser to
// `admin.shopify.com/store/<store>/apps/<api key>/<path>`, after a billing approve/decline to the shop's
// own `/<shop>/admin/apps/<api key>/<path>` (which Shopify forwards to the former). Real Shopify renders
// its admin and frames the app's URL. Here the unified form sends the browser straight to the app's own
// page `${APP_URL}/<path>` with the query kept (the standalone admin finds its authToken in localStorage:
// the local install flow of `npm start` and the admin browser test), while the shop's form opens the
// emulator's admin page that frames the app, `/store/<store>/apps/<app>/<path>` (admin-embedded.ts): a
// billing decision starts inside the admin and comes back there.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Context, Hono } from 'hono';
import type { Emulator } from '../store/registry';
import { mountEmbeddedAdmin } from './admin-embedded';
import { SHOP_PARAM } from './oauth';

/** Shopify accepts the app's API key or its handle in the admin URL. */
function isThisApp(emu: Emulator, app: string): boolean {
  return app === emu.app.apiKey || app === emu.app.handle;
}

function toAppPage(c: Context, emu: Emulator, shopDomain: string, prefix: string) {
  const app = c.req.param('app') ?? '';
  if (!emu.shops.has(shopDomain) || !isThisApp(emu, app)) return c.text('Not Found', 404);
  const url = new URL(c.req.url);
  const rest = url.pathname.slice(`${prefix}/${app}`.length).replace(/^\/+/, '');
  return c.redirect(`${emu.app.appUrl.replace(/\/+$/, '')}/${rest}${url.search}`, 302);
}

export function mountAdminAppFrame(app: Hono, emu: Emulator): void {
  const unified = (c: Context) => {
    const store = c.req.param('store') ?? '';
    return toAppPage(c, emu, `${store}.myshopify.com`, `/admin.shopify.com/store/${store}/apps`);
  };
  app.get('/admin.shopify.com/store/:store/apps/:app', unified);
  app.get('/admin.shopify.com/store/:store/apps/:app/*', unified);

  // The shop's own admin URL opens the app inside the admin, as Shopify forwards it to admin.shopify.com:
  // here the emulator's admin page (admin-embedded.ts), query kept. The app sends the merchant here after
  // a billing decision, which only a merchant inside the admin can start (a session token), so the
  // merchant lands back in the app within the admin.
  const legacy = (c: Context) => {
    const shop = c.req.param('shop') ?? '';
    const appParam = c.req.param('app') ?? '';
    if (!emu.shops.has(shop) || !isThisApp(emu, appParam)) return c.text('Not Found', 404);
    const url = new URL(c.req.url);
    const rest = url.pathname.slice(`/${shop}/admin/apps/${appParam}`.length).replace(/^\/+/, '');
    const store = shop.replace(/\.myshopify\.com$/, '');
    return c.redirect(`${emu.origin}/store/${store}/apps/${appParam}${rest ? `/${rest}` : ''}${url.search}`, 302);
  };
  app.get(`/${SHOP_PARAM}/admin/apps/:app`, legacy);
  app.get(`/${SHOP_PARAM}/admin/apps/:app/*`, legacy);

  mountEmbeddedAdmin(app, emu);

  // App Bridge, as the app's document loads it from Shopify's CDN (`<SHOPIFY_ORIGIN>/cdn.shopify.com/...`
  // locally, worker/document.ts): the stand-in that speaks to the emulator's admin page. Outside a frame
  // it does nothing, so the standalone admin stays standalone.
  app.get('/cdn.shopify.com/shopifycloud/app-bridge.js', (c) => {
    c.header('Content-Type', 'text/javascript; charset=utf-8');
    c.header('Cache-Control', 'no-cache');
    return c.body(APP_BRIDGE_STAND_IN);
  });
}

const APP_BRIDGE_STAND_IN = readFileSync(fileURLToPath(new URL('./app-bridge-stand-in.js', import.meta.url)), 'utf8');
