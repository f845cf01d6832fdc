/*! speed-prefetch v1 | (c) 2026 Image Speed App | MIT licence | hover a link, its page is ready on click */
// Loaded by the theme app embed (blocks/prefetch.liquid in the theme app extension) as <script type="module">, so browsers
// without ES modules never run it; it is also safe as a classic script (no import/export, no globals).
// Options are data-* attributes on its own <script> tag, written by the app embed's settings:
//   data-delay   hover time in ms before fetching (default 65)
//   data-limit   most pages fetched in advance per page view
//   data-mode    "prerender" (default: prefetch at the delay, prerender once the hover lasts 200 ms)
//                or "prefetch" (never prerender)
//   data-exclude comma-separated texts; a link whose path + query contains one is never fetched
(() => {
  try {
    const doc = document;
    const nav = navigator;
    const origin = location.origin;
    const tag = doc.currentScript || doc.querySelector('script[data-speed-prefetch]');
    const options = tag ? tag.dataset : {};
    const delay = +(options.delay || 65);
    const limit = +(options.limit || 20);
    const excluded = (options.exclude || '')
      .split(',')
      .map((text) => text.trim())
      .filter(Boolean);
    const supportsSpeculation = HTMLScriptElement.supports && HTMLScriptElement.supports('speculationrules');
    const mayPrerender = options.mode !== 'prefetch';
    const supportsLinkPrefetch = doc.createElement('link').relList.supports('prefetch');
    // Shopify answers storefront pages with `Vary: Accept`; Chromium before 110 sent a different Accept
    // header for <link rel=prefetch> than for the navigation, so those prefetches were never used.
    const chromium = /Chrome\/(\d+)/.exec(nav.userAgent);
    const staleChromium = chromium && +chromium[1] < 110;

    // Shopify paths that change state or are private, with an optional market/locale prefix (/fr, /en-ca).
    // The app proxy prefixes (/apps, /a, /tools, /community) answer with app code we cannot vouch for.
    const privatePath =
      /^\/(?:[a-z]{2}(?:-[a-z]{2,4})?\/)?(?:cart|checkouts?|account|customer_authentication|login|logout|password|challenge|discount|localization|services|apps|a|tools|community|admin)(?:[/.]|$)/i;

    const fetched = new Set();
    const prerendered = new Set();
    // Chrome keeps every prerender alive until it is used or its rule is removed. Like its own
    // "moderate" hover rules, keep the two newest and cancel older ones: each costs a renderer.
    const livePrerenders = [];
    let count = 0;
    let hovered;
    let hoverTimer;
    let upgradeTimer;

    const linkOf = (event) => {
      const target = event.target;
      return target && target.closest ? target.closest('a[href]') : null;
    };

    const allowed = (link) => {
      const pathAndQuery = link.pathname + link.search;
      return (
        link.origin === origin && // also rules out javascript:, mailto:, tel: and SVG links
        !link.hasAttribute('download') &&
        !(link.target && link.target !== '_self') &&
        !link.closest('[data-no-prefetch]') &&
        pathAndQuery !== location.pathname + location.search && // same-page anchors and the page itself
        !privatePath.test(link.pathname) &&
        !excluded.some((text) => pathAndQuery.includes(text))
      );
    };

    const slowConnection = () => {
      const connection = nav.connection;
      return connection && (connection.saveData || /2g/.test(connection.effectiveType));
    };

    const addRule = (action, url) => {
      const rule = doc.createElement('script');
      rule.type = 'speculationrules';
      rule.textContent = JSON.stringify({ [action]: [{ source: 'list', urls: [url] }] });
      rule.dataset.url = url;
      return doc.head.appendChild(rule);
    };

    const urlOf = (link) => link.href.split('#')[0];

    const prefetch = (link) => {
      const url = urlOf(link);
      if (fetched.has(url) || count >= limit || !allowed(link) || slowConnection()) return;
      fetched.add(url);
      count++;
      if (supportsSpeculation) addRule('prefetch', url);
      else if (supportsLinkPrefetch) {
        if (staleChromium) return;
        const hint = doc.createElement('link');
        hint.rel = 'prefetch';
        hint.href = url;
        hint.fetchPriority = 'high';
        doc.head.appendChild(hint);
      } else {
        // Safari has neither: fill the HTTP cache with the Accept header a navigation sends (Vary: Accept).
        fetch(url, { headers: { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' } }).catch(() => {});
      }
    };

    // A hover that lasts 200 ms (Chrome's own "moderate" threshold) means the visitor is reading the
    // link: prerender it, reusing the prefetched response, so the click shows a finished page. Not
    // sooner: measured, a prerender still loading at the click shows the page later than a prefetch.
    const prerender = (link) => {
      const url = urlOf(link);
      if (!supportsSpeculation || !mayPrerender || !fetched.has(url) || prerendered.has(url)) return;
      prerendered.add(url);
      if (livePrerenders.push(addRule('prerender', url)) > 2) {
        const oldest = livePrerenders.shift();
        prerendered.delete(oldest.dataset.url);
        oldest.remove();
      }
    };

    const listen = (type, handler) =>
      doc.addEventListener(
        type,
        (event) => {
          try {
            handler(event);
          } catch (_) {
            // A storefront must never see an error from us.
          }
        },
        { capture: true, passive: true },
      );

    // A touch or a press means a click is coming: fetch at once, the hover delay would only lose time.
    // And no prerender from now on: it could not finish before the click, which it would then delay.
    const pressed = (link) => {
      clearTimeout(upgradeTimer);
      if (link) prefetch(link);
    };
    listen('touchstart', (event) => pressed(linkOf(event)));
    listen('mousedown', (event) => event.button === 0 && pressed(linkOf(event)));
    listen('mouseover', (event) => {
      const link = linkOf(event);
      if (!link || link === hovered) return;
      clearTimeout(hoverTimer);
      clearTimeout(upgradeTimer);
      hovered = link;
      hoverTimer = setTimeout(() => prefetch(link), delay);
      upgradeTimer = setTimeout(() => prerender(link), Math.max(delay, 200));
    });
    listen('mouseout', (event) => {
      const to = event.relatedTarget;
      if (hovered && !(to && hovered.contains(to))) {
        clearTimeout(hoverTimer);
        clearTimeout(upgradeTimer);
        hovered = null;
      }
    });
  } catch (_) {
    // Unsupported browser: do nothing, quietly.
  }
})();
