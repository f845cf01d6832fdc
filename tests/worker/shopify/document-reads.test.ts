import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import indexHtml from '../../../admin/index.html?raw';
import { preloadScript } from '../../../admin/build/screen-preload';
import { documentCredential, firstReads, firstReadsBy, scriptSafeJson, type InternalFetch } from '../../../worker/document-reads';
import { FIRST_READS_ID, shopReadsFor, type FirstReads } from '../../../shared/api/first-reads';
import { encryptSecret } from '../../../worker/lib/crypto';
import { createShop, sessionToken } from '../helpers';

// Issue 26 (LCP): the admin document carries its first screen's reads, made through the Worker's own
// routes with the credential of the document's URL.

const TABLE = {
  '/main': ['assets/main-a1.js', 'assets/Card-b2.js'],
  '/404': ['assets/not-found-c3.js'],
};
/** The built document's head as vite and admin/build/screen-preload.ts write it. */
const BUILT = indexHtml.replace(/<script type="module" src="\/src\/main.tsx"><\/script>/, '').replace(
  '</head>',
  `<script type="module" crossorigin src="/assets/index-a1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/runtime-b2.js">
    <link rel="stylesheet" crossorigin href="/assets/index-d4.css">
    <script>${preloadScript(TABLE, '/')}</script>
  </head>`,
);
const ASSETS = {
  fetch: async () => new Response(BUILT, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
} as unknown as Fetcher;

async function get(path: string, init: RequestInit = {}) {
  const { app } = await import('../../../worker/app');
  const ctx = createExecutionContext();
  const res = await app.request(path, init, { ...env, ASSETS, SHOPIFY_ORIGIN: '' }, ctx);
  const html = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, html };
}

/** The document's first-reads element, parsed as the admin parses it (null when absent). */
function readsOf(html: string): FirstReads | null {
  const m = new RegExp(`<script type="application/json" id="${FIRST_READS_ID}">([^<]*)</script>`).exec(html);
  return m ? (JSON.parse(m[1]!) as FirstReads) : null;
}

