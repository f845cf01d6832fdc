// A stand-in for Shopify's App Bridge (https://cdn.shopify.com/shopifycloud/app-bridge.js), served by the
// emulator at <emulator>/cdn.shopify.com/shopifycloud/app-bridge.js (where the app's document loads it
// locally, worker/document.ts) and by the embedded journey at the CDN's own URL. It implements what this app uses of the documented `window.shopify`
// API, against the store emulator's admin page (emulator/http/admin-embedded.ts) as the parent:
//   shopify.config        apiKey from <meta name="shopify-api-key">, shop/host/locale from the launch query
//   shopify.idToken()     a session token from the admin (HS256 with the app secret: iss, dest, aud, sub,
//                         exp, nbf, iat, jti, sid), as Shopify's admin mints them
//   shopify.toast.show()  the admin's own toast
//   shopify.reviews.request()  the admin's review modal
//   fetch                 same-origin requests get `Authorization: Bearer <session token>`, as App Bridge v4 does
//   ui-nav-menu / s-app-nav  their links become the admin's app navigation; a click there dispatches
//                         `shopify:navigate` on the link inside the app; when the app does not route it,
//                         the admin loads the app anew at that path.
// Like the real script, it must be the first, synchronous script of the document.
(() => {
  if (window.shopify) return;
  const parentWindow = window.parent;
  if (parentWindow === window) return; // outside the admin App Bridge does nothing useful
  const LAUNCH_PARAMS = ['embedded', 'host', 'id_token', 'hmac', 'locale', 'session', 'shop', 'timestamp'];
  const launch = new URLSearchParams(location.search);
  // The launch query is on the first load only; App Bridge keeps it for the session.
  // A framed page may be refused storage (third-party storage blocked): then the launch query is all it has.
  const session = (() => {
    try {
      return window.sessionStorage;
    } catch {
      return null;
    }
  })();
  const remembered = JSON.parse(session?.getItem('app-bridge-stand-in') || '{}');
  const state = {
    shop: launch.get('shop') || remembered.shop || '',
    host: launch.get('host') || remembered.host || '',
    locale: launch.get('locale') || remembered.locale || 'en',
  };
  session?.setItem('app-bridge-stand-in', JSON.stringify(state));
  // App Bridge's elements draw nothing inside the app: the admin shows their content (navigation, save bar).
  for (const name of ['ui-nav-menu', 's-app-nav', 'ui-title-bar', 'ui-save-bar']) {
    if (!customElements.get(name)) customElements.define(name, class extends HTMLElement {});
  }
  const style = document.createElement('style');
  style.textContent = 'ui-nav-menu, s-app-nav, ui-title-bar, ui-save-bar { display: none !important; }';
  document.documentElement.append(style);
  const apiKey = () => document.querySelector('meta[name="shopify-api-key"]')?.getAttribute('content') || '';

  let seq = 0;
  const pending = new Map();
  const send = (msg) => parentWindow.postMessage({ source: 'app-bridge', ...msg }, '*');
  const ask = (type) =>
    new Promise((resolve, reject) => {
      const id = ++seq;
      pending.set(id, { resolve, reject });
      send({ type, id });
      setTimeout(() => pending.has(id) && (pending.delete(id), reject(new Error(`App Bridge: no answer to ${type}`))), 10000);
    });

  window.addEventListener('message', (e) => {
    if (e.source !== parentWindow) return;
    const m = e.data;
    if (!m || m.source !== 'shopify-admin') return;
    if (m.replyTo && pending.has(m.replyTo)) {
      pending.get(m.replyTo).resolve(m.result);
      pending.delete(m.replyTo);
    } else if (m.type === 'navigate') navigate(m.href);
    else if (m.type === 'saveBarAction') {
      // The admin's Save / Discard press the element's own buttons (primary = save).
      const buttons = [...(document.getElementById(m.id)?.querySelectorAll('button') || [])];
      const button =
        m.action === 'save'
          ? buttons.find((b) => b.getAttribute('variant') === 'primary')
          : buttons.find((b) => b.getAttribute('variant') !== 'primary');
      button?.click();
    } else if (m.type === 'saveBarsDropped') shownBars.clear();
  });

  // Session tokens live a minute; App Bridge hands out the same one until shortly before it expires.
  let cached = null;
  async function idToken() {
    if (cached && cached.exp - 10 > Date.now() / 1000) return cached.token;
    const token = await ask('idToken');
    const payload = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    cached = { token, exp: payload.exp };
    return token;
  }

  window.shopify = {
    config: {
      get apiKey() {
        return apiKey();
      },
      shop: state.shop,
      host: state.host,
      locale: state.locale,
    },
    origin: location.origin,
    ready: Promise.resolve(),
    idToken,
    toast: {
      show(message, opts = {}) {
        const id = `toast-${++seq}`;
        send({ type: 'toast', id, message: String(message), isError: !!opts.isError, duration: opts.duration ?? 5000 });
        return id;
      },
      hide() {},
    },
    reviews: { request: () => ask('reviewsRequest') },
    // The contextual save bar: the admin draws it from the <ui-save-bar> element's buttons and, while it
    // shows, asks before its own navigation leaves the page.
    saveBar: {
      async show(id) {
        const bar = document.getElementById(id);
        if (!bar) throw new Error(`App Bridge: no ui-save-bar with id ${id}`);
        shownBars.set(id, '');
        reportBar(id);
      },
      async hide(id) {
        if (!shownBars.delete(id)) return;
        send({ type: 'saveBar', id, visible: false });
      },
      async toggle(id) {
        return shownBars.has(id) ? window.shopify.saveBar.hide(id) : window.shopify.saveBar.show(id);
      },
      async leaveConfirmation() {
        if (shownBars.size) await ask('leaveConfirmation');
      },
    },
  };
  // Shown save bars and what the admin was last told about their buttons.
  const shownBars = new Map();
  function reportBar(id) {
    const bar = document.getElementById(id);
    if (!bar) return;
    const buttons = [...bar.querySelectorAll('button')].map((b) => ({
      label: (b.textContent || '').trim(),
      primary: b.getAttribute('variant') === 'primary',
      disabled: b.disabled,
    }));
    const json = JSON.stringify(buttons);
    if (shownBars.get(id) === json) return;
    shownBars.set(id, json);
    send({ type: 'saveBar', id, visible: true, buttons });
  }

  // App Bridge v4 adds the session token to the app's own fetches.
  const realFetch = window.fetch.bind(window);
  window.fetch = async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    if (url.origin !== location.origin) return realFetch(input, init);
    const headers = new Headers(init.headers || (input instanceof Request ? input.headers : undefined));
    if (!headers.has('Authorization')) headers.set('Authorization', `Bearer ${await idToken()}`);
    return realFetch(input, { ...init, headers });
  };

  // The app's navigation menu, reported whenever the app renders or changes it.
  let lastMenu = '';
  function reportMenu() {
    const menu = document.querySelector('ui-nav-menu, s-app-nav');
    const items = menu
      ? [...menu.querySelectorAll('a')].map((a) => ({
          href: a.getAttribute('href') || '/',
          label: (a.textContent || '').trim(),
          home: a.getAttribute('rel') === 'home',
        }))
      : [];
    const json = JSON.stringify(items);
    if (json !== lastMenu) {
      lastMenu = json;
      send({ type: 'navMenu', items });
    }
  }
  let scheduled = false;
  new MutationObserver(() => {
    if (scheduled) return;
    scheduled = true;
    setTimeout(() => {
      scheduled = false;
      reportMenu();
      for (const id of shownBars.keys()) reportBar(id);
    }, 30);
  }).observe(document.documentElement, {
    childList: true,
    subtree: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['disabled', 'variant'],
  });

  // The admin's address bar follows the app's route (without the launch parameters).
  const appPath = () => {
    const q = new URLSearchParams(location.search);
    for (const p of LAUNCH_PARAMS) q.delete(p);
    const s = q.toString();
    return location.pathname + (s ? `?${s}` : '');
  };
  let lastPath = '';
  function reportLocation() {
    const path = appPath();
    if (path !== lastPath) send({ type: 'location', path: (lastPath = path) });
  }
  for (const name of ['pushState', 'replaceState']) {
    const real = history[name].bind(history);
    history[name] = (...args) => {
      const r = real(...args);
      reportLocation();
      return r;
    };
  }
  window.addEventListener('popstate', reportLocation);
  document.addEventListener('DOMContentLoaded', () => (reportMenu(), reportLocation()));

  function navigate(href) {
    const before = location.pathname + location.search;
    const link = [...document.querySelectorAll('ui-nav-menu a, s-app-nav a')].find((a) => a.getAttribute('href') === href);
    if (link) link.dispatchEvent(new CustomEvent('shopify:navigate', { bubbles: true, cancelable: true }));
    const target = new URL(href, location.href);
    // Routed by the app (its client-side router moved): done. Otherwise the admin loads it anew.
    if (location.pathname + location.search !== before || location.pathname === target.pathname) return reportLocation();
    send({ type: 'reload', path: target.pathname + target.search });
  }
})();
