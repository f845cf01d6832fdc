// Issue 17: money and shared resources stay safe from any one shop or caller. One block per item; each
// assertion failed before the limit existed. Numbers come from worker/lib/limits.ts.
import { env } from 'cloudflare:test';
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { quotaStatus } from '../../../worker/billing';
import { currentPeriodStart } from '../../../worker/billing/cycle';
import { carryUsageToNewPeriod } from '../../../worker/billing/quota';
import { updateShopBilling } from '../../../worker/db/shop-billing';
import {
  adminTokens,
  contactMessages,
  images,
  items,
  jobImages,
  jobs,
  oauthStates,
  pagespeedScores,
  shopAllowances,
  userSelections,
} from '../../../worker/db/schema';
import { findShopById } from '../../../worker/db/shops';
import { sweepOAuthStatesTask } from '../../../worker/jobs/sweeps';
import {
  BODY_LIMITS,
  CONTACT_ROWS_KEPT,
  MAX_QUEUED_IMAGES_PER_SHOP,
  MSG_BODY_TOO_LARGE,
  MSG_PAGESPEED_COOLDOWN,
  MSG_QUEUE_BUSY,
  MSG_REOPTIMISE_ALLOWANCE,
  MSG_TOO_MANY_IDS,
  MSG_TOO_MANY_REQUESTS,
  MSG_UPLOAD_ALLOWANCE,
  PAGESPEED_COOLDOWN_MS,
  PAGESPEED_ROWS_KEPT,
  RATE_LIMITS,
  REOPTIMISE_IMAGES_PER_DAY,
  UPLOADS_PER_DAY,
  USER_SELECTIONS_KEPT,
} from '../../../worker/lib/limits';
import type { OptimiseMessage } from '../../../worker/messages/optimise';
import { processOptimiseMessage } from '../../../worker/optimise/consumer';
import { MSG_UPLOAD_REQUEST_TOO_LARGE } from '../../../worker/optimise/errors';
import { planJob } from '../../../worker/optimise/plan';
import { completeInstall } from '../../../worker/install/install';
import { createLogger } from '../../../worker/lib/log';
import { startOfUtcDay } from '../../../worker/billing/cycle';
import { MSG_INPUT_EMPTY, MSG_WATERMARK_TOO_LARGE } from '../../../shared/image-settings';
import { call, createShop, db, sessionHeaders, sessionToken } from '../helpers';
import { imageRow, ledgerRows, makeDeps, recordingQueue, saveSettings, seedItem } from '../optimise/fixtures';
import { shopState } from './fuzz-support';
import { deliverWebhook } from '../webhooks/webhook-delivery';
import { parse } from 'smol-toml';
import wranglerToml from '../../../wrangler.toml?raw';

afterEach(() => vi.restoreAllMocks());

const DAY = 86_400_000;
const json = async (res: Response) => await res.json<Record<string, unknown>>();

/**
 * Runs `attempt` within one rate-limit window. The windows (Cloudflare's, and Miniflare's:
 * epoch = floor(now / period)) are aligned to the wall clock, so a run that straddles a rollover starts
 * counting again from zero: such a run is repeated once (with fresh clients), and two runs in a row cannot
 * straddle, whatever the machine's load, since each is far shorter than the period.
 */
async function withinOneWindow<T>(periodSeconds: number, attempt: () => Promise<T>): Promise<T> {
  const epoch = () => Math.floor(Date.now() / (periodSeconds * 1000));
  for (let run = 1; ; run++) {
    const before = epoch();
    const result = await attempt();
    if (epoch() === before || run === 2) return result;
  }
}

