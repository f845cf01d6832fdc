import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import indexHtml from '../../../admin/index.html?raw';
import wranglerToml from '../../../wrangler.toml?raw';
import { documentShop, frameAncestors } from '../../../worker/document';

// The admin document through the Worker (issue 14 point 2). ASSETS plays Cloudflare's asset server for a
// built admin: index.html for `/` and (SPA fallback) for any unknown path, files under /assets/.
const served: string[] = [];
/** The admin's policy besides frame-ancestors, whatever the response's nonce. */
const POLICY = /^script-src 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'; object-src 'none'; base-uri 'self'$/;
/** The Content-Security-Policy header split into frame-ancestors and the rest. */
function policyOf(res: Response): { frame: string; rest: string } {
  const csp = res.headers.get('Content-Security-Policy') ?? '';
  const at = csp.indexOf('; ');
  return { frame: csp.slice(0, at), rest: csp.slice(at + 2) };
}
const ASSETS = {
  fetch: async (input: Request | string) => {
    const url = new URL(typeof input === 'string' ? input : input.url);
    served.push(url.pathname);
    // Like Cloudflare's asset server: a matching conditional request gets a bare 304.
    if (typeof input !== 'string' && input.headers.get('If-None-Match')) return new Response(null, { status: 304 });
    if (url.pathname.startsWith('/assets/'))
      return new Response('console.log(1)', { headers: { 'Content-Type': 'text/javascript', ETag: '"js"' } });
    return new Response(indexHtml, { headers: { 'Content-Type': 'text/html; charset=utf-8', ETag: '"html"' } });
  },
} as unknown as Fetcher;

