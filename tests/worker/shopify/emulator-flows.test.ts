// End to end against the store emulator (started by tests/global-setup.ts; SHOPIFY_ORIGIN is its
// origin): the real OAuth round trip, token exchange, the refresh race, throttling at 100 points/s,
// fileUpdate in place, and webhooks signed by the emulator.
import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findShopByDomain } from '../../../worker/db/shops';
import { decryptSecret, sha256HexOfBytes } from '../../../worker/lib/crypto';
import {
  ShopifyUserError,
  getProductsPage,
  getShopInfo,
  shopifyClientFor,
  stageImage,
  updateFile,
  waitForFileReady,
} from '../../../worker/shopify';
import { PRODUCTS_PAGE, PRODUCTS_PAGE_DEFAULTS, productsPageCost } from '../../../worker/shopify/operations/products';
import { refreshWithLease } from '../../../worker/shopify/tokens';
import { createEmulatorShop } from '../emulator-client';
import { appFetch, call, db } from '../helpers';
import { recordWebhookQueue } from '../webhooks/webhook-queue';
import { createLogger } from '../../../worker/lib/log';
import { runWebhookWork } from '../../../worker/webhooks/consumer';
import { SHOP_REDACT_AFTER_MS } from '../../../worker/webhooks/handlers';

let sent: unknown[] = [];
beforeEach(() => {
  sent = [];
  vi.spyOn(env.SYNC_QUEUE, 'send').mockImplementation(async (m: unknown) => {
    sent.push(m);
    return undefined as never;
  });
});
afterEach(() => vi.restoreAllMocks());
const webhookQueue = recordWebhookQueue();

/** Installs the app on a fresh emulator shop through the browser round trip; returns the shop. */
async function installThroughOAuth(opts: Parameters<typeof createEmulatorShop>[0] = {}) {
  const shop = await createEmulatorShop({ install: false, ...opts });
  const landing = await call(await shop.launchUrl('/shopify/app'));
  const { code, url } = await landing.json<{ code: number; url: string }>();
  expect(code).toBe(301);
  const authorize = await fetch(url, { redirect: 'manual' }); // the emulator auto-approves
  expect(authorize.status).toBe(302);
  const callback = await call(authorize.headers.get('Location')!, { redirect: 'manual' });
  expect(callback.status).toBe(302);
  const row = (await findShopByDomain(db(), shop.domain))!;
  return { shop, row };
}