describe('the first screen’s reads in the admin document', () => {
  it('carries the reads of the screen for the shop the authToken names, and nothing of another shop', async () => {
    const a = await createShop({ name: 'Shop A' });
    await createShop({ name: 'Shop B' });
    const { html } = await get(`/main?authToken=${a.token}`);
    const doc = readsOf(html)!;
    expect(doc.via).toBe('authToken');
    expect(doc.path).toBe('/main');
    // Every read of the screen, but checkThemeAppExtension: this shop is not in the store emulator, so
    // Shopify's answer is a failure, which the admin asks for itself.
    expect(Object.keys(doc.reads).sort()).toEqual(
      ['/app-config', ...shopReadsFor('/main')].filter((p) => p !== '/api/v2/home/checkThemeAppExtension').sort(),
    );
    const info = doc.reads['/api/v1/getSettingInfo'] as { code: string; data: { shopname: string; shop_owner: string } };
    expect(info.code).toBe('200');
    expect(info.data.shopname).toBe('Shop A');
    expect(info.data.shop_owner).toBe(a.shop.domain);
    expect(html).not.toContain('Shop B');
    // The element comes last in <body>, after the root the admin renders into.
    expect(html.indexOf(`id="${FIRST_READS_ID}"`)).toBeGreaterThan(html.indexOf('<div id="root">'));
    expect(html.indexOf(`id="${FIRST_READS_ID}"`)).toBeLessThan(html.indexOf('</body>'));
  });

  it('answers are the ones the API gives that shop (same bodies as GET with the token)', async () => {
    const a = await createShop();
    const { html } = await get(`/pricing?authToken=${a.token}`);
    const doc = readsOf(html)!;
    const { app } = await import('../../../worker/app');
    for (const path of shopReadsFor('/pricing')) {
      const res = await app.request(
        path,
        { headers: { Authorization: `Bearer ${a.token}` } },
        { ...env, ASSETS, SHOPIFY_ORIGIN: '' },
      );
      expect(doc.reads[path], path).toEqual(await res.json());
    }
  });

  it('takes Shopify’s id_token on an embedded launch', async () => {
    // Installed with an access token: the session token needs no exchange with Shopify.
    const a = await createShop({ accessTokenEnc: await encryptSecret(env.TOKEN_ENCRYPTION_KEY, 'shpat_test') });
    const token = await sessionToken(a.shop.domain);
    const doc = readsOf((await get(`/recommended-apps?shop=${a.shop.domain}&embedded=1&id_token=${token}`)).html)!;
    expect(doc.via).toBe('id_token');
    expect(Object.keys(doc.reads)).toContain('/api/v1/getRecommendedApps');
    expect((doc.reads['/api/v1/getSettingInfo'] as { data: { shop_owner: string } }).data.shop_owner).toBe(a.shop.domain);
  });

  it('without a valid credential: no shop data at all, only the public configuration', async () => {
    const forged = await sessionToken('victim-shop.myshopify.com', {}, 'not-the-app-secret-0123456789abcdef');
    for (const path of ['/main', `/main?authToken=${'x'.repeat(40)}`, `/main?authToken=short`, `/main?id_token=${forged}`]) {
      const doc = readsOf((await get(path)).html)!;
      expect(Object.keys(doc.reads), path).toEqual(['/app-config']);
    }
  });

  it('a shop that has not finished the wizard gets the reads of the screen it is sent on to', async () => {
    const a = await createShop({ setupGuidePending: true });
    const doc = readsOf((await get(`/setting?authToken=${a.token}`)).html)!;
    // /setting always sends it to the image page: that screen's reads only, none of the settings screen's.
    expect(Object.keys(doc.reads).sort()).toEqual(['/app-config', ...shopReadsFor('/image_optimisation')].sort());
    const done = await createShop({ setupGuidePending: false });
    const settled = readsOf((await get(`/setting?authToken=${done.token}`)).html)!;
    expect(Object.keys(settled.reads)).not.toContain('/api/v2/image-opt/getImgOptTotal');
  });

  it('no shop text can leave the element: < > & and line separators are escaped, the JSON reads back the same', async () => {
    const evil = `</script><script>alert(1)</script><!--<script>&amp; \u2028\u2029 "quoted"`;
    const a = await createShop({ name: evil, ownerName: '<img src=x onerror=alert(2)>' });
    const { html } = await get(`/main?authToken=${a.token}`);
    const body = /<body>([\s\S]*)<\/body>/.exec(html)![1]!;
    expect(body).not.toMatch(/<script>alert|<img/);
    // The only comments are React's markers in the rendered first screen (worker/document-render.ts).
    expect(body.replace(/<!--\/?\$-->/g, '')).not.toContain('<!--');
    // The JSON element, the rendered root's guard and its event replay (with the response's nonce), nothing else.
    const scripts = [...body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.filter((t) => !/^<script nonce="[^"]+">$/.test(t))).toEqual([
      `<script type="application/json" id="${FIRST_READS_ID}">`,
    ]);
    expect(scripts.length).toBeLessThanOrEqual(3);
    expect([...body.matchAll(/<\/script>/g)]).toHaveLength(scripts.length);
    const info = readsOf(html)!.reads['/api/v1/getSettingInfo'] as { data: { shopname: string; name: string } };
    expect(info.data.shopname).toBe(evil);
    expect(info.data.name).toBe('<img src=x onerror=alert(2)>');
    expect(scriptSafeJson({ s: '</script>\u2028&' })).toBe('{"s":"\\u003c/script\\u003e\\u2028\\u0026"}');
  });

  it('HEAD and non-document paths make no reads', async () => {
    const seen: string[] = [];
    const fetcher: InternalFetch = async (req) => {
      seen.push(new URL(req.url).pathname);
      return new Response('{}', { headers: { 'Content-Type': 'application/json' } });
    };
    const a = await createShop();
    const head = await get(`/main?authToken=${a.token}`, { method: 'HEAD' });
    expect(head.html).toBe('');
    expect(shopReadsFor('/', false)).toEqual([]);
    expect(shopReadsFor('/auth/install')).toEqual([]);
    await firstReads(fetcher, new URL('https://app.test/cookieError?authToken=' + a.token));
    expect(seen).toEqual(['/app-config']);
  });

  it('leaves out what is not answered by the deadline, and any refusal or outage', async () => {
    const never = new Promise<Response>(() => {});
    const fetcher: InternalFetch = async (req) => {
      const path = new URL(req.url).pathname;
      if (path === '/api/v1/getPricingPlans') return never;
      if (path === '/api/v2/home/checkThemeAppExtension')
        return new Response('{"ack":0}', { status: 502, headers: { 'Content-Type': 'application/json' } });
      return new Response(JSON.stringify({ code: '200', data: { path } }), { headers: { 'Content-Type': 'application/json' } });
    };
    let fire = () => {};
    const deadline = () => ({ done: new Promise<void>((resolve) => (fire = resolve)), cancel: () => {} });
    const pending = firstReadsBy(fetcher, new URL(`https://app.test/main?authToken=${'t'.repeat(43)}`), deadline);
    await new Promise((resolve) => setTimeout(resolve, 0));
    fire();
    const doc = await pending;
    expect(Object.keys(doc.reads).sort()).toEqual(['/api/v1/getSettingInfo', '/app-config']);
  });

  it('reads the credential the admin will use: id_token first, an authToken of 32+ characters, never a short one', () => {
    const u = (q: string) => new URL(`https://app.test/main?${q}`);
    expect(documentCredential(u('authToken=' + 'a'.repeat(32)))).toEqual({ via: 'authToken', token: 'a'.repeat(32) });
    expect(documentCredential(u('authToken=' + 'a'.repeat(31)))).toEqual({ via: null, token: null });
    expect(documentCredential(u('id_token=x.y.z&authToken=' + 'a'.repeat(32)))).toEqual({ via: 'id_token', token: 'x.y.z' });
    expect(documentCredential(u('id_token=notajwt'))).toEqual({ via: null, token: null });
  });
});
