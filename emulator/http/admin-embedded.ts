// Shopify's admin page for an embedded app, as the emulator plays it: `GET /store/<store>/apps/<api key or
// handle>/<path>` renders the admin's chrome (the app's navigation on the left, the admin's toast area,
// its review modal) around an iframe that loads `${APP_URL}/<path>` with the launch query Shopify adds
// (embedded, host, id_token, locale, session, shop, timestamp, signed with the app secret as `hmac`).
//
// The same path shape as https://admin.shopify.com/store/<store>/apps/<app>/<path>: a browser test maps
// that origin onto the emulator, so the app is framed by the ancestor its CSP names. App Bridge inside
// the frame (Shopify's CDN script, or the test's stand-in) talks to this page with postMessage:
//   app -> admin  {source: 'app-bridge', type: 'idToken' | 'reviewsRequest', id}   (answered with {replyTo: id, ...})
//                 {source: 'app-bridge', type: 'toast', message, isError, duration}
//                 {source: 'app-bridge', type: 'navMenu', items: [{href, label, home}]}
//                 {source: 'app-bridge', type: 'location', path}       (the admin URL follows the app's route)
//                 {source: 'app-bridge', type: 'reload', path}         (load the app anew at path, new launch query)
//                 {source: 'app-bridge', type: 'saveBar', id, visible, buttons: [{label, primary, disabled}]}
//                 {source: 'app-bridge', type: 'leaveConfirmation', id}   (answered once the merchant chose)
//   admin -> app  {source: 'shopify-admin', type: 'navigate', href}     (a click in the app's navigation)
//                 {source: 'shopify-admin', type: 'saveBarAction', id, action: 'save' | 'discard'}
//                 {source: 'shopify-admin', type: 'saveBarsDropped'}    (the merchant left the page anyway)
// While a save bar shows, the admin's own navigation first asks "Leave page with unsaved changes?".
// Session tokens are minted here (`POST /store/<store>/app-bridge/id-token`), never in the browser: the
// app secret stays with "Shopify".
import type { Context, Hono } from 'hono';
import type { Emulator } from '../store/registry';
import type { ShopState } from '../store/shop-state';
import { mintSessionToken } from './control-shops';
import { hostParam, signQuery } from './oauth';

const LAUNCH_PARAMS = new Set(['embedded', 'host', 'id_token', 'locale', 'session', 'shop', 'timestamp', 'hmac']);

/**
 * The launch query Shopify's admin puts on the app URL when it opens an embedded app, signed over every
 * parameter (the admin URL's own query included, as Shopify passes it on).
 */
export async function embeddedLaunchUrl(
  emu: Emulator,
  shop: ShopState,
  path: string,
  extra: URLSearchParams = new URLSearchParams(),
): Promise<string> {
  const params: Record<string, string> = {
    // The admin URL's own query (e.g. billing=approved&kind=plan after a charge) reaches the app too.
    ...Object.fromEntries([...extra].filter(([k]) => !LAUNCH_PARAMS.has(k))),
    embedded: '1',
    host: hostParam(shop.domain),
    id_token: await mintSessionToken(emu, shop),
    locale: shop.locales[0] ?? 'en',
    session: crypto.randomUUID().replace(/-/g, ''),
    shop: shop.domain,
    timestamp: String(Math.floor(Date.now() / 1000)),
  };
  params.hmac = signQuery(emu.app.apiSecret, params);
  const clean = `/${path.replace(/^\/+/, '')}`;
  return `${emu.app.appUrl.replace(/\/+$/, '')}${clean === '/' ? '/' : clean}?${new URLSearchParams(params)}`;
}

function shopOf(emu: Emulator, c: Context): ShopState | null {
  return emu.shops.get(`${c.req.param('store') ?? ''}.myshopify.com`) ?? null;
}

const isThisApp = (emu: Emulator, app: string) => app === emu.app.apiKey || app === emu.app.handle;

