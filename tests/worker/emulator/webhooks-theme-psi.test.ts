// Signed webhooks, the theme app embed switch, storefront pages and the PageSpeed Insights emulator.
import { env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hmacSha256, toBase64 } from '../../../worker/lib/crypto';
import { createEmulatorShop, emulatorOrigin, type EmulatorShop, pageSpeed } from '../emulator-client';

let shop: EmulatorShop;
beforeAll(async () => {
  shop = await createEmulatorShop({ install: true });
});

describe('emulator webhooks', () => {
  it('queues signed deliveries for merchant changes and hands them to the in-process app', async () => {
    const [product] = await shop.products();
    await shop.updateProduct(product!.id, { title: 'Renamed poster' });
    const [delivery] = await shop.webhooks({ status: 'pending', topic: 'products/update' });
    expect(delivery!.headers).toMatchObject({
      'X-Shopify-Topic': 'products/update',
      'X-Shopify-Shop-Domain': shop.domain,
      'X-Shopify-API-Version': '2026-10',
    });
    expect(delivery!.headers['X-Shopify-Hmac-Sha256']).toBe(toBase64(await hmacSha256(env.SHOPIFY_API_SECRET, delivery!.body)));
    // shopify.app.toml's include_fields for products/*: Shopify sends only those fields.
    expect(Object.keys(JSON.parse(delivery!.body)).sort()).toEqual(['admin_graphql_api_id', 'id', 'updated_at']);
    expect(JSON.parse(delivery!.body)).toMatchObject({ admin_graphql_api_id: product!.id });
    // Where Shopify CLI resolves the toml's relative uri against the app URL.
    expect(delivery!.url).toBe(`${env.APP_URL}/webhooks/shopify`);

    const received: string[] = [];
    const results = await shop.postPendingWebhooks(async (req) => {
      received.push(`${req.headers.get('X-Shopify-Topic')} ${req.headers.get('X-Shopify-Webhook-Id')}`);
      return new Response(null, { status: 200 });
    });
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(received).toContain(`products/update ${delivery!.id}`);
    expect((await shop.webhooks({ status: 'pending' })).map((d) => d.topic)).toEqual([]);
  });

  it('sends compliance topics on request with Shopify sample payloads', async () => {
    const d = await shop.triggerWebhook('shop/redact');
    expect(JSON.parse(d.body)).toEqual({ shop_id: expect.any(Number), shop_domain: shop.domain });
  });
});

