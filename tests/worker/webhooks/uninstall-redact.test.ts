// Webhooks cannot delete what a live shop owns (issue 21, point 4). Shopify's HMAC covers the body only:
// a signed app/uninstalled or shop/redact body captured once stays valid forever, and the id and
// timestamp headers are not signed. So app/uninstalled is acted on only when Shopify refuses the shop's
// token, shop/redact only 48 hours after that confirmed uninstall, and a replayed body changes nothing.
// Real flows run against the store emulator (its uninstall revokes every token, as Shopify does); the
// clock of the queue consumer is moved for the 48 hours.
import { createMessageBatch, env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pruneProcessedWebhooks } from '../../../worker/db/processed-webhooks';
import { adminTokens, images, items, jobs, processedWebhooks, shops } from '../../../worker/db/schema';
import { findShopByDomain, upsertInstalledShop } from '../../../worker/db/shops';
import { createLogger } from '../../../worker/lib/log';
import type { WebhookWorkMessage } from '../../../worker/messages/shopify-webhook';
import { accessTokenUrl } from '../../../worker/shopify/api-version';
import { toStoredTokens } from '../../../worker/shopify/tokens';
import { handleWebhookBatch, runWebhookWork, WEBHOOK_QUEUE_NAME } from '../../../worker/webhooks/consumer';
import { SHOP_REDACT_AFTER_MS, SHOP_REDACT_WAIT_MAX_MS, WebhookRetryLater } from '../../../worker/webhooks/handlers';
import { BODY_KEY_PREFIX } from '../../../worker/webhooks/keys';
import { WEBHOOK_BODY_KEY_RETENTION_MS } from '../../../worker/webhooks/maintenance';
import { createEmulatorShop, type EmulatorShop, type TokenAnswer, type WebhookDelivery } from '../emulator-client';
import { appFetch, createShop, db } from '../helpers';
import { decryptSecret, randomToken, sha256Hex } from '../../../worker/lib/crypto';
import { deliverWebhook, outcomeOf } from './webhook-delivery';
import { consumeWebhookMessages, recordWebhookQueue } from './webhook-queue';

const queue = recordWebhookQueue();
afterEach(() => vi.restoreAllMocks());

const HOUR = 3600_000;
const log = createLogger({ test: 'uninstall-redact' });
const KINDS = ['originals', 'results', 'uploads', 'watermarks', 'shops'];

/** The app's record of a shop installed on the emulator: tokens as the OAuth callback stores them, data, objects. */
async function installedShop() {
  const emu = await createEmulatorShop({ seed: 'empty', install: true });
  const { shop } = await createShop({ domain: emu.domain, ...(await toStoredTokens(env, emu.tokens!)) });
  await ownData(shop.id);
  return { emu, shopId: shop.id };
}

async function ownData(shopId: number) {
  const item = await db().insert(items).values({ shopId, dataType: 1, resourceId: '1', title: 'Poster' }).returning().get();
  await db()
    .insert(images)
    .values({ shopId, itemId: item.id, imgId: `gid://shopify/MediaImage/${shopId}` });
  await db().insert(jobs).values({ id: crypto.randomUUID(), shopId, dataType: 1, processType: 'optimize', status: 'running' });
  for (const kind of KINDS) await env.BUCKET.put(`${kind}/${shopId}/a.jpg`, 'bytes');
}

/** Shopify's install callback after a reinstall: new tokens stored, a new admin token bought. */
async function reinstall(emu: EmulatorShop): Promise<TokenAnswer> {
  const tokens = await emu.install();
  const { shop } = await upsertInstalledShop(db(), emu.domain, await toStoredTokens(env, tokens));
  await db()
    .insert(adminTokens)
    .values({ shopId: shop.id, tokenHash: await sha256Hex(randomToken(32)), userId: '42', expiresAt: Date.now() + 86_400_000 });
  return tokens;
}

