import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import indexHtml from '../../../admin/index.html?raw';
import en from '../../../admin/locales/en.json';
import ge from '../../../admin/locales/ge.json';
import { adminTokens } from '../../../worker/db/schema';
import { randomToken, sha256Hex } from '../../../worker/lib/crypto';
import { guessPhone } from '../../../worker/document-render';
import { createShop, db } from '../helpers';

// Issue 26 (LCP): the admin document carries its first screen rendered by the Worker, which the admin
// hydrates (admin/src/main.tsx). These requests go through the Worker as the browser's do.

const ASSETS = {
  fetch: async () => new Response(indexHtml, { headers: { 'Content-Type': 'text/html; charset=utf-8' } }),
} as unknown as Fetcher;

async function get(path: string, headers: Record<string, string> = {}) {
  const { app } = await import('../../../worker/app');
  const ctx = createExecutionContext();
  const res = await app.request(path, { headers }, { ...env, ASSETS, SHOPIFY_ORIGIN: '' }, ctx);
  const html = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, html };
}

/** The root element's opening tag and its content. */
function rootOf(html: string): { tag: string; inner: string } {
  const start = html.indexOf('<div id="root"');
  const open = html.indexOf('>', start) + 1;
  const end = html.lastIndexOf('</div>', html.indexOf('<script', open) === -1 ? html.length : html.indexOf('</body>'));
  return { tag: html.slice(start, open), inner: html.slice(open, end) };
}

/** Text as React writes it into markup. */
const escaped = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#x27;');

