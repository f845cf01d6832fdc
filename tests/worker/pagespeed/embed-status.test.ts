import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { EMBED_BLOCK_HANDLE } from '../../../worker/pagespeed/theme-embed';
import { toStoredTokens } from '../../../worker/shopify/tokens';
import { type EmulatorShop, createEmulatorShop } from '../emulator-client';
import { call, createShop } from '../helpers';

// checkThemeAppExtension against the store emulator: its main theme's config/settings_data.json
// changes as the merchant switches the app embed in the theme editor.
let emulatorShop: EmulatorShop;
let headers: Record<string, string>;

beforeAll(async () => {
  emulatorShop = await createEmulatorShop({ seed: 'empty', install: true });
  if (!emulatorShop.tokens) throw new Error('emulator did not install the app');
  const stored = await toStoredTokens(env, emulatorShop.tokens);
  ({ headers } = await createShop({ domain: emulatorShop.domain, ...stored }));
});

async function check() {
  const res = await call('/api/v2/home/checkThemeAppExtension', { headers });
  expect(res.status).toBe(200);
  return await res.json<{ ack: number; message: string; data: { url: string; status: number } }>();
}

describe('GET /api/v2/home/checkThemeAppExtension', () => {
  it('follows the theme editor switch: never added, on, off, on again', async () => {
    const url = `${emulatorShop.base}/admin/themes/current/editor?context=apps&activateAppId=${env.SHOPIFY_API_KEY}/${EMBED_BLOCK_HANDLE}`;

    await emulatorShop.setEmbed(null);
    expect(await check()).toEqual({ ack: 1, message: 'success', data: { url, status: 0 } });
    await emulatorShop.setEmbed(true);
    expect(await check()).toEqual({ ack: 1, message: 'success', data: { url, status: 1 } });
    await emulatorShop.setEmbed(false);
    expect((await check()).data.status).toBe(0);
    await emulatorShop.setEmbed(true);
    expect((await check()).data.status).toBe(1);
  });

  it('needs authentication', async () => {
    expect((await call('/api/v2/home/checkThemeAppExtension')).status).toBe(401);
  });
});
