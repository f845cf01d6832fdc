// app/scopes_update end to end: a grant that changes the app's scopes makes the store emulator send the
// webhook (as Shopify does), to the URL shopify.app.toml resolves to; the Worker stores the new scopes.
import { env } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findShopById } from '../../../worker/db/shops';
import { createEmulatorShop } from '../emulator-client';
import { appFetch, createShop, db } from '../helpers';

afterEach(() => vi.restoreAllMocks());

describe('app/scopes_update', () => {
  it('the emulator sends it when a grant changes the scopes, and the stored scopes follow', async () => {
    const narrow = ['read_products', 'write_products'];
    const emu = await createEmulatorShop({ seed: 'empty', install: true, scopes: narrow });
    const { shop } = await createShop({ domain: emu.domain, accessTokenEnc: 'enc', scopes: narrow.join(',') });
    // The merchant grants the full list (e.g. through 'Authorise app').
    const q = new URLSearchParams({
      client_id: env.SHOPIFY_API_KEY,
      scope: env.SHOPIFY_SCOPES,
      redirect_uri: `${env.APP_URL}/shopify/callback`,
      state: 's',
    });
    expect((await fetch(`${emu.base}/admin/oauth/authorize?${q}`, { redirect: 'manual' })).status).toBe(302);
    const [delivery] = await emu.webhooks({ status: 'pending', topic: 'app/scopes_update' });
    expect(JSON.parse(delivery!.body)).toMatchObject({ previous: narrow, current: env.SHOPIFY_SCOPES.split(',') });
    expect(delivery!.url).toBe(`${env.APP_URL}/webhooks/shopify`);
    const results = await emu.postPendingWebhooks(appFetch);
    expect(results.map((r) => [r.delivery.topic, r.status])).toEqual([['app/scopes_update', 200]]);
    expect((await findShopById(db(), shop.id))!.scopes).toBe(env.SHOPIFY_SCOPES);
  });
});