describe('the first screen rendered into the admin document', () => {
  it('renders the dashboard of the token’s shop, with the attributes the admin hydrates by', async () => {
    const a = await createShop({ setupGuidePending: false });
    const { res, html } = await get(`/main?authToken=${a.token}`);
    expect(res.status).toBe(200);
    const root = rootOf(html);
    expect(root.tag).toContain('data-ssr="standalone"');
    expect(root.tag).toContain('data-ssr-settings="1"');
    expect(root.tag).toContain('data-ssr-phone="0"');
    expect(root.inner).toContain(`>${escaped(en.main.title)}<`);
    // Polaris' class names, as the admin's bundle has them (its ES module copy: the CommonJS one has none).
    expect(root.inner).toMatch(/^<div class="Polaris-Frame" data-polaris-layer="true"><div class="Polaris-Frame__Skip">/);
    expect(root.inner).toContain('<div class="Polaris-Frame__Content">');
    // The standalone tabs of a session's screen.
    expect(root.inner).toContain(escaped(en.nav.imageOptimization));
    expect(html).toMatch(/<html lang="en"/);
  });

  it('renders in the merchant’s language, with <html lang> to match', async () => {
    const a = await createShop({ setupGuidePending: false, language: 'ge' });
    const { html } = await get(`/main?authToken=${a.token}`);
    expect(rootOf(html).inner).toContain(`>${escaped(ge.main.title)}<`);
    expect(html).toMatch(/<html lang="de"/);
  });

  it('renders for a phone when the request says it comes from one (the shell’s wrapping tabs)', async () => {
    const a = await createShop({ setupGuidePending: false });
    const { html } = await get(`/main?authToken=${a.token}`, { 'Sec-CH-UA-Mobile': '?1' });
    expect(rootOf(html).tag).toContain('data-ssr-phone="1"');
    expect(rootOf(html).inner).toContain(`aria-label="${escaped(en.nav.label)}"`);
  });

  it('renders the wizard for a shop that has not finished it, guarded by the tab session’s flag', async () => {
    const a = await createShop({ setupGuidePending: true });
    const { res, html } = await get(`/main?authToken=${a.token}`);
    const root = rootOf(html);
    expect(root.inner).toContain(escaped(en.guide.welcome.title));
    expect(root.inner).not.toContain(`>${escaped(en.main.title)}<`);
    // Dropped before it paints when this tab already offered the wizard (the admin then stays on /main).
    const guard = /<div id="root"[^]*?<\/div><script nonce="([^"]+)">([^]*?)<\/script>/.exec(html);
    expect(guard?.[2]).toContain('"closed:guide-offered"');
    expect(res.headers.get('Content-Security-Policy')).toContain(`'nonce-${guard?.[1]}'`);
    // The address moves to the wizard's first thing in <head> (before the preloads read it), unless the same flag is set.
    const head = html.slice(0, html.indexOf('</head>'));
    const move =
      /^<!doctype html>\s*<html[^>]*>\s*<head>\s*<meta charset="UTF-8" \/><script nonce="([^"]+)">([^]*?)<\/script>/i.exec(head);
    expect(move?.[1]).toBe(guard?.[1]);
    expect(move?.[2]).toContain('history.replaceState(');
    expect(move?.[2]).toContain('("/guidance",["closed:guide-offered"])');
  });

  it('a wizard-pending shop’s /setting: the image page, its address set before the preloads; a settled shop’s stays', async () => {
    const a = await createShop({ setupGuidePending: true });
    const { html } = await get(`/setting?authToken=${a.token}`);
    expect(rootOf(html).inner).toContain(`>${escaped(en.screens.imageOptimisation.title)}<`);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toMatch(/<meta charset="UTF-8" \/><script nonce="[^"]+">[^]*?\("\/image_optimisation",\[\]\)<\/script>/);
    const done = await createShop({ setupGuidePending: false });
    const settled = await get(`/setting?authToken=${done.token}`);
    expect(rootOf(settled.html).inner).toContain(`>${escaped(en.screens.setting.title)}<`);
    expect(settled.html).not.toContain('history.replaceState(');
  });

  it('renders the details screen as a direct link opens it, dropped when the history state carries an item', async () => {
    const a = await createShop({ setupGuidePending: false });
    const { html } = await get(`/image_optimisation_details?authToken=${a.token}`);
    const root = rootOf(html);
    expect(root.tag).toContain('data-ssr="standalone"');
    expect(root.inner).toContain(`>${escaped(en.screens.imageOptimisationDetails.title)}<`);
    expect(root.inner).toContain(escaped(en.imageOpt.history.empty));
    const guard = /<div id="root"[^]*?<\/div><script nonce="[^"]+">([^]*?)<\/script>/.exec(html);
    expect(guard?.[1]).toContain('history.state');
    expect(guard?.[1]).toContain(',["prodId"])');
  });

  it('renders the item the details address names, with its rows; another shop’s item shows nothing of it', async () => {
    const { seedItem, compressed } = await import('../history/seed');
    const a = await createShop({ setupGuidePending: false });
    const { id } = await seedItem(a.shop.id, { dataType: 1, resourceId: '5101', title: 'Alpine <Wool> Hat', optStatus: 2 }, [
      compressed(1000, 400, { fileName: 'alpine-front.jpg' }),
      compressed(2000, 900, { fileName: 'alpine-side.jpg' }),
    ]);
    const { html } = await get(`/image_optimisation_details?item=${id}&authToken=${a.token}`);
    const root = rootOf(html);
    expect(root.inner).toContain(`>${escaped(en.screens.imageOptimisationDetails.title)}<`);
    expect(root.inner).toContain(escaped('Alpine <Wool> Hat'));
    expect(root.inner).toContain('alpine-front.jpg');
    expect(root.inner).toContain('alpine-side.jpg');
    expect(root.inner).toContain(escaped(en.imageDetails.note30));
    // The screen's read travels with the document, under the URL the screen asks for.
    expect(html).toContain(`"/api/v2/image-opt/getProductImagesData?prod_id=${id}\\u0026page=1\\u0026pageSize=10"`);
    // Its address names the item: the history state has nothing to add, the markup stays.
    expect(html).not.toContain(',["prodId"])');

    // The same id with another shop's credential: the table still loading, nothing of shop A anywhere.
    const b = await createShop({ setupGuidePending: false });
    const other = await get(`/image_optimisation_details?item=${id}&authToken=${b.token}`);
    expect(rootOf(other.html).inner).toContain(`>${escaped(en.screens.imageOptimisationDetails.title)}<`);
    expect(other.html).not.toMatch(/Alpine|alpine-front|5101/);
    expect(other.html).not.toContain('getProductImagesData');
  });

  it('holds clicks and submits on the markup until the tree is live, in a script with the nonce', async () => {
    const a = await createShop({ setupGuidePending: false });
    const { res, html } = await get(`/main?authToken=${a.token}`);
    const replay = /<script nonce="([^"]+)">(\(function\(r\)\{[^]*?)<\/script>/.exec(html.slice(html.indexOf('<div id="root"')));
    expect(replay?.[2]).toContain("attributeFilter:['data-live']");
    expect(res.headers.get('Content-Security-Policy')).toContain(`'nonce-${replay?.[1]}'`);
    // Nothing rendered, nothing to hold.
    expect((await get('/main')).html).not.toContain('data-live');
  });

  it('writes shop-given text as text: a Shopify user named </script><img onerror> on the settings screen', async () => {
    const a = await createShop({ setupGuidePending: false });
    const evil = '</script><img src=x onerror=alert(1)>';
    const token = randomToken(32);
    await db()
      .insert(adminTokens)
      .values({ shopId: a.shop.id, tokenHash: await sha256Hex(token), userId: evil, expiresAt: Date.now() + 86_400_000 });
    const { html } = await get(`/setting?authToken=${token}`);
    const root = rootOf(html);
    expect(root.inner).toContain(escaped(en.setting.tokens.user.replace('{{id}}', evil)));
    expect(root.inner).not.toMatch(/<img|<\/script>/);
    // Its expiry date is written in the request's time zone, which the root names for the admin.
    expect(root.tag).toMatch(/ data-ssr-tz="[^"]+"/);
  });

  it('renders the public screens without a session, in English', async () => {
    for (const [path, text] of [
      ['/404', en.notFound.title],
      ['/privacy-policy', en.privacy.title],
      ['/cookieError', en.cookie.title],
      ['/error', en.error.title],
    ] as const) {
      const root = rootOf((await get(path)).html);
      expect(root.tag, path).toContain('data-ssr-settings="0"');
      expect(root.inner, path).toContain(escaped(text));
    }
  });

  it('leaves the root empty where the browser renders: no session, a refused token, the launch, a redirect', async () => {
    for (const path of ['/main', `/main?authToken=${'x'.repeat(40)}`, '/', '/admin', '/no/such/route', '/auth/install']) {
      const { res, html } = await get(path);
      expect(res.status, path).toBe(200);
      expect(rootOf(html).tag, path).toBe('<div id="root">');
      expect(rootOf(html).inner, path).toBe('');
    }
  });

  it('guesses a phone from the client hint, else from the user agent', () => {
    const h = (init: Record<string, string>) => new Headers(init);
    expect(guessPhone(h({ 'Sec-CH-UA-Mobile': '?1' }))).toBe(true);
    expect(guessPhone(h({ 'Sec-CH-UA-Mobile': '?0', 'User-Agent': 'Mozilla/5.0 (iPhone) Mobile' }))).toBe(false);
    expect(guessPhone(h({ 'User-Agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile/15E148' }))).toBe(true);
    expect(guessPhone(h({ 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0' }))).toBe(false);
  });
});