/** Everything a webhook could take from the shop: its grant, admin tokens, R2 objects and D1 rows. */
async function holdings(shopId: number, domain: string) {
  const row = await findShopByDomain(db(), domain);
  const objects: string[] = [];
  for (const kind of KINDS) objects.push(...(await env.BUCKET.list({ prefix: `${kind}/${shopId}/` })).objects.map((o) => o.key));
  return {
    grant: row && {
      id: row.id,
      accessTokenEnc: row.accessTokenEnc,
      refreshTokenEnc: row.refreshTokenEnc,
      installedAt: row.installedAt,
      uninstalledAt: row.uninstalledAt,
      planLevel: row.planLevel,
    },
    adminTokens: (await db().select().from(adminTokens).where(eq(adminTokens.shopId, shopId)).all()).map((t) => t.tokenHash),
    objects: objects.sort(),
    items: (await db().select().from(items).where(eq(items.shopId, shopId)).all()).length,
    images: (await db().select().from(images).where(eq(images.shopId, shopId)).all()).length,
    jobs: (await db().select().from(jobs).where(eq(jobs.shopId, shopId)).all()).map((j) => j.status),
  };
}

/** Posts a delivery as the emulator signed it; `replay` swaps the unsigned headers as an attacker would. */
function post(d: WebhookDelivery, replay?: { triggeredAt: string | null }) {
  const headers = new Headers(d.headers);
  if (replay) {
    headers.set('X-Shopify-Webhook-Id', crypto.randomUUID());
    if (replay.triggeredAt === null) headers.delete('X-Shopify-Triggered-At');
    else headers.set('X-Shopify-Triggered-At', replay.triggeredAt);
  }
  return appFetch(new Request(d.url, { method: 'POST', headers, body: d.body }));
}

/** Posts the emulator's pending deliveries of `topic` (Shopify sending them); returns them. */
async function sendPending(emu: EmulatorShop, topic: string): Promise<WebhookDelivery[]> {
  const pending = await emu.webhooks({ status: 'pending', topic });
  for (const d of pending) {
    expect(await outcomeOf(post(d))).toBe('queued');
    await emu.ackWebhook(d.id);
  }
  return pending;
}

/** The real uninstall: Shopify revokes the grant and sends app/uninstalled; the consumer confirms it. */
async function uninstall(emu: EmulatorShop): Promise<WebhookDelivery> {
  await emu.uninstall();
  const [d] = await sendPending(emu, 'app/uninstalled');
  const [m] = queue.sent.splice(0);
  expect(await runWebhookWork(env, db(), m!, log)).toBe('done');
  return d!;
}