/** n charged images in one statement (D1 binds at most 100 parameters). */
async function seedLedger(shopId: number, periodStart: number, n: number) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO usage_ledger (shop_id, charge_key, period_start) SELECT ?, 'seed:' || ? || ':' || i, ? FROM n`,
  )
    .bind(n, shopId, periodStart, periodStart)
    .run();
}

describe('quota periods survive reinstalls and plan changes', () => {
  it('uninstalling and reinstalling keeps the cycle day and the period usage (3 used stays 3)', async () => {
    vi.spyOn(env.SYNC_QUEUE, 'send').mockResolvedValue(undefined as never);
    const periodStart = currentPeriodStart(9, Date.now());
    const { shop } = await createShop({
      billingCycleDay: 9,
      quotaPeriodStart: periodStart,
      installedAt: periodStart,
      uninstalledAt: Date.now() - 60_000,
      accessTokenEnc: null,
    });
    await seedLedger(shop.id, periodStart, 3);
    await completeInstall(env, db(), shop.domain, { access_token: 'shpat_reinstall', scope: env.SHOPIFY_SCOPES }, createLogger());
    const again = (await findShopById(db(), shop.id))!;
    expect(again.uninstalledAt).toBeNull();
    expect(again).toMatchObject({ billingCycleDay: 9, quotaPeriodStart: periodStart });
    expect((await quotaStatus(db(), again)).used).toBe(3);
  });

  it('a new subscription within a period carries the period usage over (no quota per rung of the ladder)', async () => {
    const periodStart = currentPeriodStart(3, Date.now());
    const { shop } = await createShop({ billingCycleDay: 3, quotaPeriodStart: periodStart });
    await seedLedger(shop.id, periodStart, 120);
    const now = Date.now();
    await updateShopBilling(db(), shop.id, {
      planLevel: 1,
      quotaPeriodStart: now,
      billingCycleDay: Math.min(new Date(now).getUTCDate(), 28),
    });
    await carryUsageToNewPeriod(db(), shop, now);
    const status = await quotaStatus(db(), (await findShopById(db(), shop.id))!);
    expect(status).toMatchObject({ used: 120, left: 1000 - 120, overageUsed: 0 });
  });
});

describe('the admin token has a lifecycle', () => {
  it('is tied to the issuing user, expires, is listed and revoked in Settings; plan changes need a session token', async () => {
    const { shop, headers } = await createShop({ accessTokenEnc: 'x', scopes: env.SHOPIFY_SCOPES });
    const issued = await json(await call('/api/v1/adminToken', { method: 'POST', headers: await sessionHeaders(shop.domain) }));
    const token = (issued.data as { authToken: string; expires_at: number }).authToken;
    expect((issued.data as { expires_at: number }).expires_at).toBeGreaterThan(Date.now() + 29 * DAY);
    const mine = { Authorization: `Bearer ${token}` };

    const list = (await json(await call('/api/v2/setting/getAdminTokens', { headers: mine }))).data as {
      id: number;
      user_id: string;
      current: boolean;
    }[];
    // One live token per Shopify user: the same user's earlier token (createShop's, user 42) was replaced.
    expect(list).toEqual([expect.objectContaining({ user_id: '42', current: true })]);
    expect((await call('/api/v2/setting/getAccount', { headers })).status).toBe(401);
    const current = list[0]!;

    // Another shop cannot revoke it.
    const other = await createShop();
    expect(
      (await call('/api/v2/setting/revokeAdminToken', { method: 'POST', headers: other.headers, json: { id: current.id } }))
        .status,
    ).toBe(404);
    expect((await call('/api/v2/setting/getAdminTokens', { headers: mine })).status).toBe(200);

    // Plan changes: an admin token is refused.
    const byToken = await call('/api/v1/changePlans', { method: 'POST', headers: mine, form: { newLevel: '1' } });
    expect(byToken.status).toBe(401);
    expect(await json(byToken)).toEqual({
      code: '401',
      msg: 'A session token is required',
      message_key: 'server.auth.sessionTokenRequired',
      params: {},
    });

    // Settings revokes it; it is refused from then on.
    expect(
      (await call('/api/v2/setting/revokeAdminToken', { method: 'POST', headers: mine, json: { id: current.id } })).status,
    ).toBe(200);
    expect((await call('/api/v2/setting/getAdminTokens', { headers: mine })).status).toBe(401);
  });

  it('an expired admin token is refused', async () => {
    const { shop, headers } = await createShop();
    await db()
      .update(adminTokens)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(adminTokens.shopId, shop.id));
    expect((await call('/api/v2/setting/getAccount', { headers })).status).toBe(401);
  });
});

/** A body that fails the test if anyone reads it. */
function unreadableBody(state: { read: boolean }) {
  // highWaterMark 0: nothing is pulled until a reader asks for it.
  return new ReadableStream<Uint8Array>(
    {
      pull() {
        state.read = true;
        throw new Error('the body was read');
      },
    },
    { highWaterMark: 0 },
  );
}

describe('bounded requests', () => {
  const cases = [
    {
      path: '/api/v2/image-opt/saveSettings',
      declared: BODY_LIMITS.json + 1,
      status: 413,
      body: { ack: 0, message: MSG_WATERMARK_TOO_LARGE, message_key: 'server.settings.watermarkTooLarge', params: {} },
    },
    {
      path: '/api/v2/image-opt/restore',
      declared: BODY_LIMITS.json + 1,
      status: 413,
      body: { ack: 0, message: MSG_BODY_TOO_LARGE, message_key: 'server.limits.bodyTooLarge', params: {} },
    },
    {
      path: '/api/v1/insertContactUs',
      declared: 50 * 1024 * 1024,
      status: 413,
      body: { code: '413', msg: MSG_BODY_TOO_LARGE, message_key: 'server.limits.bodyTooLarge', params: {} },
    },
    {
      path: '/api/v2/image-opt/uploadImagesOpt',
      declared: BODY_LIMITS.upload + 1,
      status: 413,
      body: { ack: 0, message: MSG_UPLOAD_REQUEST_TOO_LARGE, message_key: 'server.upload.requestTooLarge', params: {} },
    },
    {
      path: '/webhooks/shopify',
      declared: BODY_LIMITS.webhook + 1,
      status: 413,
      body: { ack: 0, message: MSG_BODY_TOO_LARGE, message_key: 'server.limits.bodyTooLarge', params: {} },
    },
  ];
  it.each(cases)(
    '$path: a declared Content-Length over the limit is refused (413) before a byte is read',
    async ({ path, declared, status, body }) => {
      const { headers } = await createShop();
      const state = { read: false };
      const { app } = await import('../../../worker/app');
      const req = new Request(`https://app.test${path}`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': String(declared) },
        body: unreadableBody(state),
        // @ts-expect-error duplex is required for stream bodies outside browsers
        duplex: 'half',
      });
      const started = performance.now();
      const res = await app.fetch(req, env);
      expect(res.status).toBe(status);
      expect(await res.json()).toEqual(body);
      expect(state.read).toBe(false);
      expect(performance.now() - started).toBeLessThan(500);
    },
  );

  it('a body without Content-Length is counted while it streams and refused past the limit', async () => {
    const { headers } = await createShop();
    const { app } = await import('../../../worker/app');
    let sent = 0;
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        if (sent > 8 * BODY_LIMITS.json) throw new Error('read far past the limit');
        controller.enqueue(chunk);
      },
    });
    const res = await app.fetch(
      new Request('https://app.test/api/v2/image-opt/saveSettings', {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: stream,
        // @ts-expect-error duplex is required for stream bodies outside browsers
        duplex: 'half',
      }),
      env,
    );
    expect(res.status).toBe(413);
    expect(sent).toBeLessThanOrEqual(BODY_LIMITS.json + 2 * chunk.byteLength);
  });

  it('a million image ids are refused in well under a second; 1,000 are planned with a handful of queries', async () => {
    const { shop, headers } = await createShop();
    // 1,000 rows x 1,000 ids: 3.9 MB of JSON, refused by its Content-Length.
    const million = JSON.stringify({
      data_type: 1,
      data_list: Array.from({ length: 1000 }, (_, i) => ({
        data_id: i + 1,
        img_ids: Array.from({ length: 1000 }, (_, k) => k + 1),
      })),
    });
    let started = performance.now();
    const big = await call('/api/v2/image-opt/restore', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: million,
    });
    expect(big.status).toBe(413);
    expect(performance.now() - started).toBeLessThan(1000);

    // Within 1 MB but over the cap (10 rows x 900 ids): refused by the schema, no query about images.
    const before = await shopState(shop.id);
    const over = JSON.stringify({
      data_type: 1,
      data_list: Array.from({ length: 10 }, (_, i) => ({
        data_id: i + 1,
        img_ids: Array.from({ length: 900 }, (_, k) => k + 1),
      })),
    });
    started = performance.now();
    const refused = await call('/api/v2/image-opt/reOptimize', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: over,
    });
    expect(refused.status).toBe(400);
    expect(await json(refused)).toEqual({
      ack: 0,
      message: MSG_TOO_MANY_IDS,
      message_key: 'server.limits.tooManyIds',
      params: {},
    });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await shopState(shop.id)).toBe(before);

    // Exactly at the cap: one SELECT for the images, not one per 90 ids (it was ~12 before).
    const prepare = vi.spyOn(env.DB, 'prepare');
    const atCap = { data_type: 1, data_list: [{ data_id: 1, img_ids: Array.from({ length: 999 }, (_, k) => k + 1) }] };
    const res = await call('/api/v2/image-opt/restore', { method: 'POST', headers, json: atCap });
    expect(res.status).toBe(400); // nothing of this shop matches
    const imageSelects = prepare.mock.calls.filter(([q]) => /from "images"/i.test(String(q)) && /json_each/i.test(String(q)));
    expect(imageSelects).toHaveLength(1);
    expect(prepare.mock.calls.length).toBeLessThan(8);
  });
});

