import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import indexHtml from '../../../admin/index.html?raw';
import wranglerToml from '../../../wrangler.toml?raw';
import { DOCUMENT_POLICY, documentShop, frameAncestors } from '../../../worker/document';

// The admin document through the Worker (issue 14 point 2). ASSETS plays Cloudflare's asset server for a
// built admin: index.html for `/` and (SPA fallback) for any unknown path, files under /assets/.
const served: string[] = [];
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
      expect(res.headers.get('Content-Security-Policy'), path).toBe(
        `frame-ancestors https://${shop} https://admin.shopify.com; ${DOCUMENT_POLICY}`,
      );
      expect(res.headers.get('X-Content-Type-Options'), path).toBe('nosniff');
      expect(res.headers.get('Referrer-Policy'), path).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('ETag'), path).toBeNull();
      expect(await res.text()).toContain('<div id="root">');
    }
  });

  it('takes the shop from host when shop is absent, and allows no framing without a valid shop', async () => {
    const fromHost = await get(`/main?host=${host('other-store')}`, { SHOPIFY_ORIGIN: '' });
    expect(fromHost.headers.get('Content-Security-Policy')).toBe(
      `frame-ancestors https://other-store.myshopify.com https://admin.shopify.com; ${DOCUMENT_POLICY}`,
    );
    for (const path of [
      '/main',
      '/main?shop=evil.example.com',
      '/main?shop=a.myshopify.com.evil.com',
      `/main?host=${btoa('evil.example.com/store/x')}`,
    ]) {
      const res = await get(path, { SHOPIFY_ORIGIN: '' });
      expect(res.headers.get('Content-Security-Policy'), path).toBe(`frame-ancestors 'none'; ${DOCUMENT_POLICY}`);
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
    expect(production).toContain('<script src="https://cdn.shopify.com/shopifycloud/app-bridge.js"></script>');
    const local = await (await get('/main?shop=k.myshopify.com', { SHOPIFY_ORIGIN: 'http://127.0.0.1:8788' })).text();
    expect(local).toContain('<script src="http://127.0.0.1:8788/cdn.shopify.com/shopifycloud/app-bridge.js"></script>');
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
