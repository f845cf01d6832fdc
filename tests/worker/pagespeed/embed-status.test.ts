import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShopRow } from '../../../worker/db/shops';
import { checkThemeEmbed } from '../../../worker/pagespeed/embed-status';
import { EMBED_BLOCK_HANDLE, parseSettingsData } from '../../../worker/pagespeed/theme-embed';
import { toStoredTokens } from '../../../worker/shopify/tokens';
import { type EmulatorShop, createEmulatorShop } from '../emulator-client';
import { call, createShop, db } from '../helpers';

// checkThemeAppExtension against the store emulator: its main theme's config/settings_data.json
// changes as the merchant switches the app embed in the theme editor.
let emulatorShop: EmulatorShop;
let headers: Record<string, string>;
let shop: ShopRow;

beforeAll(async () => {
  emulatorShop = await createEmulatorShop({ seed: 'empty', install: true });
  if (!emulatorShop.tokens) throw new Error('emulator did not install the app');
  const stored = await toStoredTokens(env, emulatorShop.tokens);
  ({ headers, shop } = await createShop({ domain: emulatorShop.domain, ...stored }));
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

  // Another app may call its embed block `prefetch` too: only ours (our app handle) says the speed-up is on.
  const otherPrefetch = (enabled: boolean) => [{ app: 'instant-page-prefetch', enabled }];

  it('another app’s enabled `prefetch` embed alone: off', async () => {
    await emulatorShop.setEmbed(null, otherPrefetch(true));
    expect((await check()).data.status).toBe(0);
  });

  it('ours switched off while another app’s `prefetch` embed is on: off; ours on: on', async () => {
    await emulatorShop.setEmbed(false, otherPrefetch(true));
    expect((await check()).data.status).toBe(0);
    await emulatorShop.setEmbed(true, otherPrefetch(false));
    expect((await check()).data.status).toBe(1);
    await emulatorShop.setEmbed(true, otherPrefetch(true));
    expect((await check()).data.status).toBe(1);
  });

  it('with our extension uuid configured (SHOPIFY_SPEED_PREFETCH_ID), a block of our app handle with another uuid: off', async () => {
    await emulatorShop.setEmbed(true);
    const blocks = (parseSettingsData(await emulatorShop.settingsData())?.current as { blocks: Record<string, { type: string }> })
      .blocks;
    const ourUuid = Object.values(blocks)[0]!.type.split('/').at(-1)!;
    expect(Object.values(blocks)[0]!.type).toBe(
      `shopify://apps/${env.SHOPIFY_APP_HANDLE}/blocks/${EMBED_BLOCK_HANDLE}/${ourUuid}`,
    );
    const configured = (uuid: string) => ({ ...env, SHOPIFY_SPEED_PREFETCH_ID: uuid }) as unknown as Env;
    expect((await checkThemeEmbed(configured('11111111-2222-3333-4444-555555555555'), db(), shop)).status).toBe(0);
    expect((await checkThemeEmbed(configured(ourUuid), db(), shop)).status).toBe(1);
  });

  it('needs authentication', async () => {
    expect((await call('/api/v2/home/checkThemeAppExtension')).status).toBe(401);
  });
});