describe('no unauthenticated writes any caller can repeat', () => {
  const statesOf = async (domain: string) =>
    (await db().select().from(oauthStates).where(eq(oauthStates.shopDomain, domain)).all()).length;

  it('reShopifyAuthor for an unknown shop is refused; a known shop or a valid session token is redirected; none writes a row', async () => {
    const unknown = `stranger-${crypto.randomUUID().slice(0, 8)}.myshopify.com`;
    const total = async () =>
      (await db()
        .select({ n: sql<number>`count(*)` })
        .from(oauthStates)
        .get())!.n;
    const before = await total();
    for (let i = 0; i < 20; i++) {
      const res = await call(`/shopify/reShopifyAuthor?shop=${unknown}`, { redirect: 'manual' });
      expect(res.status).toBe(401);
      expect(await json(res)).toEqual({
        code: '401',
        msg: 'Shop is not installed',
        message_key: 'server.auth.shopNotInstalled',
        params: {},
      });
    }
    expect(await total()).toBe(before);

    const signedIn = await call(`/shopify/reShopifyAuthor?shop=${unknown}&id_token=${await sessionToken(unknown)}`, {
      redirect: 'manual',
    });
    expect(signedIn.status).toBe(302);
    // The state is signed, not stored (issue 25, item 3): re-authorisation writes nothing at all.
    expect(await statesOf(unknown)).toBe(0);

    // A known shop: a redirect per call, and still nothing written.
    const { shop } = await createShop({ oldInstall: true });
    for (let i = 0; i < 12; i++)
      expect((await call(`/shopify/reShopifyAuthor?shop=${shop.domain}`, { redirect: 'manual' })).status).toBe(302);
    expect(await statesOf(shop.domain)).toBe(0);
  });

  it('expired OAuth states are swept by the cron, through an index on expires_at', async () => {
    const domain = `sweep-${crypto.randomUUID().slice(0, 8)}.myshopify.com`;
    await db()
      .insert(oauthStates)
      .values([
        { state: `old-${crypto.randomUUID()}`, shopDomain: domain, expiresAt: Date.now() - 1000 },
        { state: `live-${crypto.randomUUID()}`, shopDomain: domain, expiresAt: Date.now() + 600_000 },
      ]);
    await sweepOAuthStatesTask({ scheduledTime: Date.now(), cron: '*/30 * * * *', noRetry() {} }, env);
    const left = await db().select().from(oauthStates).where(eq(oauthStates.shopDomain, domain)).all();
    expect(left.map((s) => s.state.split('-')[0])).toEqual(['live']);
    const plan = await env.DB.prepare('EXPLAIN QUERY PLAN DELETE FROM oauth_states WHERE expires_at < ?').bind(Date.now()).all();
    expect(JSON.stringify(plan.results)).toContain('oauth_states_expires_idx');
  });

  it('/shopify/* is rate-limited per client (Workers rate-limiting binding)', async () => {
    const refused = await withinOneWindow(RATE_LIMITS.shopify.periodSeconds, async () => {
      const ip = `203.0.113.${Math.floor(Math.random() * 200) + 1}`;
      for (let i = 0; i < 80; i++) {
        const res = await call('/shopify/app', { headers: { 'CF-Connecting-IP': ip } });
        if (res.status === 429) return res;
      }
      return undefined;
    });
    expect(refused, 'no 429 within 80 calls').toBeDefined();
    expect(refused!.headers.get('Retry-After')).toBe('60');
    expect(await json(refused!)).toEqual({
      code: '429',
      msg: MSG_TOO_MANY_REQUESTS,
      message_key: 'server.limits.tooManyRequests',
      params: {},
    });
    // Another client is not affected.
    expect((await call('/shopify/app', { headers: { 'CF-Connecting-IP': '198.51.100.7' } })).status).not.toBe(429);
  });

  // 600 calls to the limiter: seconds on a loaded machine, and a run that straddled a window is repeated.
  it(
    '/webhooks counts only refused deliveries: a client over the limit still gets its signed ones through',
    { timeout: 90_000 },
    async () => {
      // Shopify sends every shop's webhooks from a few addresses; a product import is thousands a minute.
      const { shop } = await createShop({ accessTokenEnc: 'enc', name: 'Before' });
      const from = (addr: string) => ({ headers: { 'CF-Connecting-IP': addr } });
      const body = { id: 1, myshopify_domain: shop.domain, name: 'After' };
      const { signed, forged } = await withinOneWindow(RATE_LIMITS.webhooks.periodSeconds, async () => {
        const ip = `192.0.2.${Math.floor(Math.random() * 200) + 1}`;
        for (let i = 0; i < RATE_LIMITS.webhooks.limit; i++) await env.WEBHOOK_RATE_LIMITER.limit({ key: ip });
        return {
          signed: await deliverWebhook('shop/update', shop.domain, body, from(ip)),
          forged: await deliverWebhook(
            'shop/update',
            shop.domain,
            { ...body, name: 'Forged' },
            { ...from(ip), secret: 'not-the-app-secret' },
          ),
        };
      });
      expect(signed.status).toBe(200);
      expect((await findShopById(db(), shop.id))!.name).toBe('After');
      expect(forged.status).toBe(429);
      expect(forged.headers.get('Retry-After')).toBe(String(RATE_LIMITS.webhooks.periodSeconds));
      expect(await json(forged)).toEqual({
        ack: 0,
        message: MSG_TOO_MANY_REQUESTS,
        message_key: 'server.limits.tooManyRequests',
        params: {},
      }); // /webhooks' error envelope
      // A client under the limit is told 401, as before; nothing forged was applied.
      expect(
        (await deliverWebhook('shop/update', shop.domain, body, { ...from('198.51.100.9'), secret: 'not-the-app-secret' }))
          .status,
      ).toBe(401);
      expect((await findShopById(db(), shop.id))!.name).toBe('After');
    },
  );

  it('limits.ts states the rates wrangler.toml configures', () => {
    const configured = (parse(wranglerToml) as { ratelimits: { name: string; simple: { limit: number; period: number } }[] })
      .ratelimits;
    const byName = Object.fromEntries(configured.map((r) => [r.name, { limit: r.simple.limit, periodSeconds: r.simple.period }]));
    expect(byName).toEqual({ SHOPIFY_RATE_LIMITER: RATE_LIMITS.shopify, WEBHOOK_RATE_LIMITER: RATE_LIMITS.webhooks });
  });
});

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('failed uploads do not pile up', () => {
  it('an accepted upload expires like the rest, and counts against the daily allowance', async () => {
    vi.spyOn(env.OPTIMISE_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);
    const { shop, headers } = await createShop();
    const res = await call('/api/v2/image-opt/uploadImagesOpt', {
      method: 'POST',
      headers,
      json: { file_list: [{ name: 'a.png', data: PNG_1PX }] },
    });
    expect(res.status).toBe(200);
    const [row] = await db().select().from(images).where(eq(images.shopId, shop.id)).all();
    expect(row!.expiresAt).toBeGreaterThan(Date.now() + 29 * DAY); // a failed or skipped upload is swept too
    const used = await db()
      .select()
      .from(shopAllowances)
      .where(and(eq(shopAllowances.shopId, shop.id), eq(shopAllowances.kind, 'uploads')))
      .get();
    expect(used).toMatchObject({ used: 1, windowStart: startOfUtcDay(Date.now()) });

    await db().update(shopAllowances).set({ used: UPLOADS_PER_DAY }).where(eq(shopAllowances.shopId, shop.id));
    const before = await shopState(shop.id);
    const refused = await call('/api/v2/image-opt/uploadImagesOpt', {
      method: 'POST',
      headers,
      json: { file_list: [{ name: 'b.png', data: PNG_1PX }] },
    });
    expect(refused.status).toBe(429);
    expect(await json(refused)).toEqual({
      ack: 0,
      message: MSG_UPLOAD_ALLOWANCE,
      message_key: 'server.limits.uploadAllowance',
      params: {},
    });
    expect(await shopState(shop.id)).toBe(before);
  });
});

