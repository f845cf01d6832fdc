// A small Shopify-like storefront for the prefetch browser tests and `npm run bench:prefetch`.
// HTML answers like Shopify's (300-600 ms to first byte, `Vary: Accept`, not cacheable, Shopify's own
// conservative speculation rules), theme assets come from a "CDN" with a year of caching, and every
// request and every timing beacon the pages send is recorded.
import { readFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
export const SPEED_PREFETCH_PATH = join(root, 'storefront-script/build/speed-prefetch.min.js');
export const INSTANT_PAGE_PATH = join(root, 'node_modules/instant.page/instantpage.js');

export type Scenario = 'none' | 'shopify-rules' | 'instant.page' | 'speed-prefetch';

export type StorefrontConfig = {
  scenario: Scenario;
  /** Shopify injects its conservative rules on every storefront; tests of exclusions turn them off. */
  shopifyRules: boolean;
  /** data-* attributes of our script tag, as the app embed writes them. */
  scriptData: Record<string, string>;
  /** Load our script as a classic script instead of a module (themes that paste it by hand). */
  classicScript: boolean;
  /** Time to first byte of an HTML page. */
  ttfbMs: (path: string) => number;
  /** Cache-Control of HTML pages: Shopify's pages are private and not reusable without a check. */
  htmlCacheControl: string;
};

export type RecordedRequest = { path: string; purpose: string; accept: string; at: number };
export type Beacon = { kind: 'click' | 'shown'; path: string; at: number; prerendered?: boolean; deliveryType?: string };

// What Shopify ships on Online Store pages: prefetch on pointer-down ("conservative"), never for
// cart, checkout, account or nofollow links. Our script has to win on top of this.
const SHOPIFY_RULES = {
  prefetch: [
    {
      source: 'document',
      where: {
        and: [
          { href_matches: '/*' },
          { not: { href_matches: ['/cart*', '/checkouts/*', '/checkout*', '/account*', '/*/cart*', '/*/account*'] } },
          { not: { selector_matches: '[rel~=nofollow]' } },
        ],
      },
      eagerness: 'conservative',
    },
  ],
};

// Reports the click (from the page being left) and when the next page is shown: its load event, or
// the moment a prerendered page is activated if it had loaded by then. Same clock in both pages.
const METRICS_SCRIPT = `<script>
addEventListener('click', (e) => { const a = e.target.closest && e.target.closest('a'); if (a) navigator.sendBeacon('/__metrics', JSON.stringify({ kind: 'click', path: a.pathname, at: performance.timeOrigin + e.timeStamp })); }, true);
(() => {
  const send = () => { const n = performance.getEntriesByType('navigation')[0]; const shown = Math.max(n.activationStart || 0, n.loadEventEnd);
    navigator.sendBeacon('/__metrics', JSON.stringify({ kind: 'shown', path: location.pathname, at: performance.timeOrigin + shown, prerendered: n.activationStart > 0, deliveryType: n.deliveryType })); };
  const afterLoad = () => (document.readyState === 'complete' ? setTimeout(send) : addEventListener('load', () => setTimeout(send)));
  if (document.prerendering) document.addEventListener('prerenderingchange', afterLoad, { once: true }); else afterLoad();
})();
</script>`;

// A Shopify theme's own work on every page (menus, sliders, cart drawer): about 30 ms of main thread.
const THEME_JS = `document.addEventListener('DOMContentLoaded', () => { const end = performance.now() + 30; while (performance.now() < end); document.documentElement.classList.add('js'); });`;
const THEME_CSS = `${'.card{display:inline-block;width:180px;margin:8px;font:14px sans-serif}.card img{width:180px;height:180px}\n'.repeat(200)}nav a{display:inline-block;padding:12px 10px;font:16px sans-serif}`;

/** The links every page shows, with the reason a test expects for each. */
export function navLinks(otherOrigin: string): { href: string; label: string; attrs?: string; wrapNoPrefetch?: boolean }[] {
  return [
    { href: '/products/alpha', label: 'Alpha' },
    { href: '/products/beta', label: 'Beta' },
    { href: '/collections/all', label: 'All products' },
    { href: '/pages/about', label: 'About' },
    { href: '/blogs/news/spring', label: 'Journal' },
    { href: '/cart', label: 'Cart' },
    { href: '/cart/add?id=4242&quantity=1', label: 'Quick add' },
    { href: '/checkouts/cn/abc123', label: 'Checkout' },
    { href: '/account/login', label: 'Log in' },
    { href: '/account/logout', label: 'Log out' },
    { href: '/fr/cart', label: 'Panier' },
    { href: '/discount/SAVE10', label: 'Discount' },
    { href: '/apps/wishlist', label: 'Wishlist' },
    { href: '/pages/contact', label: 'Contact (merchant exclusion)' },
    { href: '/files/size-guide.pdf', label: 'Size guide', attrs: 'download' },
    { href: '/products/gamma', label: 'Gamma (opted out)', attrs: 'data-no-prefetch' },
    { href: '/products/delta', label: 'Delta (container opted out)', wrapNoPrefetch: true },
    { href: '/products/epsilon', label: 'Epsilon (new tab)', attrs: 'target="_blank"' },
    { href: `${otherOrigin}/products/zeta`, label: 'Other origin' },
    { href: '#reviews', label: 'Reviews (same page)' },
    { href: 'mailto:hello@example.com', label: 'Mail' },
  ];
}

function svg(seed: string): string {
  let rects = '';
  for (let i = 0; i < 40; i++)
    rects += `<rect x="${(i * 37) % 400}" y="${(i * 53) % 400}" width="60" height="60" fill="#${((seed.length * 2654435761 + i * 40503) >>> 8).toString(16).padStart(6, '0').slice(0, 6)}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">${rects}<!-- ${'x'.repeat(6000)} --></svg>`;
}

export class Storefront {
  readonly requests: RecordedRequest[] = [];
  readonly beacons: Beacon[] = [];
  /** Asset paths fetched from the network (not from the browser's cache). */
  readonly assetRequests: string[] = [];
  config: StorefrontConfig = {
    scenario: 'speed-prefetch',
    shopifyRules: true,
    scriptData: {},
    classicScript: false,
    ttfbMs: () => 300 + Math.random() * 300,
    htmlCacheControl: 'private, max-age=0',
  };
  private server: Server;
  private port = 0;

  constructor() {
    this.server = createServer((req, res) => this.handle(req, res));
  }

  /** Pages are served at 127.0.0.1; localhost is the same server under another origin. */
  get origin() {
    return `http://127.0.0.1:${this.port}`;
  }
  get otherOrigin() {
    return `http://localhost:${this.port}`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Document requests for a path (prefetches and prerenders included), ignoring asset and beacon traffic. */
  documentRequests(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  private scriptTags(): string {
    const { scenario, scriptData, classicScript } = this.config;
    if (scenario === 'instant.page') return '<script src="/assets/instantpage.js" type="module"></script>';
    if (scenario !== 'speed-prefetch') return '';
    const data = Object.entries(scriptData)
      .map(([k, v]) => ` data-${k}="${v.replace(/"/g, '&quot;')}"`)
      .join('');
    return `<script ${classicScript ? 'defer' : 'type="module"'} src="/assets/speed-prefetch.js" data-speed-prefetch${data}></script>`;
  }

  private page(path: string): string {
    const rules =
      this.config.scenario !== 'none' && this.config.shopifyRules
        ? `<script type="speculationrules">${JSON.stringify(SHOPIFY_RULES)}</script>`
        : '';
    const links = navLinks(this.otherOrigin)
      .map((l) => {
        const a = `<a href="${l.href}" ${l.attrs ?? ''}>${l.label}</a>`;
        return l.wrapNoPrefetch ? `<span data-no-prefetch>${a}</span>` : a;
      })
      .join('\n');
    const slug = path.split('/').pop() || 'home';
    // The product under test first, then a grid of cards: a collection page of a real theme.
    const cards = Array.from(
      { length: 24 },
      (_, i) =>
        `<a class="card" href="/products/${slug}-card-${i}"><img src="/assets/img/card-${i}.svg" alt="" width="180" height="180">Card ${i}</a>`,
    ).join('\n');
    const gallery = Array.from(
      { length: 6 },
      (_, i) => `<img src="/assets/img/${slug}-${i}.svg" alt="" width="400" height="400">`,
    ).join('\n');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${path}</title>
${METRICS_SCRIPT}
<link rel="stylesheet" href="/assets/theme.css"><script src="/assets/theme.js" defer></script>
${rules}${this.scriptTags()}
</head><body><header><nav>${links}</nav></header>
<main><h1 id="title">${path}</h1><a id="bench-link" href="/products/next-${slug}">Next product</a>
<section class="gallery">${gallery}</section><section class="grid">${cards}</section>
<section id="reviews"><h2>Reviews</h2>${'<p>Lovely product, arrived quickly and fits well.</p>'.repeat(80)}</section></main></body></html>`;
  }

  private handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.origin);
    const path = url.pathname + url.search;
    if (url.pathname === '/__metrics') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        try {
          this.beacons.push(JSON.parse(body) as Beacon);
        } catch {
          // a torn beacon is not a measurement
        }
        res.writeHead(204).end();
      });
      return;
    }
    if (url.pathname.startsWith('/assets/')) {
      this.assetRequests.push(url.pathname);
      return this.asset(url.pathname, res);
    }
    if (url.pathname === '/favicon.ico') return void res.writeHead(404).end();
    this.requests.push({
      path,
      purpose: String(req.headers['sec-purpose'] ?? req.headers.purpose ?? ''),
      accept: String(req.headers.accept ?? ''),
      at: Date.now(),
    });
    setTimeout(() => {
      res.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': this.config.htmlCacheControl,
        Vary: 'Accept',
      });
      res.end(this.page(url.pathname));
    }, this.config.ttfbMs(path));
  }

  private asset(pathname: string, res: ServerResponse) {
    const send = (type: string, body: string, delayMs: number) =>
      setTimeout(() => {
        res.writeHead(200, {
          'Content-Type': type,
          'Cache-Control': 'public, max-age=31536000, immutable',
          'Access-Control-Allow-Origin': '*',
        });
        res.end(body);
      }, delayMs);
    if (pathname === '/assets/speed-prefetch.js') return send('text/javascript', readFileSync(SPEED_PREFETCH_PATH, 'utf8'), 20);
    if (pathname === '/assets/instantpage.js') return send('text/javascript', readFileSync(INSTANT_PAGE_PATH, 'utf8'), 20);
    if (pathname === '/assets/theme.js') return send('text/javascript', THEME_JS, 40);
    if (pathname === '/assets/theme.css') return send('text/css', THEME_CSS, 40);
    // Product photos from the CDN: 80-200 ms each.
    if (pathname.startsWith('/assets/img/')) return send('image/svg+xml', svg(pathname), 80 + ((pathname.length * 31) % 120));
    res.writeHead(404).end();
  }
}

export async function startStorefront(config: Partial<StorefrontConfig> = {}): Promise<Storefront> {
  const storefront = await new Storefront().start();
  storefront.config = { ...storefront.config, ...config };
  return storefront;
}