async function get(path: string, overrides: Partial<Env> = {}) {
  const { app } = await import('../../../worker/app');
  const ctx = createExecutionContext();
  const res = await app.request(path, {}, { ...env, ASSETS, ...overrides }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const host = (store: string) => btoa(`admin.shopify.com/store/${store}`).replace(/=+$/, '');

describe('the admin HTML document', () => {
  it('carries frame-ancestors for the shop, nosniff and a Referrer-Policy on the launch, every route and the SPA fallback', async () => {
    const shop = 'doc-shop.myshopify.com';
    const paths = [
      `/?embedded=1&hmac=abc&host=${host('doc-shop')}&shop=${shop}&timestamp=1`,
      `/main?shop=${shop}&host=${host('doc-shop')}`,
      `/pricing?shop=${shop}`,
      `/image_optimisation?shop=${shop}`,
      `/setting?shop=${shop}`,
      `/guidance?shop=${shop}`,
      `/auth/install?shop=${shop}`,
      `/no/such/route?shop=${shop}`,
    ];
    for (const path of paths) {
      const res = await get(path, { SHOPIFY_ORIGIN: '' });
      expect(res.status, path).toBe(200);
      expect(policyOf(res).frame, path).toBe(`frame-ancestors https://${shop} https://admin.shopify.com`);
      expect(policyOf(res).rest, path).toMatch(POLICY);
      expect(res.headers.get('X-Content-Type-Options'), path).toBe('nosniff');
      expect(res.headers.get('Referrer-Policy'), path).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('ETag'), path).toBeNull();
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('takes the shop from host when shop is absent, and allows no framing without a valid shop', async () => {
    const fromHost = await get(`/main?host=${host('other-store')}`, { SHOPIFY_ORIGIN: '' });
    expect(policyOf(fromHost).frame).toBe('frame-ancestors https://other-store.myshopify.com https://admin.shopify.com');
    for (const path of [
      '/main',
      '/main?shop=evil.example.com',
      '/main?shop=a.myshopify.com.evil.com',
      `/main?host=${btoa('evil.example.com/store/x')}`,
    ]) {
      const res = await get(path, { SHOPIFY_ORIGIN: '' });
      expect(policyOf(res).frame, path).toBe("frame-ancestors 'none'");
      expect(policyOf(res).rest, path).toMatch(POLICY);
    }
  });

  it('answers a conditional request with the whole document and its headers, never a bare 304', async () => {
    const { app } = await import('../../../worker/app');
    const ctx = createExecutionContext();
    const res = await app.request(
      '/main?shop=c.myshopify.com',
      { headers: { 'If-None-Match': '"html"' } },
      { ...env, ASSETS },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Security-Policy')).toContain('https://c.myshopify.com');
  });

  it('fills the shopify-api-key meta from the Worker configuration at request time', async () => {
    const html = await (await get('/main?shop=k.myshopify.com', { SHOPIFY_API_KEY: 'key-from-config-123' })).text();
    expect(html).toContain('<meta name="shopify-api-key" content="key-from-config-123" />');
    expect(html).not.toContain('%SHOPIFY_API_KEY%');
  });

  it('loads App Bridge from Shopify’s CDN, or from the store emulator where it plays Shopify', async () => {
    const production = await (await get('/main?shop=k.myshopify.com', { SHOPIFY_ORIGIN: '' })).text();
    expect(production).toMatch(
      /<script src="https:\/\/cdn\.shopify\.com\/shopifycloud\/app-bridge\.js" nonce="[^"]+"><\/script>/,
    );
    const local = await (await get('/main?shop=k.myshopify.com', { SHOPIFY_ORIGIN: 'http://127.0.0.1:8788' })).text();
    expect(local).toMatch(
      /<script src="http:\/\/127\.0\.0\.1:8788\/cdn\.shopify\.com\/shopifycloud\/app-bridge\.js" nonce="[^"]+"><\/script>/,
    );
  });

  it('passes static files through untouched and keeps Worker paths as JSON 404s', async () => {
    const js = await get('/assets/index-abc.js');
    expect(js.headers.get('Content-Type')).toBe('text/javascript');
    expect(js.headers.get('ETag')).toBe('"js"');
    served.length = 0;
    const api = await get('/api/v1/nope');
    expect(api.status).toBe(401);
    const shopify = await get('/shopify/nope');
    expect(shopify.status).toBe(404);
    expect(shopify.headers.get('Content-Type')).toContain('application/json');
    expect(served).toEqual([]);
  });

  it('allows the store emulator to frame the app when it plays Shopify locally', () => {
    expect(frameAncestors({ SHOPIFY_ORIGIN: 'http://127.0.0.1:8788' }, 's.myshopify.com')).toBe(
      'frame-ancestors https://s.myshopify.com https://admin.shopify.com http://127.0.0.1:8788',
    );
    expect(frameAncestors({ SHOPIFY_ORIGIN: 'http://127.0.0.1:8788' }, null)).toBe("frame-ancestors 'none'");
    expect(documentShop(new URL(`https://app.test/?host=${btoa('legacy-shop.myshopify.com/admin')}`))).toBe(
      'legacy-shop.myshopify.com',
    );
  });
});

describe('the script policy (issue 25, item 10)', () => {
  // The built document's head (vite build): App Bridge, the entry module, its modulepreloads, the CSS.
  const BUILT = indexHtml.replace(/<script type="module" src="\/src\/main.tsx"><\/script>/, '').replace(
    '</head>',
    `<script type="module" crossorigin src="/assets/index-a1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/runtime-b2.js">
    <link rel="modulepreload" crossorigin href="/assets/calls-c3.js">
    <link rel="stylesheet" crossorigin href="/assets/index-d4.css">
  </head>`,
  );
  const BUILT_ASSETS = {
    fetch: async () => new Response(BUILT, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
  } as unknown as Fetcher;
  const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(policyOf(res).rest)?.[1];

  it('lets only the document’s own scripts run: each carries the response’s nonce, no inline or eval, no host allow-list', async () => {
    const res = await get('/main?shop=n.myshopify.com', { ASSETS: BUILT_ASSETS, SHOPIFY_ORIGIN: '' });
    const rest = policyOf(res).rest;
    expect(rest).toMatch(POLICY);
    expect(rest).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    const nonce = nonceOf(res)!;
    const html = await res.text();
    const tags = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    // The first screen's data (worker/document-reads.ts) is a data block: never run, so it has no nonce.
    const data = tags.filter((t) => t.includes('type="application/json"'));
    expect(data).toEqual(['<script type="application/json" id="first-reads">']);
    const scripts = tags.filter((t) => !data.includes(t));
    const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toHaveLength(2); // App Bridge, then the admin's entry module
    expect(preloads).toHaveLength(2);
    for (const tag of [...scripts, ...preloads]) expect(tag).toContain(`nonce="${nonce}"`);
    // Vite's loader of lazy chunks reads the nonce here for the modulepreload links it adds.
    expect(html).toContain(`<meta property="csp-nonce" nonce="${nonce}" />`);
    expect(html).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/index-d4.css">/);
  });

  it('draws a new nonce for every response', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 5; i++)
      nonces.add(nonceOf(await get('/main?shop=n.myshopify.com', { ASSETS: BUILT_ASSETS, SHOPIFY_ORIGIN: '' }))!);
    expect(nonces.size).toBe(5);
  });
});

describe('admin/index.html and the asset routing', () => {
  it('loads App Bridge as the first script in <head>, synchronously, with no placeholder key', () => {
    const head = /<head>([\s\S]*?)<\/head>/.exec(indexHtml)![1]!;
    const scripts = [...head.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts[0]).toBe(
      '<script src="https://cdn.shopify.com/shopifycloud/app-bridge.js"></script>'.replace('</script>', ''),
    );
    expect(scripts[0]).not.toMatch(/\b(async|defer|type="module")\b/);
    expect(head.indexOf('name="shopify-api-key"')).toBeLessThan(head.indexOf('app-bridge.js'));
    expect(indexHtml).not.toMatch(/%SHOPIFY_API_KEY%|local-dev-api-key/);
  });

  it('runs the Worker first for every path except the built static files', () => {
    const line = /^run_worker_first\s*=\s*(\[.*\])$/m.exec(wranglerToml)![1]!;
    expect(JSON.parse(line)).toEqual(['/*', '!/assets/*']);
  });
});

describe('configuration', () => {
  it('refuses to serve with the placeholder API key that wrangler.toml ships', async () => {
    const { configProblem } = await import('../../../worker/lib/config');
    const shipped = /^SHOPIFY_API_KEY = "([^"]+)"$/m.exec(wranglerToml)![1]!;
    expect(configProblem({ ...env, SHOPIFY_API_KEY: shipped })).toMatch(/placeholder/);
    expect(configProblem({ ...env, SHOPIFY_API_KEY: 'set-in-production' })).toMatch(/placeholder/);
    expect(configProblem(env)).toBeNull();
  });
});