describe('per-shop fairness', () => {
  it('a second PageSpeed recheck within the cooldown is refused; after it, one starts', async () => {
    vi.spyOn(env.PAGESPEED_QUEUE, 'send').mockResolvedValue(undefined as never);
    const { shop, headers } = await createShop();
    await db()
      .insert(pagespeedScores)
      .values({
        shopId: shop.id,
        status: 1,
        desktop: 80,
        mobile: 60,
        requestedAt: Date.now() - 60_000,
        completedAt: Date.now() - 30_000,
      });
    const second = await call('/api/v2/home/refreshPageSpeedOnline', { method: 'POST', headers });
    expect(second.status).toBe(429);
    expect(await json(second)).toEqual({
      ack: 0,
      message: MSG_PAGESPEED_COOLDOWN,
      message_key: 'server.limits.pagespeedCooldown',
      params: {},
    });
    await db()
      .update(pagespeedScores)
      .set({ requestedAt: Date.now() - PAGESPEED_COOLDOWN_MS - 1000 })
      .where(eq(pagespeedScores.shopId, shop.id));
    expect((await call('/api/v2/home/refreshPageSpeedOnline', { method: 'POST', headers })).status).toBe(200);
  });

  async function reoptimisable(shopId: number) {
    const item = await db()
      .insert(items)
      .values({ shopId, dataType: 1, resourceId: String(Math.floor(Math.random() * 1e9)), title: 'Shirt' })
      .returning()
      .get();
    await db()
      .insert(images)
      .values({
        shopId,
        itemId: item.id,
        imgId: `gid://shopify/MediaImage/${item.id}`,
        status: 'compressed',
        compressed: true,
        originalKey: 'originals/x',
        expiresAt: Date.now() + DAY,
      });
    return item;
  }

  it('re-optimisation has a per-shop daily allowance', async () => {
    vi.spyOn(env.OPTIMISE_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);
    const { shop, headers } = await createShop();
    const item = await reoptimisable(shop.id);
    await db()
      .insert(shopAllowances)
      .values({ shopId: shop.id, kind: 'reoptimise', windowStart: startOfUtcDay(Date.now()), used: REOPTIMISE_IMAGES_PER_DAY });
    const res = await call('/api/v2/image-opt/reOptimize', {
      method: 'POST',
      headers,
      json: { data_type: 1, data_list: [{ data_id: item.id }] },
    });
    expect(res.status).toBe(429);
    expect(await json(res)).toEqual({
      ack: 0,
      message: MSG_REOPTIMISE_ALLOWANCE,
      message_key: 'server.limits.reoptimiseAllowance',
      params: {},
    });
    expect(await db().select().from(jobs).where(eq(jobs.shopId, shop.id)).all()).toEqual([]);
  });

  it('a shop with a full queue share plans no more restores or re-optimisations', async () => {
    vi.spyOn(env.OPTIMISE_QUEUE, 'sendBatch').mockResolvedValue(undefined as never);
    const { shop, headers } = await createShop();
    const item = await reoptimisable(shop.id);
    // MAX_QUEUED_IMAGES_PER_SHOP images already waiting in one of its jobs (inserted in three statements).
    const busy = await db()
      .insert(items)
      .values({ shopId: shop.id, dataType: 1, resourceId: 'busy', title: 'Busy' })
      .returning()
      .get();
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO images (shop_id, opt_id, img_id, status) SELECT ?, ?, 'busy:' || i, 'pending' FROM n`,
    )
      .bind(MAX_QUEUED_IMAGES_PER_SHOP, shop.id, busy.id)
      .run();
    await db().insert(jobs).values({ id: 'busy-job', shopId: shop.id, dataType: 1, processType: 'optimize', status: 'running' });
    await env.DB.prepare(
      `INSERT INTO job_images (job_id, image_id, opt_id, shop_id) SELECT 'busy-job', id, opt_id, shop_id FROM images WHERE opt_id = ?`,
    )
      .bind(busy.id)
      .run();
    expect(
      (await db()
        .select({ n: sql<number>`count(*)` })
        .from(jobImages)
        .where(eq(jobImages.shopId, shop.id))
        .get())!.n,
    ).toBe(MAX_QUEUED_IMAGES_PER_SHOP);

    const res = await call('/api/v2/image-opt/reOptimize', {
      method: 'POST',
      headers,
      json: { data_type: 1, data_list: [{ data_id: item.id }] },
    });
    expect(res.status).toBe(429);
    expect(await json(res)).toEqual({ ack: 0, message: MSG_QUEUE_BUSY, message_key: 'server.limits.queueBusy', params: {} });
  });

  it('an image that finishes after the quota ran out is not replaced on Shopify (the slot is reserved first)', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    const { item, images: rows } = await seedItem(shop, fakes.cdn);
    const q = recordingQueue();
    await planJob(
      { db: deps.db, queue: q.queue, log: deps.log, now: deps.now, canOptimise: deps.quota.canOptimise },
      { shop, dataType: 1, processType: 'optimize', pageType: 1, pattern: 'manual', selection: { itemIds: [item.id] } },
    );
    // Past the engine's own check, another job takes the last free image of the period.
    const canOptimise = deps.quota.canOptimise;
    deps.quota = {
      ...deps.quota,
      canOptimise: async (s) => {
        const ok = await canOptimise(s);
        await seedLedger(shop.id, shop.quotaPeriodStart, 150);
        return ok;
      },
    };
    await processOptimiseMessage(deps, q.sent[0] as OptimiseMessage, 1);
    expect(fakes.updates).toHaveLength(0); // Shopify still serves the original
    expect((await imageRow(rows[0]!.id))!.status).not.toBe('compressed');
    expect((await ledgerRows(shop.id)).filter((r) => r.imageId === rows[0]!.id)).toEqual([]);
  });
});

describe('bad input changes nothing', () => {
  it('saveSettings with {} is refused and leaves the shop unconfigured', async () => {
    const { shop, headers } = await createShop();
    await call('/api/v2/image-opt/getSettings', { headers });
    const before = await shopState(shop.id);
    for (const body of [{}, { unknown: 1 }]) {
      const res = await call('/api/v2/image-opt/saveSettings', { method: 'POST', headers, json: body });
      expect(res.status).toBe(400);
      expect(await json(res)).toEqual({
        ack: 0,
        message: MSG_INPUT_EMPTY,
        message_key: 'server.settings.inputEmpty',
        params: {},
      });
    }
    expect(await shopState(shop.id)).toBe(before);
  });
});

describe('tables stay bounded', () => {
  // The shop already holds the kept number of rows (seeded in one statement); five more arrive through the
  // API. A test of 105 calls in a row took 20 s on a busy machine and hit the time limit.
  it('contact messages keep the newest per shop, with control characters stripped', async () => {
    const { shop, headers } = await createShop();
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO contact_messages (shop_id, name, title) SELECT ?, 'seed ' || i, 'old' FROM n`,
    )
      .bind(CONTACT_ROWS_KEPT, shop.id)
      .run();
    for (let i = 0; i < 5; i++) {
      await call('/api/v1/insertContactUs', {
        method: 'POST',
        headers,
        form: {
          name: `Ann\u0000\u001b[31m${i}`,
          email: 'ann@example.com',
          title: 'Hi\r\nBcc: x',
          description: `line one\nline two\u0007 ${i}`,
        },
      });
    }
    const rows = await db().select().from(contactMessages).where(eq(contactMessages.shopId, shop.id)).all();
    expect(rows).toHaveLength(CONTACT_ROWS_KEPT);
    // The five oldest went; every message sent through the form stayed.
    expect(rows.filter((r) => r.title === 'old').map((r) => r.name)[0]).toBe('seed 6');
    expect(rows.filter((r) => r.title !== 'old')).toHaveLength(5);
    const last = rows.at(-1)!;
    expect(last).toMatchObject({
      name: 'Ann[31m4',
      title: 'HiBcc: x',
      description: 'line one\nline two 4',
    });
  });

  it('selections keep the most recent keys per shop', async () => {
    const { shop, headers } = await createShop();
    const old = Date.now() - DAY;
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO user_selections (shop_id, key, value, updated_at) SELECT ?, 'seed' || i, '1', ? + i FROM n`,
    )
      .bind(USER_SELECTIONS_KEPT, shop.id, old)
      .run();
    for (let i = 0; i < 5; i++)
      await call('/api/v1/updateCustomerClick', { method: 'POST', headers, form: { key: `k${i}`, value: '1' } });
    const keys = (await db().select().from(userSelections).where(eq(userSelections.shopId, shop.id)).all()).map((r) => r.key);
    expect(keys).toHaveLength(USER_SELECTIONS_KEPT);
    // The five least recently touched keys went; the new ones stayed.
    expect(keys.filter((k) => /^seed[1-5]$/.test(k))).toEqual([]);
    expect(keys).toEqual(expect.arrayContaining(['seed6', 'k0', 'k1', 'k2', 'k3', 'k4']));
  });

  it('PageSpeed rows keep the newest per shop', async () => {
    vi.spyOn(env.PAGESPEED_QUEUE, 'send').mockResolvedValue(undefined as never);
    const { shop, headers } = await createShop();
    const old = Date.now() - DAY;
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO pagespeed_scores (shop_id, status, desktop, mobile, requested_at) SELECT ?, 1, 50, 50, ? + i FROM n`,
    )
      .bind(PAGESPEED_ROWS_KEPT + 10, shop.id, old)
      .run();
    expect((await call('/api/v2/home/refreshPageSpeedOnline', { method: 'POST', headers })).status).toBe(200);
    const rows = await db().select().from(pagespeedScores).where(eq(pagespeedScores.shopId, shop.id)).all();
    expect(rows).toHaveLength(PAGESPEED_ROWS_KEPT);
    expect(rows.some((r) => r.status === 2)).toBe(true); // the new check is one of them
  });
});