describe('emulator theme app embed', () => {
  it('switches the embed block in config/settings_data.json and the storefront renders it', async () => {
    const read = async () => {
      const { body } = await shop.graphql<{ themes: { nodes: { files: { nodes: { body: { content: string } }[] } }[] } }>(
        '{ themes(first: 1, roles: [MAIN]) { nodes { files(filenames: ["config/settings_data.json"]) { nodes { body { ... on OnlineStoreThemeFileBodyText { content } } } } } } }',
      );
      const content = body.data!.themes.nodes[0]!.files.nodes[0]!.body.content;
      return JSON.parse(content.replace(/^\/\*[\s\S]*?\*\//, '')) as {
        current: { blocks?: Record<string, { type: string; disabled: boolean }> };
      };
    };
    const block = () => read().then((j) => Object.values(j.current.blocks ?? {})[0]);
    // Our block, named as Shopify names it: the app handle shopify.app.toml registers, the block, the extension uuid.
    expect(await block()).toMatchObject({
      type: expect.stringMatching(new RegExp(`^shopify://apps/${env.SHOPIFY_APP_HANDLE}/blocks/prefetch/[0-9a-f-]{36}$`)),
      disabled: true,
    });
    const page = () => fetch(`${emulatorOrigin()}/${shop.domain}/`).then((r) => r.text());
    expect(await page()).not.toContain('/storefront/prefetch.js');
    await shop.setEmbed(true);
    expect((await block())!.disabled).toBe(false);
    const html = await page();
    expect(html).toContain(`${env.APP_URL}/storefront/prefetch.js`);
    expect(html).toContain('<script type="speculationrules">');
    expect(html).toContain('"eagerness":"conservative"');
    await shop.setEmbed(null);
    expect(await block()).toBeUndefined();
  });

  it('another app’s `prefetch` embed sits beside ours; the storefront renders our script only while ours is on', async () => {
    await shop.setEmbed(false, [{ app: 'instant-page-prefetch', enabled: true }]);
    const text = await shop.settingsData();
    const blocks = Object.values(
      (
        JSON.parse(text.replace(/^\/\*[\s\S]*?\*\//, '')) as {
          current: { blocks: Record<string, { type: string; disabled: boolean }> };
        }
      ).current.blocks,
    );
    expect(blocks).toEqual([
      {
        type: expect.stringMatching(/^shopify:\/\/apps\/instant-page-prefetch\/blocks\/prefetch\/[0-9a-f-]{36}$/),
        disabled: false,
        settings: {},
      },
      {
        type: expect.stringContaining(`shopify://apps/${env.SHOPIFY_APP_HANDLE}/blocks/prefetch/`),
        disabled: true,
        settings: {},
      },
    ]);
    const page = () => fetch(`${emulatorOrigin()}/${shop.domain}/`).then((r) => r.text());
    expect(await page()).not.toContain('/storefront/prefetch.js');
    await shop.setEmbed(true, [{ app: 'instant-page-prefetch', enabled: true }]);
    expect(await page()).toContain(`${env.APP_URL}/storefront/prefetch.js`);
    await shop.setEmbed(null);
  });

  it('serves product pages with links, 404 for drafts, and the configured time to first byte', async () => {
    await shop.setSettings({ storefrontTtfbMs: [120, 120] });
    const products = await shop.products();
    const live = products.find((p) => p.status === 'ACTIVE' && p.published)!;
    const draft = products.find((p) => p.status === 'DRAFT')!;
    const t = Date.now();
    const res = await fetch(`${emulatorOrigin()}/${shop.domain}/products/${live.handle}`);
    expect(Date.now() - t).toBeGreaterThanOrEqual(110);
    const html = await res.text();
    expect(html).toContain(`/${shop.domain}/collections/all`);
    expect(html).toContain(live.media[0]!.url.split('?')[0]);
    expect((await fetch(`${emulatorOrigin()}/${shop.domain}/products/${draft.handle}`)).status).toBe(404);
    await shop.setSettings({ storefrontTtfbMs: [0, 0] });
  });
});

describe('emulator PageSpeed Insights', () => {
  afterEach(() => pageSpeed.reset());
  const run = (url: string, strategy: string) =>
    fetch(
      `${emulatorOrigin()}/pagespeedonline/v5/runPagespeed?url=${encodeURIComponent(url)}&strategy=${strategy}&category=performance&key=k`,
    );

  it('answers lighthouseResult.categories.performance.score per strategy', async () => {
    await pageSpeed.set({ host: 'fast.example', desktop: 0.93, mobile: 0.58 });
    const desktop = await (
      await run('https://fast.example/', 'desktop')
    ).json<{
      lighthouseResult: {
        categories: { performance: { score: number } };
        configSettings: { formFactor: string };
        audits: Record<string, { numericValue: number }>;
      };
    }>();
    const mobile = await (await run('https://fast.example/', 'mobile')).json<typeof desktop>();
    expect(desktop.lighthouseResult.categories.performance.score).toBe(0.93);
    expect(desktop.lighthouseResult.configSettings.formFactor).toBe('desktop');
    expect(mobile.lighthouseResult.categories.performance.score).toBe(0.58);
    expect(desktop.lighthouseResult.audits['largest-contentful-paint']!.numericValue).toBeGreaterThan(0);
    const a = await (await run('https://other.example/', 'mobile')).json<typeof desktop>();
    const b = await (await run('https://other.example/', 'mobile')).json<typeof desktop>();
    expect(a.lighthouseResult.categories.performance.score).toBe(b.lighthouseResult.categories.performance.score);
  });

  it('answers 429, password-protected and unreachable like Google does', async () => {
    await pageSpeed.set({ host: 'busy.example', mode: 'rate-limited', remaining: 1 });
    const limited = await run('https://busy.example/', 'desktop');
    expect(limited.status).toBe(429);
    expect((await limited.json<{ error: { status: string } }>()).error.status).toBe('RESOURCE_EXHAUSTED');
    expect((await run('https://busy.example/', 'desktop')).status).toBe(200);

    await shop.setSettings({ storefrontPassword: true });
    const locked = await run(`https://${shop.domain}/`, 'mobile');
    expect(locked.status).toBe(400);
    expect((await locked.json<{ error: { message: string } }>()).error.message).toContain('ERRORED_DOCUMENT_REQUEST');
    await shop.setSettings({ storefrontPassword: false });

    await pageSpeed.set({ host: 'gone.example', mode: 'unreachable' });
    expect(
      (await (await run('https://gone.example/', 'desktop')).json<{ error: { message: string } }>()).error.message,
    ).toContain('FAILED_DOCUMENT_REQUEST');
  });
});

describe('emulator large shop', () => {
  it('generates 10,000 products with 40,000 images on first access and pages through them', async () => {
    const big = await createEmulatorShop({ seed: 'large', install: true });
    const { body } = await big.graphql<{
      productsCount: { count: number };
      products: { nodes: { media: { nodes: unknown[] } }[] };
    }>('{ productsCount { count precision } products(first: 5) { nodes { id media(first: 4) { nodes { id } } } } }');
    expect(body.data!.productsCount.count).toBe(10_000);
    expect(body.data!.products.nodes[0]!.media.nodes).toHaveLength(4);
    const info = await big.info();
    expect(info.installed).toBe(true);
  });
});
