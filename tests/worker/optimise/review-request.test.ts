// Issue 23 point 3: no rating prompt at install; review_tips is set once the shop's first optimisation has
// finished (a job that changed at least one image), never after the merchant gave a score.
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { images, shops } from '../../../worker/db/schema';
import type { OptimiseMessage } from '../../../worker/messages/optimise';
import { recordReviewScore } from '../../../worker/db/review-scores';
import { findShopById, upsertInstalledShop } from '../../../worker/db/shops';
import { processOptimiseMessage } from '../../../worker/optimise/consumer';
import { planJob } from '../../../worker/optimise/plan';
import type { PipelineDeps } from '../../../worker/optimise/ports';
import { call, createShop, db } from '../helpers';
import { makeDeps, recordingQueue, saveSettings, seedItem } from './fixtures';

type Shop = Awaited<ReturnType<typeof createShop>>['shop'];

async function plan(deps: PipelineDeps, shop: Shop, processType: 'optimize' | 'restore', itemIds: number[]) {
  const q = recordingQueue();
  await planJob(
    { db: deps.db, queue: q.queue, log: deps.log, now: deps.now, canOptimise: deps.quota.canOptimise },
    { shop, dataType: 1, processType, pageType: processType === 'optimize' ? 1 : 0, pattern: 'manual', selection: { itemIds } },
  );
  return q.sent as OptimiseMessage[];
}

async function deliver(deps: PipelineDeps, m: OptimiseMessage) {
  for (let attempt = 1; attempt <= 5; attempt++) if ((await processOptimiseMessage(deps, m, attempt)).ack) return;
}

const reviewTips = async (headers: Record<string, string>) =>
  (await (await call('/api/v1/getSettingInfo', { headers })).json<{ data: { review_tips: number } }>()).data.review_tips;

/** A shop as a fresh install leaves it: no rating prompt yet. */
const installedShop = (overrides: Parameters<typeof createShop>[0] = {}) =>
  createShop({ showReviewRequest: false, ...overrides });

describe('review_tips after the first optimisation', { timeout: 60_000 }, () => {
  it('is 0 right after an install', async () => {
    const domain = `review-${Date.now().toString(36)}.myshopify.com`;
    const tokens = {
      accessTokenEnc: 'x',
      accessTokenExpiresAt: null,
      refreshTokenEnc: null,
      refreshTokenExpiresAt: null,
      scopes: '',
    };
    const { shop, freshInstall } = await upsertInstalledShop(db(), domain, tokens);
    expect(freshInstall).toBe(true);
    expect(shop.showReviewRequest).toBe(false);
  });

  it('is set when the first job that changed an image has ended, not while it runs', async () => {
    const { shop, headers } = await installedShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    const { item } = await seedItem(shop, fakes.cdn, { count: 2 });
    const [first, second] = await plan(deps, shop, 'optimize', [item.id]);
    expect(await reviewTips(headers)).toBe(0);
    await deliver(deps, first!);
    expect(await reviewTips(headers)).toBe(0); // one image still waits: the optimisation has not finished
    await deliver(deps, second!);
    expect(await reviewTips(headers)).toBe(1);
  });

  it('is not set by a job that changed nothing (every image already optimal) or by a restore', async () => {
    const { shop, headers } = await installedShop();
    const optimal = makeDeps({ optimal: true });
    await saveSettings(shop.id);
    const { item } = await seedItem(shop, optimal.fakes.cdn);
    for (const m of await plan(optimal.deps, shop, 'optimize', [item.id])) await deliver(optimal.deps, m);
    expect(await reviewTips(headers)).toBe(0);

    // A restore puts originals back: it is no optimisation, whatever it changed.
    const { deps, fakes } = makeDeps();
    const other = await seedItem(shop, fakes.cdn);
    for (const m of await plan(deps, shop, 'optimize', [other.item.id])) await deliver(deps, m);
    expect(await reviewTips(headers)).toBe(1);
    await db().update(shops).set({ showReviewRequest: false }).where(eq(shops.id, shop.id));
    for (const m of await plan(deps, shop, 'restore', [other.item.id])) await deliver(deps, m);
    expect(await reviewTips(headers)).toBe(0);
  });

  it('never comes back once the merchant gave a score (the wizard rating or the banner)', async () => {
    const { shop, headers } = await installedShop();
    await recordReviewScore(db(), shop.id, 5);
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    const { item } = await seedItem(shop, fakes.cdn);
    for (const m of await plan(deps, shop, 'optimize', [item.id])) await deliver(deps, m);
    expect(await reviewTips(headers)).toBe(0);
    expect((await findShopById(db(), shop.id))?.reviewScore).toBe(5);
  });
});

describe('migration 0012: existing shops', () => {
  it('stops asking shops that never had an image optimised nor gave a score; the others keep their prompt', async () => {
    const waiting = await createShop(); // installed before: review_tips 1 from the column default
    const optimised = await createShop();
    const rated = await createShop({ showReviewRequest: false, reviewScore: 4 });
    const { fakes } = makeDeps();
    const { images: rows } = await seedItem(optimised.shop, fakes.cdn);
    await db().update(images).set({ optimisedAt: Date.now() }).where(eq(images.id, rows[0]!.id));

    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0012_'));
    expect(migration?.name).toBe('0012_review_tips_after_first_optimisation.sql');
    for (const sql of migration!.queries) await env.DB.prepare(sql).run();

    expect(await reviewTips(waiting.headers)).toBe(0);
    expect(await reviewTips(optimised.headers)).toBe(1);
    expect(await reviewTips(rated.headers)).toBe(0);
  });
});
