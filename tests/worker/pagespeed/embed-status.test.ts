import { env } from 'cloudflare:test';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encryptSecret } from '../../../worker/lib/crypto';
import { EMBED_BLOCK_HANDLE } from '../../../worker/pagespeed/theme-embed';
import { SHOPIFY_API_VERSION } from '../../../worker/shopify';
import { call, createShop } from '../helpers';

// Shopify's answer to the main theme's config/settings_data.json, as the Admin API gives it.
const HEADER = '/*\n * IMPORTANT: The contents of this file are auto-generated.\n */\n';
const BLOCK_TYPE = `shopify://apps/image-speed/blocks/${EMBED_BLOCK_HANDLE}/0c6f3d8e-5b1a-4a8e-9d2f-7e4b1c9a6f30`;

type ThemeState = { embed: 'on' | 'off' | 'absent' | 'no-theme' };
const theme: ThemeState = { embed: 'absent' };
const seenTokens: string[] = [];

function settingsData(): string {
  const current: Record<string, unknown> = { logo_width: 90 };
  if (theme.embed !== 'absent') current.blocks = { '16845218947520836459': { type: BLOCK_TYPE, disabled: theme.embed === 'off', settings: {} } };
  return HEADER + JSON.stringify({ current, presets: {} }, null, 2);
}

const server = setupServer(
  http.post(`https://:shop/admin/api/${SHOPIFY_API_VERSION}/graphql.json`, async ({ request }) => {
    seenTokens.push(request.headers.get('X-Shopify-Access-Token') ?? '');
    const { query } = (await request.json()) as { query: string };
    if (!query.includes('config/settings_data.json')) return HttpResponse.json({ errors: [{ message: 'unexpected query' }] });
    const nodes =
      theme.embed === 'no-theme'
        ? []
        : [{ id: 'gid://shopify/OnlineStoreTheme/1', name: 'Dawn', files: { nodes: [{ filename: 'config/settings_data.json', body: { content: settingsData() } }] } }];
    return HttpResponse.json({ data: { themes: { nodes } }, extensions: { cost: { requestedQueryCost: 4, actualQueryCost: 4, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1996, restoreRate: 100 } } } });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  seenTokens.length = 0;
});

async function installedShop() {
  return createShop({ accessTokenEnc: await encryptSecret(env.TOKEN_ENCRYPTION_KEY, 'shpat_embed_test') });
}

describe('GET /api/v2/home/checkThemeAppExtension', () => {
  it('follows the theme’s switch: absent, on, off', async () => {
    const { shop, headers } = await installedShop();
    const url = `https://${shop.domain}/admin/themes/current/editor?context=apps&activateAppId=${env.SHOPIFY_API_KEY}/${EMBED_BLOCK_HANDLE}`;
    const check = async () => (await call('/api/v2/home/checkThemeAppExtension', { headers })).json();

    theme.embed = 'absent';
    expect(await check()).toEqual({ ack: 1, message: 'success', data: { url, status: 0 } });
    theme.embed = 'on';
    expect(await check()).toEqual({ ack: 1, message: 'success', data: { url, status: 1 } });
    theme.embed = 'off';
    expect(await check()).toEqual({ ack: 1, message: 'success', data: { url, status: 0 } });
    expect(seenTokens).toEqual(['shpat_embed_test', 'shpat_embed_test', 'shpat_embed_test']);
  });

  it('is off when the shop has no published theme', async () => {
    const { headers } = await installedShop();
    theme.embed = 'no-theme';
    const body = (await (await call('/api/v2/home/checkThemeAppExtension', { headers })).json()) as { data: { status: number } };
    expect(body.data.status).toBe(0);
  });

  it('needs authentication', async () => {
    expect((await call('/api/v2/home/checkThemeAppExtension')).status).toBe(401);
  });
});