describe('against the store emulator', () => {
  it('OAuth install stores an encrypted expiring token and the shop info; the next landing is 302', async () => {
    const { shop, row } = await installThroughOAuth();
    expect((await shop.info()).stats.authorizationCodes).toBe(1);
    expect(row.accessTokenEnc).toBeTruthy();
    expect(row.accessTokenEnc).not.toMatch(/^shpat_/);
    expect(row.refreshTokenEnc).toBeTruthy();
    expect(row.accessTokenExpiresAt).toBeGreaterThan(Date.now());
    expect(row.name).toBe(((await shop.info()) as unknown as { name: string }).name);
    expect(row.name).not.toBe('');
    expect(row.email).toBeTruthy();
    expect(sent).toEqual([{ type: 'sync', shopId: row.id }]);
    // The stored token really works against the emulator.
    expect((await getShopInfo(shopifyClientFor(env, db(), row))).myshopifyDomain).toBe(shop.domain);
    const again = await (await call(await shop.launchUrl('/shopify/app'))).json<{ code: number; url: string }>();
    expect(again.code).toBe(302);
    expect(again.url.startsWith('/guidance')).toBe(true);
  });

  it('an embedded session token installs through token exchange', async () => {
    const shop = await createEmulatorShop({ install: false });
    const res = await call('/api/v1/adminToken', {
      method: 'POST',
      headers: { Authorization: `Bearer ${await shop.sessionToken()}` },
    });
    expect(res.status).toBe(200);
    expect((await shop.info()).stats.tokenExchanges).toBe(1);
    const row = (await findShopByDomain(db(), shop.domain))!;
    expect(await decryptSecret(env.TOKEN_ENCRYPTION_KEY, row.accessTokenEnc!)).toMatch(/\S{16,}/);
  });

  it('concurrent requests with an expired access token cause exactly one refresh', async () => {
    const { shop, row } = await installThroughOAuth();
    await shop.expireTokens();
    await db().run(`UPDATE shops SET access_token_expires_at = ${Date.now() - 1000} WHERE id = ${row.id}` as never);
    const client = shopifyClientFor(env, db(), row);
    const results = await Promise.all(Array.from({ length: 12 }, () => getShopInfo(client)));
    expect(results.every((r) => r.myshopifyDomain === shop.domain)).toBe(true);
    expect((await shop.info()).stats.tokenRefreshes).toBe(1);

    // Racers sharing no memory (separate isolates) go through D1's lease: still one refresh.
    await shop.expireTokens();
    await db().run(`UPDATE shops SET access_token_expires_at = ${Date.now() - 1000} WHERE id = ${row.id}` as never);
    const stale = (await findShopByDomain(db(), shop.domain))!.accessTokenExpiresAt;
    await Promise.all(Array.from({ length: 6 }, () => refreshWithLease(env, db(), row.id, stale)));
    expect((await shop.info()).stats.tokenRefreshes).toBe(2);
  });

  it('a burst of 200 GraphQL calls at 100 points/s completes with no THROTTLED reaching the caller', async () => {
    // A small bucket at the default 100 points/s restore rate, so the burst must wait for refills.
    const { shop, row } = await installThroughOAuth({ settings: { maximumAvailable: 100, restoreRate: 100 } });
    const client = shopifyClientFor(env, db(), row);
    const results = await Promise.all(Array.from({ length: 200 }, () => getShopInfo(client)));
    expect(results).toHaveLength(200);
    const info = await shop.info();
    expect(info.stats.throttled).toBe(0); // the client never sent a call the bucket could not pay for
    expect(info.stats.graphqlRequests).toBeGreaterThanOrEqual(200);
  }, 60_000);

  it('the products page cost estimate is the requested cost Shopify computes; the defaults stay under 1,000', async () => {
    const shop = await createEmulatorShop({ install: true });
    const ask = (first: number, mediaFirst: number) =>
      shop.graphql(PRODUCTS_PAGE, { first, mediaFirst, after: null, query: null });
    const ok = await ask(PRODUCTS_PAGE_DEFAULTS.first, PRODUCTS_PAGE_DEFAULTS.mediaFirst);
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.extensions!.cost.requestedQueryCost).toBe(
      productsPageCost(PRODUCTS_PAGE_DEFAULTS.first, PRODUCTS_PAGE_DEFAULTS.mediaFirst),
    );
    expect(ok.body.extensions!.cost.requestedQueryCost).toBeLessThan(1000);
    const tooBig = await ask(50, 50);
    expect(JSON.stringify(tooBig.body.errors)).toContain('MAX_COST_EXCEEDED');
    expect(tooBig.body.extensions?.cost.requestedQueryCost ?? productsPageCost(50, 50)).toBe(productsPageCost(50, 50));
  });

  it('5xx and 429 faults are retried transparently', async () => {
    const { shop, row } = await installThroughOAuth();
    await shop.injectFault({ target: 'graphql', status: 503, times: 2 });
    await shop.injectFault({ target: 'graphql', status: 429, times: 1, retryAfter: 1 });
    const page = await getProductsPage(shopifyClientFor(env, db(), row, { retryBaseMs: 50 }), { first: 2 });
    expect(page.items).toHaveLength(2);
  }, 20_000);

  it('fileUpdate replaces the bytes of a product image in place; a failed processing is a typed error', async () => {
    const { shop, row } = await installThroughOAuth();
    const client = shopifyClientFor(env, db(), row);
    const product = (await getProductsPage(client, { first: 1 })).items[0]!;
    const media = product.media[0]!;
    const before = await shop.file(media.id);
    const png = (await shop.files()).find((f) => f.mimeType === 'image/png' && f.id !== media.id)!;
    const bytes = await shop.fileBytes(png.id);
    const ext = before.filename.slice(before.filename.lastIndexOf('.'));
    const resourceUrl = await stageImage(client, bytes, `replacement${ext}`, before.mimeType);
    await updateFile(client, { id: media.id, originalSource: resourceUrl, alt: 'Optimised alt' });
    const ready = await waitForFileReady(client, media.id, { intervalMs: 50 });
    expect(ready.fileStatus).toBe('READY');
    const after = await shop.file(media.id);
    expect(after.sha256).toBe(await sha256HexOfBytes(bytes));
    expect(after.alt).toBe('Optimised alt');
    expect(after.url.split('?')[0]).toBe(before.url.split('?')[0]); // same URL, new version
    expect(after.productIds).toEqual(before.productIds);

    // Shopify 2026-10 refuses fileUpdate on a FAILED file until the failure is acknowledged.
    await shop.setSettings({ refuseUpdatesOfFailedFiles: true });
    await shop.failFileProcessing(1);
    await updateFile(client, { id: media.id, originalSource: await stageImage(client, bytes, `again${ext}`, before.mimeType) });
    const failed = await waitForFileReady(client, media.id, { intervalMs: 50 }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ShopifyUserError);
    expect((failed as ShopifyUserError).codes).toContain('FILE_FAILED');
    expect((await shop.file(media.id)).status).toBe('READY'); // acknowledged: last good bytes, updatable
    // A caller's retry is accepted and lands.
    await updateFile(client, { id: media.id, originalSource: await stageImage(client, bytes, `retry${ext}`, before.mimeType) });
    expect((await waitForFileReady(client, media.id, { intervalMs: 50 })).fileStatus).toBe('READY');
  }, 20_000);

  it('webhooks signed by the emulator: a duplicate is processed once; uninstall revokes; shop/redact removes the shop', async () => {
    const { shop, row } = await installThroughOAuth();
    const product = (await shop.products())[0]!;
    await shop.updateProduct(product.id, { title: 'Renamed poster' });
    const [delivery] = await shop.webhooks({ status: 'pending', topic: 'products/update' });
    expect(delivery).toBeTruthy();
    const post = () => appFetch(new Request(delivery!.url, { method: 'POST', headers: delivery!.headers, body: delivery!.body }));
    expect((await (await post()).json<{ outcome: string }>()).outcome).toBe('processed');
    expect((await (await post()).json<{ outcome: string }>()).outcome).toBe('duplicate');
    expect(sent.filter((m) => (m as { type: string }).type === 'product_changed')).toHaveLength(1);

    await shop.uninstall();
    await shop.postPendingWebhooks(appFetch);
    await webhookQueue.drain(); // app/uninstalled asks Shopify (the token is refused) in the webhook queue
    const gone = (await findShopByDomain(db(), shop.domain))!;
    expect(gone.uninstalledAt).toBeTruthy();
    expect(gone.accessTokenEnc).toBeNull();

    await env.BUCKET.put(`originals/${row.id}/x.jpg`, 'x');
    await shop.triggerWebhook('shop/redact');
    const results = await shop.postPendingWebhooks(appFetch);
    expect(results.every((r) => r.status === 200)).toBe(true);
    // shop/redact's work runs in the webhook queue, 48 hours after the confirmed uninstall (Shopify's timing;
    // tests/worker/webhooks/uninstall-redact.test.ts covers the rule).
    for (const m of webhookQueue.sent.splice(0))
      expect(await runWebhookWork(env, db(), m, createLogger(), gone.uninstalledAt! + SHOP_REDACT_AFTER_MS)).toBe('done');
    expect(await findShopByDomain(db(), shop.domain)).toBeUndefined();
    expect((await env.BUCKET.list({ prefix: `originals/${row.id}/` })).objects).toHaveLength(0);
  }, 20_000);
});