/** Runs the queued messages through the consumer with its clock at `now`; a delay asked for reads `{ laterSeconds }`. */
async function consumeAt(now: number) {
  const results: (string | { laterSeconds: number })[] = [];
  for (const m of queue.sent.splice(0)) {
    try {
      results.push(await runWebhookWork(env, db(), m, log, now));
    } catch (err) {
      if (!(err instanceof WebhookRetryLater)) throw err;
      results.push({ laterSeconds: err.delaySeconds });
    }
  }
  return results;
}

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('the emulator refuses a grant after uninstall as Shopify does', () => {
  it('the access token gets 401 "[API] Invalid API key or access token", the refresh token invalid_grant', async () => {
    const { emu } = await installedShop();
    const tokens = emu.tokens!;
    expect((await emu.graphql('{ shop { id } }', {}, tokens.access_token)).status).toBe(200);
    await emu.uninstall();
    const refused = await emu.graphql('{ shop { id } }', {}, tokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.body.errors).toBe('[API] Invalid API key or access token (unrecognized login or wrong password)');
    const refresh = await fetch(accessTokenUrl(env, emu.domain), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({
        client_id: env.SHOPIFY_API_KEY,
        client_secret: env.SHOPIFY_API_SECRET,
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
      }),
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('app/uninstalled is acted on only when Shopify refuses the token', () => {
  it('a real uninstall: Shopify refuses, so the grant, admin tokens and jobs go and the confirmed time is recorded; data stays for shop/redact', async () => {
    const { emu, shopId } = await installedShop();
    const before = await holdings(shopId, emu.domain);
    await emu.uninstall();
    await sendPending(emu, 'app/uninstalled');
    // Nothing happens inside the request: the answer comes from Shopify, asked by the queue consumer.
    expect(await holdings(shopId, emu.domain)).toEqual(before);
    const asked = (await emu.info()).stats.unauthorized;
    const start = Date.now();
    expect((await queue.drain()).explicitAcks).toHaveLength(1);
    expect((await emu.info()).stats.unauthorized).toBeGreaterThan(asked);
    const after = await holdings(shopId, emu.domain);
    expect(after.grant).toMatchObject({ accessTokenEnc: null, refreshTokenEnc: null, planLevel: 0 });
    expect(after.grant!.uninstalledAt).toBeGreaterThanOrEqual(start);
    expect(after.grant!.uninstalledAt).toBeLessThanOrEqual(Date.now());
    expect(after.adminTokens).toEqual([]);
    expect(after.jobs).toEqual(['stopped']);
    expect({ objects: after.objects, items: after.items, images: after.images }).toEqual({
      objects: before.objects,
      items: 1,
      images: 1,
    });
  });

  it("the issue's attack: an old signed app/uninstalled body, replayed after reinstall with a new id and no or an old Triggered-At, changes nothing", async () => {
    const { emu, shopId } = await installedShop();
    const captured = await uninstall(emu);
    await reinstall(emu);
    const before = await holdings(shopId, emu.domain);
    expect(before.grant!.uninstalledAt).toBeNull();
    const graphqlBefore = (await emu.info()).stats.graphqlRequests;

    const warned = vi.spyOn(console, 'warn');
    for (const triggeredAt of [null, ago(5 * HOUR)]) {
      expect(await outcomeOf(post(captured, { triggeredAt }))).toBe('queued');
      expect((await queue.drain()).explicitAcks).toHaveLength(1);
      expect(await holdings(shopId, emu.domain)).toEqual(before);
    }
    const warnings = warned.mock.calls.map((c) => JSON.parse(String(c[0])) as Record<string, unknown>);
    expect(warnings.filter((w) => w.event === 'shop_uninstall_unconfirmed')).toMatchObject([
      { grant: 'accepted', reason: 'Shopify still accepts the shop token' },
      { grant: 'accepted', reason: 'Shopify still accepts the shop token' },
    ]);
    // Shopify was asked each time, and said the token is good.
    expect((await emu.info()).stats.graphqlRequests).toBe(graphqlBefore + 2);
    // A Triggered-At beyond the freshness window is refused at the door.
    expect((await post(captured, { triggeredAt: ago(2 * 24 * HOUR) })).status).toBe(401);
    expect(await holdings(shopId, emu.domain)).toEqual(before);
    // The stored token still works against Shopify.
    const row = (await findShopByDomain(db(), emu.domain))!;
    const token = await decryptSecret(env.TOKEN_ENCRYPTION_KEY, row.accessTokenEnc!);
    expect((await emu.graphql('{ shop { id } }', {}, token)).status).toBe(200);
  });

  it('a body posted for a live shop that never uninstalled changes nothing; a replay within the same install after the real uninstall is a duplicate', async () => {
    const { emu, shopId } = await installedShop();
    const genuine = await emu.triggerWebhook('app/uninstalled'); // a signed body while the app stays installed
    await emu.ackWebhook(genuine.id);
    const before = await holdings(shopId, emu.domain);
    expect(await outcomeOf(post(genuine))).toBe('queued');
    await queue.drain();
    expect(await holdings(shopId, emu.domain)).toEqual(before);
    // Nothing was kept of a delivery that changed nothing, so Shopify's real one is not mistaken for it.
    const d = await uninstall(emu);
    expect((await holdings(shopId, emu.domain)).grant!.uninstalledAt).not.toBeNull();
    const graphqlBefore = (await emu.info()).stats.graphqlRequests;
    expect(await outcomeOf(post(d, { triggeredAt: null }))).toBe('duplicate');
    expect(queue.sent).toHaveLength(0);
    expect((await emu.info()).stats.graphqlRequests).toBe(graphqlBefore);
  });

  it('when our access token has expired, Shopify refusing the refresh token (invalid_grant) is the same confirmation', async () => {
    const { emu, shopId } = await installedShop();
    await db()
      .update(shops)
      .set({ accessTokenExpiresAt: Date.now() - 1000 })
      .where(eq(shops.id, shopId));
    await emu.uninstall();
    await sendPending(emu, 'app/uninstalled');
    const refreshesBefore = (await emu.info()).stats.tokenRefreshes;
    expect((await queue.drain()).explicitAcks).toHaveLength(1);
    expect((await emu.info()).stats.tokenRefreshes).toBe(refreshesBefore); // refused, none issued
    expect((await holdings(shopId, emu.domain)).grant).toMatchObject({ accessTokenEnc: null, refreshTokenEnc: null });
  });

  it('a shop whose token the app does not hold cannot be confirmed: nothing changes', async () => {
    const { shop } = await createShop({ accessTokenEnc: null });
    await ownData(shop.id);
    const before = await holdings(shop.id, shop.domain);
    const body = { id: 1, domain: shop.domain, myshopify_domain: shop.domain };
    expect(await outcomeOf(deliverWebhook('app/uninstalled', shop.domain, body, { triggeredAt: null }))).toBe('queued');
    await queue.drain();
    expect(await holdings(shop.id, shop.domain)).toEqual(before);
  });

  it('uninstall, reinstall, uninstall again: the second uninstall (same body, new install) is acted on', async () => {
    const { emu, shopId } = await installedShop();
    const first = await uninstall(emu);
    await reinstall(emu);
    const second = await uninstall(emu);
    expect(second.body).toBe(first.body); // the Shop resource did not change between the two
    expect((await holdings(shopId, emu.domain)).grant).toMatchObject({ accessTokenEnc: null });
  });

  it('transient failures (503, 429 from Shopify) are retried, never taken for an answer', async () => {
    const { emu, shopId } = await installedShop();
    const before = await holdings(shopId, emu.domain);
    await emu.uninstall();
    await sendPending(emu, 'app/uninstalled');
    const [m] = queue.sent.splice(0);
    const messageOf = (x: WebhookWorkMessage | undefined) => x!;

    await emu.injectFault({ target: 'graphql', status: 503, times: 3 });
    const first = await consumeWebhookMessages([messageOf(m)], 1);
    expect(first.retryMessages).toHaveLength(1);
    expect(await holdings(shopId, emu.domain)).toEqual(before);

    await emu.injectFault({ target: 'graphql', status: 429, times: 3, retryAfter: 0.05 });
    const second = await consumeWebhookMessages([messageOf(m)], 2);
    expect(second.retryMessages).toHaveLength(1);
    expect(await holdings(shopId, emu.domain)).toEqual(before);

    // Shopify answers again: the token is refused, the uninstall is confirmed.
    expect((await consumeWebhookMessages([messageOf(m)], 3)).explicitAcks).toHaveLength(1);
    expect((await holdings(shopId, emu.domain)).grant).toMatchObject({ accessTokenEnc: null, refreshTokenEnc: null });
  }, 20_000);

  it('a transient failure while the app is installed changes nothing either, and the retry then finds the token accepted', async () => {
    const { emu, shopId } = await installedShop();
    const body = await emu.triggerWebhook('app/uninstalled');
    const before = await holdings(shopId, emu.domain);
    expect(await outcomeOf(post(body, { triggeredAt: null }))).toBe('queued');
    const [m] = queue.sent.splice(0);
    await emu.injectFault({ target: 'graphql', status: 502, times: 3 });
    expect((await consumeWebhookMessages([m!], 1)).retryMessages).toHaveLength(1);
    expect((await consumeWebhookMessages([m!], 2)).explicitAcks).toHaveLength(1);
    expect(await holdings(shopId, emu.domain)).toEqual(before);
  }, 20_000);
});

describe('shop/redact acts only 48 hours or more after the confirmed uninstall', () => {
  it("genuine: Shopify's shop/redact 48 hours after the real uninstall removes every R2 object and row of the shop", async () => {
    const { emu, shopId } = await installedShop();
    const { shopId: otherId, emu: other } = await installedShop();
    await uninstall(emu);
    const confirmedAt = (await findShopByDomain(db(), emu.domain))!.uninstalledAt!;
    await emu.triggerWebhook('shop/redact');
    await sendPending(emu, 'shop/redact');
    expect(await consumeAt(confirmedAt + SHOP_REDACT_AFTER_MS)).toEqual(['done']);
    expect(await holdings(shopId, emu.domain)).toEqual({
      grant: undefined,
      adminTokens: [],
      objects: [],
      items: 0,
      images: 0,
      jobs: [],
    });
    // Another shop keeps everything.
    expect((await holdings(otherId, other.domain)).objects).toHaveLength(KINDS.length);
  });

  it('one that arrives a little early (our confirmation lagged Shopify) waits in the queue until 48 hours have passed', async () => {
    const { emu, shopId } = await installedShop();
    await uninstall(emu);
    const confirmedAt = (await findShopByDomain(db(), emu.domain))!.uninstalledAt!;
    const before = await holdings(shopId, emu.domain);
    await emu.triggerWebhook('shop/redact');
    const [d] = await sendPending(emu, 'shop/redact');
    const [m] = [...queue.sent];
    expect(await consumeAt(confirmedAt + SHOP_REDACT_AFTER_MS - 3 * HOUR)).toEqual([{ laterSeconds: 3 * 3600 }]);
    expect(await holdings(shopId, emu.domain)).toEqual(before);
    // Meanwhile Shopify's retry of it, or a replay, is a duplicate of the waiting delivery.
    expect(await outcomeOf(post(d!, { triggeredAt: null }))).toBe('duplicate');
    expect(await runWebhookWork(env, db(), m!, log, confirmedAt + SHOP_REDACT_AFTER_MS)).toBe('done');
    expect((await holdings(shopId, emu.domain)).objects).toEqual([]);
  });

  it('the delayed retry goes back to the queue with that delay (Cloudflare delays a message by 12 hours at most)', async () => {
    const { shop } = await createShop({ uninstalledAt: Date.now() - SHOP_REDACT_AFTER_MS + 2 * HOUR });
    expect(await outcomeOf(deliverWebhook('shop/redact', shop.domain, { shop_id: 1, shop_domain: shop.domain }))).toBe('queued');
    const batch = createMessageBatch(
      WEBHOOK_QUEUE_NAME,
      queue.sent.splice(0).map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body })),
    );
    const retry = vi.spyOn(batch.messages[0]!, 'retry');
    const logged = vi.spyOn(console, 'log');
    await handleWebhookBatch(batch, env);
    expect(retry).toHaveBeenCalledOnce();
    const delay = retry.mock.calls[0]![0]!.delaySeconds!;
    expect(delay).toBeGreaterThan(2 * 3600 - 60);
    expect(delay).toBeLessThanOrEqual(2 * 3600);
    expect(SHOP_REDACT_WAIT_MAX_MS).toBeLessThanOrEqual(12 * HOUR);
    // The log says why.
    const line = logged.mock.calls
      .map((c) => JSON.parse(String(c[0])) as Record<string, unknown>)
      .find((l) => l.event === 'compliance_shop_redact_deferred');
    expect(line).toMatchObject({ reason: 'uninstall confirmed less than 48 hours ago', shop: shop.domain });
    expect(await findShopByDomain(db(), shop.domain)).toBeTruthy();
  });

  it("the issue's attack: an old signed shop/redact replayed (new id, no Triggered-At) for a live shop, after reinstall, and soon after a new uninstall, changes nothing", async () => {
    const { emu, shopId } = await installedShop();
    // A shop/redact body captured from an earlier life of the shop (Shopify's body never changes).
    const captured = await emu.triggerWebhook('shop/redact');
    await emu.ackWebhook(captured.id);

    // 1. The shop is installed.
    let before = await holdings(shopId, emu.domain);
    expect(await outcomeOf(post(captured, { triggeredAt: null }))).toBe('queued');
    await queue.drain();
    expect(await holdings(shopId, emu.domain)).toEqual(before);

    // 2. Uninstalled (confirmed) and reinstalled within 48 hours: the replay comes days later.
    await uninstall(emu);
    const firstUninstall = (await findShopByDomain(db(), emu.domain))!.uninstalledAt!;
    await reinstall(emu);
    before = await holdings(shopId, emu.domain);
    expect(await outcomeOf(post(captured, { triggeredAt: null }))).toBe('queued');
    expect(await consumeAt(firstUninstall + 5 * 24 * HOUR)).toEqual(['done']);
    expect(await holdings(shopId, emu.domain)).toEqual(before);

    // 3. Uninstalled again: the 48 hours count from the newest confirmed uninstall, not the first.
    await uninstall(emu);
    const newest = (await findShopByDomain(db(), emu.domain))!.uninstalledAt!;
    before = await holdings(shopId, emu.domain);
    expect(await outcomeOf(post(captured, { triggeredAt: null }))).toBe('queued');
    expect(await consumeAt(newest + HOUR)).toEqual(['done']); // refused: 47 hours early
    expect(await holdings(shopId, emu.domain)).toEqual(before);
    // It left no record, so Shopify's own shop/redact, 48 hours on, is not taken for a duplicate.
    expect(await outcomeOf(post(captured, { triggeredAt: null }))).toBe('queued');
    expect(await consumeAt(newest + SHOP_REDACT_AFTER_MS)).toEqual(['done']);
    expect((await holdings(shopId, emu.domain)).objects).toEqual([]);
    expect(await findShopByDomain(db(), emu.domain)).toBeUndefined();

    // 4. After the redaction the same body changes nothing (there is nothing left).
    expect(await outcomeOf(post(captured, { triggeredAt: null }))).toBe('queued');
    expect(await consumeAt(newest + 10 * SHOP_REDACT_AFTER_MS)).toEqual(['done']);
  });

  it('a shop whose uninstall was never confirmed (Shopify accepted the token) is never redacted', async () => {
    const { emu, shopId } = await installedShop();
    const bogus = await emu.triggerWebhook('app/uninstalled');
    await post(bogus, { triggeredAt: null });
    await queue.drain();
    const before = await holdings(shopId, emu.domain);
    const redact = await emu.triggerWebhook('shop/redact');
    expect(await outcomeOf(post(redact, { triggeredAt: null }))).toBe('queued');
    expect(await consumeAt(Date.now() + 30 * 24 * HOUR)).toEqual(['done']);
    expect(await holdings(shopId, emu.domain)).toEqual(before);
  });
});

describe('deliveries are recognised by what is signed', () => {
  it('a shop/update body replayed under a new id after a later change is a duplicate: the newer details stay', async () => {
    const { shop } = await createShop();
    const one = { id: 1, myshopify_domain: shop.domain, name: 'One', updated_at: '2026-11-27T10:00:00Z' };
    const two = { id: 1, myshopify_domain: shop.domain, name: 'Two', updated_at: '2026-11-27T11:00:00Z' };
    expect(await outcomeOf(deliverWebhook('shop/update', shop.domain, one))).toBe('processed');
    expect(await outcomeOf(deliverWebhook('shop/update', shop.domain, two))).toBe('processed');
    expect(await outcomeOf(deliverWebhook('shop/update', shop.domain, one, { triggeredAt: null }))).toBe('duplicate');
    expect((await findShopByDomain(db(), shop.domain))!.name).toBe('Two');
    // The record is a keyed hash of the body and keeps no shop domain (it may outlive shop/redact).
    const records = await db().select().from(processedWebhooks).where(eq(processedWebhooks.topic, 'shop/update')).all();
    const mine = records.filter((r) => r.webhookId.startsWith(BODY_KEY_PREFIX));
    expect(mine.length).toBeGreaterThanOrEqual(2);
    for (const r of mine) {
      expect(r.shopDomain).toBe('');
      expect(r.webhookId).not.toContain(shop.domain);
    }
  });

  it('body keys are kept far longer than webhook ids', async () => {
    const now = Date.now();
    const day = 24 * HOUR;
    await db()
      .insert(processedWebhooks)
      .values([
        { webhookId: 'id-old', shopDomain: 'x.myshopify.com', topic: 'products/update', receivedAt: now - 4 * day },
        { webhookId: `${BODY_KEY_PREFIX}kept`, shopDomain: '', topic: 'shop/update', receivedAt: now - 300 * day },
        { webhookId: `${BODY_KEY_PREFIX}gone`, shopDomain: '', topic: 'shop/update', receivedAt: now - 401 * day },
      ]);
    await pruneProcessedWebhooks(db(), now - 3 * day, {
      keyPrefix: BODY_KEY_PREFIX,
      before: now - WEBHOOK_BODY_KEY_RETENTION_MS,
    });
    const left = (await db().select().from(processedWebhooks).all()).map((r) => r.webhookId);
    expect(left).toContain(`${BODY_KEY_PREFIX}kept`);
    expect(left).not.toContain(`${BODY_KEY_PREFIX}gone`);
    expect(left).not.toContain('id-old');
  });
});
