// Issue 25: abuse, round two (quotas, allowances, re-authorisation and money actions). One block per item;
// each block has a test that fails with its change's lines reverted (checked item by item); the tests
// beside them (a first optimisation takes nothing, a well-formed form is still read, a resumed run is
// charged once) guard what must keep working. Items 9 and 10 are held in tests/admin/admin-tokens.test.tsx,
// tests/worker/shopify/document.test.ts and the embedded journey. Numbers come from worker/lib/limits.ts.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { quotaStatus } from '../../../worker/billing';
import { currentPeriodStart } from '../../../worker/billing/cycle';
import { canDiscount } from '../../../worker/billing/discount';
import {
  adminTokens,
  images,
  items,
  jobImages,
  jobs,
  redactedShops,
  shopAllowances,
  shops,
  usageLedger,
} from '../../../worker/db/schema';
import { startOfUtcDay } from '../../../worker/billing/cycle';
import { sweepExpiredCredentialsTask } from '../../../worker/jobs/sweeps';
import {
  ENDED_JOBS_KEPT_MS,
  MAX_QUEUED_IMAGES_PER_SHOP,
  MSG_QUEUE_BUSY,
  MSG_REOPTIMISE_ALLOWANCE,
  REOPTIMISE_IMAGES_PER_DAY,
} from '../../../worker/lib/limits';
import { findShopByDomain, findShopById, markShopUninstalled } from '../../../worker/db/shops';
import { createEmulatorShop } from '../emulator-client';
import { installedShopFor } from '../installed-shop';
import { runWebhookWork } from '../../../worker/webhooks/consumer';
import type { WebhookWorkMessage } from '../../../worker/messages/shopify-webhook';
import { randomToken, sha256Hex } from '../../../worker/lib/crypto';
import { completeInstall } from '../../../worker/install/install';
import { createLogger } from '../../../worker/lib/log';
import { handlers, SHOP_REDACT_AFTER_MS } from '../../../worker/webhooks/handlers';
import { call, createShop, db, sessionHeaders } from '../helpers';
import { signQuery } from '../../../worker/install/oauth';
import { installFakeShopify, shopInfoReply } from '../shopify/fake-shopify';
import { imageRow, ledgerRows, makeDeps, recordingQueue, saveSettings, seedItem } from '../optimise/fixtures';
import { planJob } from '../../../worker/optimise/plan';
import { processDeadLetter, processOptimiseMessage } from '../../../worker/optimise/consumer';
import type { OptimiseMessage } from '../../../worker/messages/optimise';
import { answerOf, apiRoutes, CREDENTIAL_ROUTES, expectRefused, NO_INPUT, shopState } from './fuzz-support';
import { MSG_INPUT_EMPTY } from '../../../shared/image-settings';

afterEach(() => vi.restoreAllMocks());

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const json = async (res: Response) => await res.json<Record<string, unknown>>();
const log = createLogger({ test: 'abuse-two' });

