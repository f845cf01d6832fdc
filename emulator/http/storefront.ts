// The dev store's storefront: home, collection, product, blog and article pages with real links and a
// configurable time to first byte, carrying Shopify's conservative speculation rules and, when the
// app embed is switched on in the main theme, the app's embed script (as Shopify renders app embeds).
// Reached as http://<shop-name>.localhost:<port>/... (Chromium resolves *.localhost to loopback) or,
// for clients that cannot, as http://127.0.0.1:<port>/<shop>.myshopify.com/... (links keep the prefix).
import type { Context, Hono } from 'hono';
import { cdnPath, cdnUrl, EMBED_BLOCK_HANDLE, embedBlockType } from '../store/factory';
import type { Emulator } from '../store/registry';
import { ensureCatalogue, type ShopState } from '../store/shop-state';
import type { FileRec, ProductRec } from '../store/types';
import { SHOP_PARAM } from './oauth';

/** What Shopify injects into every storefront page since 2025: prefetch on pointer-down, never cart/checkout/account. */
export const SPECULATION_RULES = {
  prefetch: [
    {
      source: 'document',
      where: {
        and: [
          { href_matches: '/*' },
          {
            not: {
              href_matches: [
                '/cart',
                '/cart/*',
                '/checkouts/*',
                '/checkout',
                '/account*',
                '/*/cart',
                '/*/checkouts/*',
                '/*/account*',
              ],
            },
          },
          { not: { selector_matches: '[rel~="nofollow"]' } },
          { not: { selector_matches: '[data-no-prefetch]' } },
        ],
      },
      eagerness: 'conservative',
    },
  ],
};

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Whether our embed block is on in the main theme (another app's block, whatever its handle, is not ours). */
export function embedEnabled(emu: Emulator, shop: ShopState): boolean {
  const main = shop.themes.find((t) => t.role === 'MAIN');
  const content = main?.files.get('config/settings_data.json')?.content;
  if (!content) return false;
  try {
    const json = JSON.parse(content.replace(/^\s*\/\*[\s\S]*?\*\//, '')) as {
      current?: { blocks?: Record<string, { type?: string; disabled?: boolean }> };
    };
    return Object.values(json.current?.blocks ?? {}).some((b) => b.type === embedBlockType(emu) && b.disabled !== true);
  } catch {
    return false;
  }
}

type Page = { title: string; body: string };

function layout(emu: Emulator, shop: ShopState, base: string, page: Page): string {
  const nav = [
    ['Home', `${base}/`],
    ['Catalog', `${base}/collections/all`],
    ...shop.collections
      .filter((c) => c.publishedAt)
      .slice(0, 4)
      .map((c) => [c.title, `${base}/collections/${c.handle}`]),
    ...shop.blogs.slice(0, 1).map((b) => [b.title, `${base}/blogs/${b.handle}`]),
  ];
  const embed = embedEnabled(emu, shop)
    ? `<script src="${esc(`${emu.app.appUrl}/storefront/prefetch.js`)}" defer data-app-embed="${EMBED_BLOCK_HANDLE}"></script>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(page.title)} – ${esc(shop.name)}</title>
<script type="speculationrules">${JSON.stringify(SPECULATION_RULES)}</script>
<style>body{font-family:system-ui,sans-serif;margin:0;color:#121212}header,footer{padding:16px 24px;background:#f3f3f3}nav a{margin-right:16px}main{padding:24px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(200px,1fr));gap:16px}.card img{width:100%;height:auto;aspect-ratio:1;object-fit:cover}</style>
${embed}</head><body><header><a href="${base}/"><strong>${esc(shop.name)}</strong></a>
<nav>${nav.map(([t, h]) => `<a href="${esc(h!)}">${esc(t!)}</a>`).join('')}<a href="${base}/search">Search</a><a href="${base}/account/login">Log in</a><a href="${base}/cart">Cart</a></nav></header>
<main>${page.body}</main><footer><a href="${base}/pages/contact">Contact</a> · <a href="${base}/policies/privacy-policy">Privacy</a></footer></body></html>`;
}

function img(emu: Emulator, shop: ShopState, f: FileRec | undefined, eager = false): string {
  if (!f) return '';
  const src = cdnUrl(emu, cdnPath(shop, 'files', f.filename), f.version);
  return `<img src="${esc(src)}" alt="${esc(f.alt)}" width="${f.blob.width}" height="${f.blob.height}"${eager ? '' : ' loading="lazy"'}>`;
}

const visible = (p: ProductRec) => p.status === 'ACTIVE' && p.publishedAt !== null;

function productCards(emu: Emulator, shop: ShopState, base: string, products: ProductRec[]): string {
  return `<div class="grid">${products
    .filter(visible)
    .map(
      (p) =>
        `<div class="card"><a href="${base}/products/${p.handle}">${img(emu, shop, shop.files.get(p.mediaIds[0] ?? -1))}<p>${esc(p.title)}</p></a><p>$${esc(p.variants[0]?.price ?? '')}</p></div>`,
    )
    .join('')}</div>`;
}

function render(emu: Emulator, shop: ShopState, base: string, path: string): { status: number; page: Page } {
  ensureCatalogue(shop);
  const notFound = {
    status: 404,
    page: {
      title: 'Page not found',
      body: `<h1>404 Page Not Found</h1><p><a href="${base}/collections/all">Continue shopping</a></p>`,
    },
  };
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0)
    return {
      status: 200,
      page: {
        title: 'Home',
        body: `<h1>Welcome to ${esc(shop.name)}</h1>${productCards(emu, shop, base, shop.products.slice(0, 24))}`,
      },
    };
  const [first, second, third] = parts;
  if (first === 'collections' && second === 'all')
    return {
      status: 200,
      page: { title: 'Products', body: `<h1>Products</h1>${productCards(emu, shop, base, shop.products.slice(0, 250))}` },
    };
  if (first === 'collections' && second && !third) {
    const c = shop.collections.find((x) => x.handle === second && x.publishedAt);
    if (!c) return notFound;
    const products = c.productIds.map((id) => shop.products.find((p) => p.id === id)).filter((p): p is ProductRec => Boolean(p));
    return { status: 200, page: { title: c.title, body: `<h1>${esc(c.title)}</h1>${productCards(emu, shop, base, products)}` } };
  }
  if ((first === 'products' && second) || (first === 'collections' && third === 'products' && parts[3])) {
    const handle = first === 'products' ? second : parts[3];
    const p = shop.products.find((x) => x.handle === handle && visible(x));
    if (!p) return notFound;
    const images = p.mediaIds.map((id, i) => img(emu, shop, shop.files.get(id), i === 0)).join('');
    const related = shop.products.filter((x) => x !== p && x.vendor === p.vendor).slice(0, 4);
    return {
      status: 200,
      page: {
        title: p.title,
        body: `<h1>${esc(p.title)}</h1><p>${esc(p.vendor)}</p><div>${images}</div><p>$${esc(p.variants[0]?.price ?? '')}</p>
<form method="post" action="${base}/cart/add"><input type="hidden" name="id" value="${p.variants[0]?.id ?? ''}"><button type="submit" name="add">Add to cart</button></form>${p.descriptionHtml}
<h2>You may also like</h2>${productCards(emu, shop, base, related)}`,
      },
    };
  }
  if (first === 'blogs' && second) {
    const blog = shop.blogs.find((b) => b.handle === second);
    if (!blog) return notFound;
    const articles = shop.articles.filter((a) => a.blogId === blog.id && a.isPublished);
    const articleImg = (a: (typeof articles)[number]) =>
      a.image
        ? `<img src="${esc(cdnUrl(emu, cdnPath(shop, 'articles', a.image.filename), a.image.version))}" alt="${esc(a.image.alt)}" width="${a.image.blob.width}" height="${a.image.blob.height}">`
        : '';
    if (!third)
      return {
        status: 200,
        page: {
          title: blog.title,
          body: `<h1>${esc(blog.title)}</h1>${articles.map((a) => `<article><a href="${base}/blogs/${blog.handle}/${a.handle}">${articleImg(a)}<h2>${esc(a.title)}</h2></a></article>`).join('')}`,
        },
      };
    const a = articles.find((x) => x.handle === third);
    return a
      ? {
          status: 200,
          page: {
            title: a.title,
            body: `<article><h1>${esc(a.title)}</h1>${articleImg(a)}${a.body}<p><a href="${base}/blogs/${blog.handle}">Back to ${esc(blog.title)}</a></p></article>`,
          },
        }
      : notFound;
  }
  if (first === 'cart')
    return {
      status: 200,
      page: {
        title: 'Your cart',
        body: `<h1>Your cart</h1><p>Your cart is empty.</p><a href="${base}/collections/all">Continue shopping</a>`,
      },
    };
  if (first === 'search')
    return {
      status: 200,
      page: { title: 'Search', body: `<h1>Search</h1><form action="${base}/search"><input name="q"></form>` },
    };
  if (first === 'account')
    return {
      status: 200,
      page: {
        title: 'Account',
        body: '<h1>Login</h1><form method="post"><input name="email"><input name="password" type="password"></form>',
      },
    };
  if (first === 'pages' || first === 'policies')
    return { status: 200, page: { title: second ?? 'Page', body: `<h1>${esc(second ?? '')}</h1><p>${esc(shop.name)}</p>` } };
  return notFound;
}

async function serve(c: Context, emu: Emulator, shop: ShopState, base: string, path: string): Promise<Response> {
  const [min, max] = shop.settings.storefrontTtfbMs;
  await new Promise((r) => setTimeout(r, min + Math.random() * Math.max(0, max - min)));
  if (shop.settings.storefrontPassword && !path.startsWith('/password')) return c.redirect(`${base}/password`, 302);
  if (path.startsWith('/password')) {
    return c.html(
      `<!doctype html><html><head><title>${esc(shop.name)}</title></head><body><h1>Opening soon</h1><form method="post" action="${base}/password"><input type="password" name="password"><button>Enter</button></form></body></html>`,
      401,
    );
  }
  if (c.req.method === 'POST') return c.redirect(`${base}/cart`, 302);
  const { status, page } = render(emu, shop, base, path);
  return c.html(layout(emu, shop, base, page), status as 200, {
    'Cache-Control': 'private, no-store',
    'X-Shopify-Stage': 'production',
    'Server-Timing': `processing;dur=${min}`,
  });
}

/** `<name>.localhost` -> `<name>.myshopify.com` when such a shop exists. */
export function shopFromHost(emu: Emulator, host: string | undefined): ShopState | undefined {
  const m = /^([a-z0-9-]+)\.localhost(:\d+)?$/i.exec(host ?? '');
  return m ? emu.shops.get(`${m[1]!.toLowerCase()}.myshopify.com`) : undefined;
}

export function mountStorefront(app: Hono, emu: Emulator): void {
  // Host-based storefront runs first: every path on <name>.localhost is the store's.
  app.use('*', async (c: Context, next) => {
    const shop = shopFromHost(emu, c.req.header('Host'));
    if (!shop) return next();
    return serve(c, emu, shop, '', c.req.path);
  });
  const prefixed = async (c: Context) => {
    const domain = c.req.param('shop')!;
    const shop = emu.shops.get(domain);
    if (!shop) return c.text('Not Found', 404);
    return serve(c, emu, shop, `/${domain}`, c.req.path.slice(domain.length + 1) || '/');
  };
  for (const p of [
    '',
    '/',
    '/products/*',
    '/collections/*',
    '/blogs/*',
    '/cart',
    '/cart/*',
    '/search',
    '/account/*',
    '/pages/*',
    '/policies/*',
    '/password',
  ]) {
    app.on(['GET', 'POST'], `/${SHOP_PARAM}${p}`, prefixed);
  }
}