export function mountEmbeddedAdmin(app: Hono, emu: Emulator): void {
  const page = async (c: Context) => {
    const shop = shopOf(emu, c);
    const appParam = c.req.param('app') ?? '';
    if (!shop || !isThisApp(emu, appParam)) return c.html('<h1>There’s no page at this address</h1>', 404);
    const prefix = `/store/${c.req.param('store')}/apps/${appParam}`;
    const url = new URL(c.req.url);
    const rest = url.pathname.slice(prefix.length) || '/';
    const src = await embeddedLaunchUrl(emu, shop, rest, url.searchParams);
    return c.html(
      adminHtml({
        shop: shop.domain,
        store: c.req.param('store') ?? '',
        prefix,
        src,
        appOrigin: new URL(emu.app.appUrl).origin,
        title: emu.app.handle,
      }),
    );
  };
  app.get('/store/:store/apps/:app', page);
  app.get('/store/:store/apps/:app/*', page);

  app.post('/store/:store/app-bridge/id-token', async (c) => {
    const shop = shopOf(emu, c);
    return shop ? c.json({ token: await mintSessionToken(emu, shop) }) : c.json({ error: 'no such store' }, 404);
  });
  app.get('/store/:store/app-bridge/launch', async (c) => {
    const shop = shopOf(emu, c);
    return shop
      ? c.json({ url: await embeddedLaunchUrl(emu, shop, c.req.query('path') ?? '/') })
      : c.json({ error: 'no such store' }, 404);
  });
}

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function adminHtml(o: { shop: string; store: string; prefix: string; src: string; appOrigin: string; title: string }): string {
  const config = JSON.stringify({ store: o.store, prefix: o.prefix, appOrigin: o.appOrigin }).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${esc(o.title)} · ${esc(o.shop)} · Shopify</title>
<style>
  body { margin: 0; font: 14px/1.4 system-ui, sans-serif; background: #f1f1f1; display: grid; grid-template: 48px 1fr / 220px 1fr; height: 100vh; }
  header { grid-column: 1 / 3; background: #1a1a1a; color: #fff; display: flex; align-items: center; padding: 0 16px; gap: 12px; }
  nav { background: #ebebeb; padding: 12px 8px; overflow: auto; }
  nav a { display: block; padding: 6px 10px; border-radius: 8px; color: #303030; text-decoration: none; }
  nav a.home { font-weight: 600; }
  nav a[aria-current=page] { background: #fff; font-weight: 600; }
  main { position: relative; }
  iframe { border: 0; width: 100%; height: 100%; display: block; background: #fff; }
  #toasts { position: fixed; bottom: 24px; left: 50%; transform: translateX(-50%); display: flex; flex-direction: column; gap: 8px; z-index: 10; }
  #toasts div { background: #1a1a1a; color: #fff; padding: 10px 16px; border-radius: 10px; }
  #toasts div.error { background: #8e1f0b; }
  #review { position: fixed; inset: 0; background: rgba(0,0,0,.4); display: none; align-items: center; justify-content: center; }
  #review[open] { display: flex; }
  #review section, #leave section { background: #fff; padding: 24px; border-radius: 12px; }
  #leave { position: fixed; inset: 0; background: rgba(0,0,0,.4); display: none; align-items: center; justify-content: center; }
  #leave[open] { display: flex; }
  #save-bar { display: none; align-items: center; gap: 8px; margin-left: auto; }
  #save-bar[open] { display: flex; }
  #save-bar button { padding: 6px 12px; border-radius: 8px; border: 0; }
  #save-bar button.primary { background: #fff; color: #1a1a1a; font-weight: 600; }
</style>
</head>
<body>
<header><strong>Shopify</strong><span>${esc(o.shop)}</span><div id="save-bar" role="region" aria-label="Unsaved changes"><span>Unsaved changes</span></div></header>
<nav aria-label="App navigation"><a class="home" href="${esc(o.prefix)}">${esc(o.title)}</a><div id="app-nav"></div></nav>
<main><iframe id="app-iframe" name="app-iframe" title="${esc(o.title)}" src="${esc(o.src)}"></iframe></main>
<div id="toasts" role="status" aria-live="polite"></div>
<div id="leave" role="dialog" aria-label="Leave page with unsaved changes?"><section><p>Leave page with unsaved changes?</p><p>Leaving this page will delete all unsaved changes.</p><button type="button" id="leave-stay">Stay</button> <button type="button" id="leave-go">Leave page</button></section></div>
<div id="review" role="dialog" aria-label="Review this app"><section><p>How would you rate ${esc(o.title)} on the Shopify App Store?</p><button type="button" id="review-close">Close</button></section></div>
<script>
(() => {
  const cfg = ${config};
  const frame = document.getElementById('app-iframe');
  const navBox = document.getElementById('app-nav');
  // What the admin did, for tests and for a person looking at the page.
  const log = (window.__admin = { toasts: [], navigations: [], reviewRequests: 0 });
  const post = (msg) => frame.contentWindow && frame.contentWindow.postMessage({ source: 'shopify-admin', ...msg }, cfg.appOrigin);
  const adminPath = (path) => cfg.prefix + (path === '/' ? '' : path);

  async function reload(path) {
    const res = await fetch('/store/' + cfg.store + '/app-bridge/launch?path=' + encodeURIComponent(path));
    frame.src = (await res.json()).url;
    history.replaceState(null, '', adminPath(path));
  }

  function renderNav(items) {
    navBox.replaceChildren(...items.filter((i) => !i.home).map((i) => {
      const a = document.createElement('a');
      a.href = adminPath(i.href);
      a.textContent = i.label;
      a.dataset.appHref = i.href;
      a.addEventListener('click', async (e) => {
        e.preventDefault();
        if (!(await mayLeave())) return;
        log.navigations.push(i.href);
        post({ type: 'navigate', href: i.href });
      });
      return a;
    }));
    markCurrent(location.pathname.slice(cfg.prefix.length) || '/');
  }
  function markCurrent(path) {
    for (const a of navBox.querySelectorAll('a')) {
      if (path === a.dataset.appHref || path.startsWith(a.dataset.appHref + '/')) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
  }

  function toast(m) {
    log.toasts.push({ message: m.message, isError: !!m.isError });
    const div = document.createElement('div');
    div.textContent = m.message;
    if (m.isError) div.className = 'error';
    document.getElementById('toasts').append(div);
    setTimeout(() => div.remove(), m.duration || 5000);
  }

  // The save bar: drawn from the app's ui-save-bar buttons; while it shows, leaving asks first.
  const bars = new Map();
  function renderSaveBar() {
    const box = document.getElementById('save-bar');
    box.querySelectorAll('button').forEach((b) => b.remove());
    for (const [id, buttons] of bars) {
      for (const b of buttons) {
        const el = document.createElement('button');
        el.type = 'button';
        el.textContent = b.label;
        el.disabled = b.disabled;
        if (b.primary) el.className = 'primary';
        el.addEventListener('click', () => post({ type: 'saveBarAction', id, action: b.primary ? 'save' : 'discard' }));
        box.append(el);
      }
    }
    if (bars.size) box.setAttribute('open', '');
    else box.removeAttribute('open');
  }
  function mayLeave() {
    if (!bars.size) return Promise.resolve(true);
    log.leaveConfirmations = (log.leaveConfirmations || 0) + 1;
    const dialog = document.getElementById('leave');
    dialog.setAttribute('open', '');
    return new Promise((resolve) => {
      const done = (leave) => {
        dialog.removeAttribute('open');
        if (leave) {
          bars.clear();
          renderSaveBar();
          post({ type: 'saveBarsDropped' });
        }
        resolve(leave);
      };
      document.getElementById('leave-stay').onclick = () => done(false);
      document.getElementById('leave-go').onclick = () => done(true);
    });
  }

  document.getElementById('review-close').addEventListener('click', () => document.getElementById('review').removeAttribute('open'));

  window.addEventListener('message', async (e) => {
    if (e.source !== frame.contentWindow || e.origin !== cfg.appOrigin) return;
    const m = e.data;
    if (!m || m.source !== 'app-bridge') return;
    if (m.type === 'idToken') {
      const res = await fetch('/store/' + cfg.store + '/app-bridge/id-token', { method: 'POST' });
      post({ replyTo: m.id, result: (await res.json()).token });
    } else if (m.type === 'reviewsRequest') {
      log.reviewRequests += 1;
      document.getElementById('review').setAttribute('open', '');
      post({ replyTo: m.id, result: { success: true, code: 'success', message: 'Review modal shown successfully' } });
    } else if (m.type === 'leaveConfirmation') {
      await mayLeave();
      post({ replyTo: m.id, result: undefined });
    } else if (m.type === 'saveBar') {
      if (m.visible) bars.set(m.id, m.buttons || []);
      else bars.delete(m.id);
      renderSaveBar();
    } else if (m.type === 'toast') toast(m);
    else if (m.type === 'navMenu') renderNav(m.items || []);
    else if (m.type === 'location') {
      history.replaceState(null, '', adminPath(m.path));
      markCurrent(m.path.split('?')[0]);
    } else if (m.type === 'reload') await reload(m.path || '/');
  });
})();
</script>
</body>
</html>`;
}