/** n charged images in one statement. */
async function seedLedger(shopId: number, periodStart: number, n: number) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO usage_ledger (shop_id, charge_key, period_start) SELECT ?, 'seed:' || i, ? FROM n`,
  )
    .bind(n, shopId, periodStart)
    .run();
}

function reinstall(domain: string) {
  return completeInstall(env, db(), domain, { access_token: `shpat_${crypto.randomUUID()}`, scope: env.SHOPIFY_SCOPES }, log);
}

describe('1. the free quota and the new-user offer survive shop/redact', () => {
  it('uninstall, shop/redact 48 h later and reinstall: 5 of 150 used stays 5, the offer does not come back', async () => {
    vi.spyOn(env.SYNC_QUEUE, 'send').mockResolvedValue(undefined as never);
    const now = Date.now();
    const periodStart = currentPeriodStart(1, now);
    const installedAt = now - 49 * HOUR - 60_000;
    const { shop } = await createShop({
      billingCycleDay: 1,
      quotaPeriodStart: periodStart,
      installedAt,
      uninstalledAt: now - SHOP_REDACT_AFTER_MS - 60_000,
      accessTokenEnc: null,
    });
    await seedLedger(shop.id, periodStart, 5);
    expect(canDiscount(shop, now)).toBe(true); // the offer runs 72 h from the install

    await handlers['shop/redact']!(
      env,
      db(),
      shop,
      { topic: 'shop/redact', shopDomain: shop.domain, webhookId: 'r1', payload: {} },
      log,
      now,
    );
    expect(await findShopByDomain(db(), shop.domain)).toBeUndefined();
    // What is kept names no shop: a keyed hash, the numbers, nothing else.
    const kept = await db().select().from(redactedShops).all();
    expect(JSON.stringify(kept)).not.toContain(shop.domain.split('.')[0]);

    await reinstall(shop.domain);
    const again = (await findShopByDomain(db(), shop.domain))!;
    expect(again.id).not.toBe(shop.id);
    expect(await quotaStatus(db(), again, now)).toMatchObject({ used: 5, left: 145 });
    // The offer ends when the first install's did (72 h after it), not 72 h after the reinstall.
    expect(again.discountExpiresAt).toBe(installedAt + 72 * HOUR);
    expect(canDiscount(again, installedAt + 72 * HOUR + 1)).toBe(false);
  });

  it('a plain uninstall and reinstall does not start a new 72-hour offer either', async () => {
    vi.spyOn(env.SYNC_QUEUE, 'send').mockResolvedValue(undefined as never);
    const installedAt = Date.now() - 100 * HOUR;
    const { shop } = await createShop({ installedAt, uninstalledAt: Date.now() - HOUR, accessTokenEnc: null });
    expect(canDiscount(shop, Date.now())).toBe(false);
    await reinstall(shop.domain);
    const again = (await findShopByDomain(db(), shop.domain))!;
    expect(canDiscount(again, Date.now())).toBe(false);
  });

  it('a redacted shop whose period ended starts the current period of its cycle day with nothing used', async () => {
    vi.spyOn(env.SYNC_QUEUE, 'send').mockResolvedValue(undefined as never);
    const now = Date.now();
    const old = currentPeriodStart(1, now) - 40 * 24 * HOUR;
    const { shop } = await createShop({
      billingCycleDay: 1,
      quotaPeriodStart: old,
      installedAt: old,
      uninstalledAt: now - SHOP_REDACT_AFTER_MS - 60_000,
      accessTokenEnc: null,
    });
    await seedLedger(shop.id, old, 150);
    await handlers['shop/redact']!(
      env,
      db(),
      shop,
      { topic: 'shop/redact', shopDomain: shop.domain, webhookId: 'r2', payload: {} },
      log,
      now,
    );
    await reinstall(shop.domain);
    const again = (await findShopByDomain(db(), shop.domain))!;
    expect(again.billingCycleDay).toBe(1);
    expect(await quotaStatus(db(), again, now)).toMatchObject({ used: 0, left: 150 });
    // The kept usage sits in its own (ended) period.
    const rows = await db().select().from(usageLedger).where(eq(usageLedger.shopId, again.id)).all();
    expect(rows.every((r) => r.periodStart === old)).toBe(true);
  });
});

describe('2. fair share: every image optimised again counts, every job waits its turn, jobs do not pile up', () => {
  /** An item with one image in `status`, charged before when `charged` (its ledger row exists). */
  async function itemWith(shopId: number, status: 'restored' | 'pending', charged: boolean) {
    const item = await db()
      .insert(items)
      .values({ shopId, dataType: 1, resourceId: crypto.randomUUID(), title: 'Shirt' })
      .returning()
      .get();
    const image = await db()
      .insert(images)
      .values({
        shopId,
        itemId: item.id,
        imgId: `gid://shopify/MediaImage/${item.id}`,
        status,
        originalKey: status === 'restored' ? 'originals/x' : null,
        expiresAt: Date.now() + DAY,
      })
      .returning()
      .get();
    if (charged)
      await db()
        .insert(usageLedger)
        .values({ shopId, chargeKey: `image:${image.id}`, imageId: image.id, periodStart: 0 });
    return item;
  }

  const optimiseAgain = (headers: Record<string, string>, itemId: number) =>
    call('/api/v2/image-opt/reOptimize', {
      method: 'POST',
      headers,
      json: { data_type: 1, page_type: 1, data_list: [{ data_id: itemId }] },
    });

  it('optimising a restored, already-charged image (reOptimize page_type 1) takes from the daily re-optimise allowance', async () => {
    vi.spyOn(env.OPTIMISE_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);
    const { shop, headers } = await createShop();
    const item = await itemWith(shop.id, 'restored', true);
    const day = startOfUtcDay(Date.now());
    expect((await optimiseAgain(headers, item.id)).status).toBe(200);
    const taken = await db().select().from(shopAllowances).where(eq(shopAllowances.shopId, shop.id)).all();
    expect(taken).toEqual([{ shopId: shop.id, kind: 'reoptimise', windowStart: day, used: 1 }]);

    // With the allowance used up the same loop is refused, and no job is planned.
    await db().update(shopAllowances).set({ used: REOPTIMISE_IMAGES_PER_DAY }).where(eq(shopAllowances.shopId, shop.id));
    await db().delete(jobImages).where(eq(jobImages.shopId, shop.id));
    await db().delete(jobs).where(eq(jobs.shopId, shop.id));
    const res = await optimiseAgain(headers, item.id);
    expect(res.status).toBe(429);
    expect(await json(res)).toMatchObject({
      ack: 0,
      message: MSG_REOPTIMISE_ALLOWANCE,
      message_key: 'server.limits.reoptimiseAllowance',
    });
    expect(await db().select().from(jobs).where(eq(jobs.shopId, shop.id)).all()).toEqual([]);
  });

  it('a first optimisation (never charged) takes nothing from the re-optimise allowance', async () => {
    vi.spyOn(env.OPTIMISE_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);
    const { shop, headers } = await createShop();
    const item = await itemWith(shop.id, 'pending', false);
    expect((await optimiseAgain(headers, item.id)).status).toBe(200);
    expect(await db().select().from(shopAllowances).where(eq(shopAllowances.shopId, shop.id)).all()).toEqual([]);
  });

  it('a plain optimisation waits for the queue share too: MAX_QUEUED_IMAGES_PER_SHOP waiting refuses it', async () => {
    vi.spyOn(env.OPTIMISE_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);
    const { shop, headers } = await createShop();
    const item = await itemWith(shop.id, 'pending', false);
    const busy = await db()
      .insert(items)
      .values({ shopId: shop.id, dataType: 1, resourceId: 'busy', title: 'Busy' })
      .returning()
      .get();
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO images (shop_id, opt_id, img_id, status) SELECT ?, ?, 'busy:' || i, 'processing' FROM n`,
    )
      .bind(MAX_QUEUED_IMAGES_PER_SHOP, shop.id, busy.id)
      .run();
    await db()
      .insert(jobs)
      .values({ id: `busy-${shop.id}`, shopId: shop.id, dataType: 1, processType: 'optimize', status: 'running' });
    await env.DB.prepare(
      `INSERT INTO job_images (job_id, image_id, opt_id, shop_id) SELECT ?, id, opt_id, shop_id FROM images WHERE opt_id = ?`,
    )
      .bind(`busy-${shop.id}`, busy.id)
      .run();
    const res = await optimiseAgain(headers, item.id);
    expect(res.status).toBe(429);
    expect(await json(res)).toEqual({ ack: 0, message: MSG_QUEUE_BUSY, message_key: 'server.limits.queueBusy', params: {} });
    expect((await db().select().from(jobs).where(eq(jobs.shopId, shop.id)).all()).map((j) => j.id)).toEqual([`busy-${shop.id}`]);
  });

  it('the daily sweep deletes jobs that ended more than ENDED_JOBS_KEPT_MS ago, with their job_images; others stay', async () => {
    const { shop } = await createShop();
    const item = await itemWith(shop.id, 'pending', false);
    const image = (await db().select().from(images).where(eq(images.itemId, item.id)).get())!;
    const now = Date.now();
    const rows = [
      { id: `old-done-${shop.id}`, status: 'done', finishedAt: now - ENDED_JOBS_KEPT_MS - 1 },
      { id: `old-stopped-${shop.id}`, status: 'stopped', finishedAt: now - ENDED_JOBS_KEPT_MS - DAY },
      { id: `recent-${shop.id}`, status: 'done', finishedAt: now - ENDED_JOBS_KEPT_MS + HOUR },
      { id: `running-${shop.id}`, status: 'running', finishedAt: null },
    ];
    for (const r of rows) {
      await db()
        .insert(jobs)
        .values({ ...r, shopId: shop.id, dataType: 1, processType: 'optimize' });
      await db().insert(jobImages).values({ jobId: r.id, imageId: image.id, itemId: item.id, shopId: shop.id, status: 'done' });
    }
    await sweepExpiredCredentialsTask({ scheduledTime: now } as ScheduledController, env);
    const left = (await db().select().from(jobs).where(eq(jobs.shopId, shop.id)).all()).map((j) => j.id).sort();
    expect(left).toEqual([`recent-${shop.id}`, `running-${shop.id}`].sort());
    const members = (await db().select().from(jobImages).where(eq(jobImages.shopId, shop.id)).all()).map((j) => j.jobId).sort();
    expect(members).toEqual(left);
  });
});

describe('3. nobody can break a merchant re-authorisation', () => {
  const nowTs = () => String(Math.floor(Date.now() / 1000));
  async function signed(params: Record<string, string>): Promise<string> {
    const q = new URLSearchParams(params);
    q.set('hmac', await signQuery(q, env.SHOPIFY_API_SECRET));
    return q.toString();
  }
  const stateOf = (res: Response) => new URL(res.headers.get('Location')!).searchParams.get('state')!;

  it('anonymous reShopifyAuthor calls for a known shop evict neither its re-authorisation nor its install state', async () => {
    const fake = installFakeShopify({ graphql: () => shopInfoReply() });
    vi.spyOn(env.SYNC_QUEUE, 'send').mockResolvedValue(undefined as never);
    try {
      const { shop } = await createShop({ oldInstall: true, accessTokenEnc: 'x', scopes: 'read_products' });
      // The merchant starts re-authorising (the "Authorise app" action) and, in another tab, the install landing.
      const mine = stateOf(await call(`/shopify/reShopifyAuthor?shop=${shop.domain}`, { redirect: 'manual' }));
      const landing = await (
        await call(`/shopify/app?${await signed({ shop: shop.domain, timestamp: nowTs() })}`)
      ).json<{ url: string }>();
      const installState = new URL(landing.url).searchParams.get('state')!;
      // An attacker who knows the domain calls the public route many times.
      for (let i = 0; i < 12; i++)
        expect((await call(`/shopify/reShopifyAuthor?shop=${shop.domain}`, { redirect: 'manual' })).status).toBe(302);

      const callback = async (state: string, code: string) =>
        call(`/shopify/callback?${await signed({ code, shop: shop.domain, state, timestamp: nowTs() })}`, { redirect: 'manual' });
      expect((await callback(mine, 'c1')).status).toBe(302);
      expect((await callback(installState, 'c2')).status).toBe(302);
      // A signed state is single use; one for another shop, or altered, is refused.
      const replay = await callback(mine, 'c3');
      expect(replay.status).toBe(401);
      expect(await json(replay)).toMatchObject({ message_key: 'server.auth.invalidOAuthState' });
      const { shop: other } = await createShop();
      const foreign = stateOf(await call(`/shopify/reShopifyAuthor?shop=${other.domain}`, { redirect: 'manual' }));
      expect((await callback(foreign, 'c4')).status).toBe(401);
      const fresh = stateOf(await call(`/shopify/reShopifyAuthor?shop=${shop.domain}`, { redirect: 'manual' }));
      expect(
        (
          await callback(
            fresh.replace(/~(\d+)~/, (_m, e: string) => `~${Number(e) + 1}~`),
            'c5',
          )
        ).status,
      ).toBe(401);
      expect(fake.stats.code).toBe(2);
    } finally {
      fake.restore();
    }
  });
});

describe('4. a legacy settings save that names nothing changes nothing', () => {
  it('updateAppSettingDataNew with {}, unknown keys or ignored values is refused; the shop stays unconfigured', async () => {
    const { shop, headers } = await createShop();
    await call('/api/v1/getAppSettingData', { headers });
    const before = await shopState(shop.id);
    for (const body of [{}, { unknown: 1 }, { optimize_all_status: '12' }, { compression_type: 'best' }, { JPGquality: 3 }]) {
      const res = await call('/api/v1/updateAppSettingDataNew', { method: 'POST', headers, json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await json(res)).toMatchObject({ msg: MSG_INPUT_EMPTY, message_key: 'server.settings.inputEmpty' });
    }
    expect(await shopState(shop.id)).toBe(before);
    // One named field is a save.
    const ok = await call('/api/v1/updateAppSettingDataNew', { method: 'POST', headers, json: { optimize_all_status: '001' } });
    expect(ok.status).toBe(200);
    expect(await shopState(shop.id)).not.toBe(before);
  });
});

describe("8. money actions and other users' access need a session token", () => {
  const refusedAsAdmin = { message_key: 'server.auth.sessionTokenRequired' };

  it('an admin token cannot switch overcharge on or raise the cap; a session token can switch it on', async () => {
    const { shop, headers } = await createShop({ planLevel: 1, hasUsageCap: true, cappedAmountCents: 9980 });
    const on = { name: 'is_over_quota', st: 1 };
    const res = await call('/api/v2/setting/saveAppSwitch', { method: 'POST', headers, json: on });
    expect(res.status).toBe(401);
    expect(await json(res)).toMatchObject(refusedAsAdmin);
    const raise = await call('/api/v1/raiseOverageCap', { method: 'POST', headers, json: {} });
    expect(raise.status).toBe(401);
    expect((await findShopById(db(), shop.id))!).toMatchObject({ overageEnabled: false, cappedAmountCents: 9980 });
    // Switching it off spends nothing: either credential.
    expect((await call('/api/v2/setting/saveAppSwitch', { method: 'POST', headers, json: { ...on, st: 0 } })).status).toBe(200);
    const signed = await call('/api/v2/setting/saveAppSwitch', {
      method: 'POST',
      headers: await sessionHeaders(shop.domain),
      json: on,
    });
    expect(signed.status).toBe(200);
    expect((await findShopById(db(), shop.id))!.overageEnabled).toBe(true);
  });

  it("an admin token revokes only its own user's tokens; another user's needs a session token", async () => {
    const { shop, headers } = await createShop(); // user 42
    const other = await db()
      .insert(adminTokens)
      .values({ shopId: shop.id, tokenHash: await sha256Hex(randomToken(32)), userId: '77', expiresAt: Date.now() + DAY })
      .returning()
      .get();
    const mineToo = await db()
      .insert(adminTokens)
      .values({ shopId: shop.id, tokenHash: await sha256Hex(randomToken(32)), userId: '42', expiresAt: Date.now() + DAY })
      .returning()
      .get();
    const revoke = (id: number, h: Record<string, string>) =>
      call('/api/v2/setting/revokeAdminToken', { method: 'POST', headers: h, json: { id } });
    const refused = await revoke(other.id, headers);
    expect(refused.status).toBe(401);
    expect(await json(refused)).toMatchObject(refusedAsAdmin);
    const ids = async () => (await db().select().from(adminTokens).where(eq(adminTokens.shopId, shop.id)).all()).map((t) => t.id);
    expect(await ids()).toContain(other.id);
    expect((await revoke(mineToo.id, headers)).status).toBe(200);
    expect((await revoke(other.id, await sessionHeaders(shop.domain))).status).toBe(200);
    expect(await ids()).not.toContain(other.id);
    expect(await ids()).not.toContain(mineToo.id);
  });
});

describe('5. malformed multipart bodies are refused, never a 500', () => {
  const formRoutes = apiRoutes.filter(
    (r) => r.method !== 'GET' && !NO_INPUT.has(`${r.method} ${r.path}`) && !CREDENTIAL_ROUTES.has(`${r.method} ${r.path}`),
  );

  it('every route that reads a form answers 400 to a multipart body without a boundary or cut short; nothing changes', async () => {
    expect(formRoutes.length).toBeGreaterThanOrEqual(16);
    const { shop, headers } = await createShop();
    const before = await shopState(shop.id);
    const bodies = [
      { type: 'multipart/form-data', body: 'a=1' },
      { type: 'multipart/form-data; boundary=XyZ', body: '--XyZ\r\nContent-Disposition: form-data; name="data_type"\r\n\r\n1' },
      { type: 'multipart/form-data; boundary=XyZ', body: 'no parts at all' },
    ];
    for (const r of formRoutes)
      for (const b of bodies) {
        const a = await answerOf(
          await call(r.path, { method: r.method, headers: { ...headers, 'Content-Type': b.type }, body: b.body }),
        );
        expectRefused(a, `${r.method} ${r.path} ${b.type}`);
        expect(a.status, `${r.method} ${r.path}`).toBeLessThan(500);
      }
    expect(await shopState(shop.id)).toBe(before);
  });

  it('a well-formed multipart form is still read', async () => {
    const { headers } = await createShop();
    const form = new FormData();
    form.set('Language', 'fr');
    const res = await call('/api/v1/updateLanguage', { method: 'POST', headers, body: form });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ language: 'fr' });
  });
});

describe('6. updateCustomerClick keeps any value as its text', () => {
  it('an object value whose toString is not a function is stored as its JSON, not a 500', async () => {
    const { headers } = await createShop();
    const res = await call('/api/v1/updateCustomerClick', {
      method: 'POST',
      headers,
      json: { key: 'promo', value: { toString: 1 } },
    });
    expect(res.status).toBe(200);
    const kept = (await json(await call('/api/v1/getUserSelectData', { headers }))).data as Record<string, string>;
    expect(kept.promo).toBe('{"toString":1}');
    const long = await call('/api/v1/updateCustomerClick', {
      method: 'POST',
      headers,
      json: { key: 'promo', value: { a: 'x'.repeat(600) } },
    });
    expect(long.status).toBe(400);
  });
});

describe('11. an image Shopify took is charged, even after its job failed', () => {
  /** An image whose job failed after Shopify accepted our result: Shopify serves it, the slot went back. */
  async function failedAfterAccept() {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    const { item, images: rows } = await seedItem(shop, fakes.cdn);
    const optimise = async () => {
      const q = recordingQueue();
      const plan = { db: deps.db, queue: q.queue, log: deps.log, now: deps.now, canOptimise: deps.quota.canOptimise };
      await planJob(plan, {
        shop,
        dataType: 1,
        processType: 'optimize',
        pageType: 1,
        pattern: 'manual',
        selection: { itemIds: [item.id] },
      });
      return q.sent[0] as OptimiseMessage;
    };
    // Shopify accepts the new file, then the worker dies before hearing back; every retry then fails to
    // read what Shopify serves and Shopify refuses the upload again (503), and the job gives up.
    fakes.faults.failAfterAccept = 1;
    const m = await optimise();
    await processOptimiseMessage(deps, m, 1);
    fakes.faults.failFetches = 100;
    fakes.faults.failNextUpdates = 100;
    for (let attempt = 2; attempt <= 6; attempt++) await processOptimiseMessage(deps, m, attempt);
    await processDeadLetter(deps, m);
    expect((await imageRow(rows[0]!.id))!.status).toBe('failed');
    const failed = (await imageRow(rows[0]!.id))!;
    expect(fakes.cdn.get(rows[0]!.src)!.byteLength).toBeLessThan(4000); // Shopify serves our smaller result
    expect(failed.step).toBe('replacing');
    expect(await ledgerRows(shop.id)).toEqual([]); // the slot went back when the job failed

    fakes.faults.failFetches = 0;
    fakes.faults.failNextUpdates = 0;
    return { deps, fakes, shop, image: rows[0]!, optimise };
  }

  it('failed after Shopify accepted the file (slot returned): a later optimise resumes, finds it there and charges it once', async () => {
    const { shop, image, optimise, deps } = await failedAfterAccept();
    const again = await optimise();
    expect((await processOptimiseMessage(deps, again, 1)).ack).toBe(true);
    expect((await imageRow(image.id))!.status).toBe('compressed');
    expect((await ledgerRows(shop.id)).filter((r) => r.imageId === image.id)).toHaveLength(1);
  });

  it('a later optimise that starts afresh and recognises our result on Shopify (own output) charges it too', async () => {
    const { shop, image, optimise, deps } = await failedAfterAccept();
    // The row no longer points at a step to resume (a run that starts from what Shopify serves).
    await db().update(images).set({ step: null }).where(eq(images.id, image.id));
    const again = await optimise();
    expect((await processOptimiseMessage(deps, again, 1)).ack).toBe(true);
    expect((await imageRow(image.id))!.status).toBe('compressed');
    expect((await ledgerRows(shop.id)).filter((r) => r.imageId === image.id)).toHaveLength(1);
  });
});

describe('7. the overcharge opt-in ends with the install', () => {
  it('a confirmed uninstall clears overcharge and its cap; the reinstalled shop starts with overcharge off', async () => {
    vi.spyOn(env.SYNC_QUEUE, 'send').mockResolvedValue(undefined as never);
    const { shop } = await createShop({
      planLevel: 2,
      overageEnabled: true,
      hasUsageCap: true,
      cappedAmountCents: 9980,
      testChargesOnly: true, // Shopify once refused a real charge (an app-review store)
      accessTokenEnc: 'x',
    });
    expect(await markShopUninstalled(db(), shop.id, Date.now(), 'x')).toBe(true);
    // The next install learns again from Shopify whether it may only make test charges.
    expect((await findShopById(db(), shop.id))!).toMatchObject({
      overageEnabled: false,
      hasUsageCap: false,
      cappedAmountCents: 0,
      testChargesOnly: false,
    });
    await reinstall(shop.domain);
    const account = await call('/api/v2/setting/getAccount', { headers: await sessionHeaders(shop.domain) });
    expect((await json(account)).data).toMatchObject({ is_over_quota: 0, is_capped: 0, shop_level: 0 });
  });
});

describe('12. a development store that becomes a paying store is checked again', () => {
  const PRODUCTION = { ...env, BILLING_TEST_CHARGES: 'false' };

  it('shop/update with a paying plan clears the test-only marks and re-checks the subscription: the test plan stops counting', async () => {
    const emu = await createEmulatorShop({ seed: 'empty', install: true });
    const shop = await installedShopFor(emu);
    // The development store takes plan 2 as a test charge (counts while it is a development store).
    const { app } = await import('../../../worker/app');
    const ctx = createExecutionContext();
    const up = await app.request(
      '/api/v1/changePlans',
      {
        method: 'POST',
        headers: { ...(await sessionHeaders(emu.domain)), 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'newLevel=2',
      },
      PRODUCTION,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const url = (await up.json<{ url: string }>()).url;
    const approved = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'decision=approve',
      redirect: 'manual',
    });
    const back = new URL(approved.headers.get('Location')!);
    const ctx2 = createExecutionContext();
    await app.request(back.pathname + back.search, { redirect: 'manual' }, PRODUCTION, ctx2);
    await waitOnExecutionContext(ctx2);
    expect((await findShopById(db(), shop.id))!).toMatchObject({ planLevel: 2, isDevelopmentStore: true });

    // It was also marked test-only (Shopify refused a real charge while it was a development store).
    await db().update(shops).set({ testChargesOnly: true }).where(eq(shops.id, shop.id));
    // The store moves to a paid Shopify plan; Shopify sends shop/update.
    await emu.update({ partnerDevelopment: false, planName: 'Basic' });
    const sent: WebhookWorkMessage[] = [];
    const queue = { send: async (m: WebhookWorkMessage) => void sent.push(m) } as unknown as Queue;
    const current = (await findShopById(db(), shop.id))!;
    await handlers['shop/update']!(
      { ...PRODUCTION, WEBHOOK_QUEUE: queue },
      db(),
      current,
      {
        topic: 'shop/update',
        shopDomain: shop.domain,
        webhookId: 'u1',
        payload: { plan_name: 'basic', plan_display_name: 'Basic' },
      },
      log,
      Date.now(),
    );
    expect((await findShopById(db(), shop.id))!).toMatchObject({ isDevelopmentStore: false, testChargesOnly: false });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ topic: 'app_subscriptions/update', shopDomain: shop.domain });
    expect(await runWebhookWork(PRODUCTION, db(), sent[0]!, log)).toBe('done');
    expect((await findShopById(db(), shop.id))!.planLevel).toBe(0);
  });
});
