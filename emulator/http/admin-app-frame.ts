// The app's page inside Shopify's admin: after OAuth and after a billing approve/decline the app sends
// the browser to `admin.shopify.com/store/<store>/apps/<api key>/<path>` (or the shop's own
// `/<shop>/admin/apps/<api key>/<path>`, which Shopify forwards to the former). Real Shopify renders
// its admin and frames the app's URL; here these redirects send the browser straight to the app's own
// page `${APP_URL}/<path>` with the query kept. The standalone admin finds its authToken in
// localStorage, so the flow lands where it would inside the frame (e.g. /pricing). The admin page that
// does frame the app (for the embedded journey) is `/store/<store>/apps/<app>/<path>`: admin-embedded.ts.
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

  const legacy = (c: Context) => {
    const shop = c.req.param('shop') ?? '';
    return toAppPage(c, emu, shop, `/${shop}/admin/apps`);
  };
  app.get(`/${SHOP_PARAM}/admin/apps/:app`, legacy);
  app.get(`/${SHOP_PARAM}/admin/apps/:app/*`, legacy);

  mountEmbeddedAdmin(app, emu);
}
