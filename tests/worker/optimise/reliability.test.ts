// A worker that dies between any two steps, two jobs racing for one image, and the plan limit.
import { describe, expect, it } from 'vitest';
import { createJob, getJob, listJobImages } from '../../../worker/db/jobs';
import { claimImage, updateImage } from '../../../worker/db/images';
import { usageLedger } from '../../../worker/db/schema';
import { enqueueAutomatic } from '../../../worker/optimise/auto';
import type { OptimiseMessage } from '../../../worker/messages/optimise';
import { processDeadLetter, processOptimiseMessage } from '../../../worker/optimise/consumer';
import { planJob } from '../../../worker/optimise/plan';
import type { PipelineDeps } from '../../../worker/optimise/ports';
import { scheduleForTab, stopShopJobs } from '../../../worker/optimise/progress';
import { createShop, db } from '../helpers';
import { imageRow, ledgerRows, makeDeps, r2Bytes, recordingQueue, saveSettings, seedItem } from './fixtures';

type Shop = Awaited<ReturnType<typeof createShop>>['shop'];

function planDepsOf(deps: PipelineDeps) {
  const q = recordingQueue();
  return { q, plan: { db: deps.db, queue: q.queue, log: deps.log, now: deps.now, canOptimise: deps.quota.canOptimise } };
}

async function planOptimise(deps: PipelineDeps, shop: Shop, itemIds: number[]) {
  const { q, plan } = planDepsOf(deps);
  await planJob(plan, { shop, dataType: 1, processType: 'optimize', pageType: 1, pattern: 'manual', selection: { itemIds } });
  return q.sent as OptimiseMessage[];
}

async function deliverUntilAck(deps: PipelineDeps, m: OptimiseMessage, max = 6) {
  for (let attempt = 1; attempt <= max; attempt++) if ((await processOptimiseMessage(deps, m, attempt)).ack) return attempt;
  return -1;
}

/** Throws once at the n-th call of fn, then behaves. */
function dieOnce<A extends unknown[], R>(fn: (...a: A) => Promise<R>, when: 'before' | 'after'): (...a: A) => Promise<R> {
  let died = false;
  return async (...a: A) => {
    if (!died && when === 'before') {
      died = true;
      throw new Error('worker died');
    }
    const r = await fn(...a);
    if (!died && when === 'after') {
      died = true;
      throw new Error('worker died');
    }
    return r;
  };
}

describe('a worker dying between steps', { timeout: 60_000 }, () => {
  const cases: { name: string; inject: (deps: PipelineDeps, fakes: ReturnType<typeof makeDeps>['fakes']) => void }[] = [
    {
      name: 'after the original is stored (engine crash)',
      inject: (d) => (d.optimiseImage = dieOnce(d.optimiseImage, 'before')),
    },
    { name: 'after the result is stored, before Shopify', inject: (_d, f) => (f.faults.failNextUpdates = 1) },
    { name: 'after Shopify accepted the new file', inject: (_d, f) => (f.faults.failAfterAccept = 1) },
    { name: 'before D1 records the result (charge crash)', inject: (d) => (d.quota.charge = dieOnce(d.quota.charge, 'before')) },
    {
      name: 'after the charge, before D1 records the result',
      inject: (d) => (d.quota.charge = dieOnce(d.quota.charge, 'after')),
    },
  ];
  for (const c of cases) {
    it(`${c.name}: the retry completes with no lost original, no double upload, no double charge`, async () => {
      const { shop } = await createShop();
      const { deps, fakes } = makeDeps();
      deps.quota = { ...deps.quota };
      c.inject(deps, fakes);
      await saveSettings(shop.id);
      const { item, images } = await seedItem(shop, fakes.cdn);
      const original = fakes.cdn.get(images[0]!.src)!;
      const [m] = await planOptimise(deps, shop, [item.id]);
      expect(await deliverUntilAck(deps, m!)).toBe(2);

      const row = (await imageRow(images[0]!.id))!;
      expect(row).toMatchObject({ status: 'compressed', step: 'done', compressed: true, lockJobId: null });
      expect(await r2Bytes(row.originalKey)).toEqual(original);
      expect(fakes.cdn.get(images[0]!.src)).toEqual(await r2Bytes(row.resultKey));
      expect(fakes.updates).toHaveLength(1);
      expect(await ledgerRows(shop.id)).toHaveLength(1);
      expect((await getJob(db(), shop.id, m!.jobId))?.status).toBe('done');
    });
  }

  it('a dead worker of another job: its lease expires and the new job finishes the image once', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    const { item, images } = await seedItem(shop, fakes.cdn);
    // A job whose worker died holding the lease (expired a second ago) right after Shopify took the file.
    expect(
      await claimImage(db(), shop.id, images[0]!.id, { jobId: 'dead-job', token: 'dead' }, Date.now() - 120_000, 60_000),
    ).toBe(true);
    const [m] = await planOptimise(deps, shop, [item.id]);
    expect(await deliverUntilAck(deps, m!)).toBe(1);
    expect((await imageRow(images[0]!.id))!.status).toBe('compressed');
    expect(fakes.updates).toHaveLength(1);
  });
});

describe('two jobs for the same image', { timeout: 60_000 }, () => {
  it('run concurrently and produce one optimisation, one upload, one charge', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    const { item, images } = await seedItem(shop, fakes.cdn);
    const [a] = await planOptimise(deps, shop, [item.id]);
    // Planning skips images already waiting in a job, so the second job is made directly (e.g. a webhook
    // and the merchant at the same moment in two isolates).
    const jobB = crypto.randomUUID();
    await createJob(
      db(),
      { id: jobB, shopId: shop.id, dataType: 1, processType: 'reoptimize', pageType: 0, pattern: 'automatic' },
      [{ imageId: images[0]!.id, itemId: item.id }],
    );
    const b: OptimiseMessage = { type: 'image', jobId: jobB, shopId: shop.id, imageId: images[0]!.id };

    const [va, vb] = await Promise.all([processOptimiseMessage(deps, a!, 1), processOptimiseMessage(deps, b, 1)]);
    expect([va.ack, vb.ack].sort()).toEqual([false, true]); // the loser waits for the lease
    const loser = va.ack ? b : a!;
    expect(await deliverUntilAck(deps, loser)).toBe(1);

    expect(fakes.engine.calls).toHaveLength(1);
    expect(fakes.updates).toHaveLength(1);
    expect(await ledgerRows(shop.id)).toHaveLength(1);
    const members = [...(await listJobImages(db(), a!.jobId)), ...(await listJobImages(db(), jobB))];
    expect(members.map((m) => m.status).sort()).toEqual(['done', 'skipped']);
  });
});

describe('dead letters', { timeout: 60_000 }, () => {
  it('a message that only ever waited for another job steps aside instead of failing the image', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    const { item, images } = await seedItem(shop, fakes.cdn);
    const [m] = await planOptimise(deps, shop, [item.id]);
    expect(await claimImage(db(), shop.id, images[0]!.id, { jobId: 'other-job', token: 'other' }, Date.now(), 600_000)).toBe(
      true,
    );
    for (let attempt = 1; attempt <= 6; attempt++) expect((await processOptimiseMessage(deps, m!, attempt)).ack).toBe(false);
    await processDeadLetter(deps, m!);
    expect((await listJobImages(db(), m!.jobId))[0]).toMatchObject({ status: 'skipped', error: 'handled by another job' });
    expect((await imageRow(images[0]!.id))!.status).toBe('pending');
  });
});

describe('quota', { timeout: 60_000 }, () => {
  async function useQuota(shop: Shop, n: number) {
    for (let i = 0; i < n; i += 20) {
      await db()
        .insert(usageLedger)
        .values(
          Array.from({ length: Math.min(20, n - i) }, (_, k) => ({
            shopId: shop.id,
            chargeKey: `seed:${i + k}`,
            periodStart: shop.quotaPeriodStart,
          })),
        );
    }
  }

  it('stops at the plan limit with the documented message, leaving the rest untouched', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    await useQuota(shop, 149); // free plan: 150 images
    const { item, images } = await seedItem(shop, fakes.cdn, { count: 3 });
    const untouched = fakes.cdn.get(images[2]!.src);
    const messages = await planOptimise(deps, shop, [item.id]);
    for (const m of messages) await deliverUntilAck(deps, m);

    expect((await imageRow(images[0]!.id))!.status).toBe('compressed');
    expect((await imageRow(images[1]!.id))!.status).toBe('pending');
    expect(fakes.cdn.get(images[2]!.src)).toBe(untouched);
    expect(fakes.updates).toHaveLength(1);
    expect(await ledgerRows(shop.id)).toHaveLength(150);
    const schedule = await scheduleForTab(db(), shop.id, 1, Date.now());
    expect(schedule).toMatchObject({
      status: 'plan_limit',
      process_result: 1,
      opt_total: 3,
      opt_done: 1,
      opt_failed: 0,
      plan_limit_message: 'There are 2 images that can be optimized.',
    });

    // A new request is refused before any work starts.
    await expect(planOptimise(deps, shop, [item.id])).rejects.toThrow('There are 2 images that can be optimized.');
  });

  it('goes past the plan when overcharge is on and the cap has room', async () => {
    const { shop } = await createShop({ planLevel: 1, overageEnabled: true, hasUsageCap: true, cappedAmountCents: 1000 });
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    await useQuota(shop, 1000);
    const { item } = await seedItem(shop, fakes.cdn, { count: 2 });
    for (const m of await planOptimise(deps, shop, [item.id])) await deliverUntilAck(deps, m);
    const rows = await ledgerRows(shop.id);
    expect(rows.filter((r) => r.overage)).toHaveLength(2);
  });
});

describe('automatic mode', { timeout: 60_000 }, () => {
  it('queues new images and recognises our own output from a products/update webhook', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id, (s) => (s.auto_switch = 1));
    const { images } = await seedItem(shop, fakes.cdn, { count: 2 });
    const { q, plan } = planDepsOf(deps);
    expect(await enqueueAutomatic(plan, shop.id)).toBe(2);
    for (const m of q.sent as OptimiseMessage[]) await deliverUntilAck(deps, m);
    expect(fakes.updates).toHaveLength(2);

    // The webhook for our own fileUpdate makes the catalogue mark the image pending again.
    await updateImage(db(), shop.id, images[0]!.id, { status: 'pending' });
    q.sent.length = 0;
    expect(await enqueueAutomatic(plan, shop.id)).toBe(1);
    for (const m of q.sent as OptimiseMessage[]) await deliverUntilAck(deps, m);
    expect(fakes.updates).toHaveLength(2); // no second round
    expect(fakes.engine.calls).toHaveLength(2);
    expect((await imageRow(images[0]!.id))!.status).toBe('compressed');
    expect(await ledgerRows(shop.id)).toHaveLength(2);
  });

  it('does nothing while automatic mode is off', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    await seedItem(shop, fakes.cdn);
    expect(await enqueueAutomatic(planDepsOf(deps).plan, shop.id)).toBe(0);
  });
});

describe('stopping a job', { timeout: 60_000 }, () => {
  it('an image half way through is completed by its retry; images not started are stopped and stay untouched', async () => {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    const { item, images } = await seedItem(shop, fakes.cdn, { count: 2 });
    const messages = await planOptimise(deps, shop, [item.id]);
    const first = messages.find((m) => m.imageId === images[0]!.id)!;
    const second = messages.find((m) => m.imageId === images[1]!.id)!;

    // Shopify accepts the new file, then the worker dies: the image is half way, its retry is pending.
    fakes.faults.failAfterAccept = 1;
    expect((await processOptimiseMessage(deps, first, 1)).ack).toBe(false);
    expect((await imageRow(images[0]!.id))?.status).toBe('processing');

    expect(await stopShopJobs(db(), shop.id, Date.now())).toBe(1);

    // The retry still lands the image: Shopify and D1 agree, charged once.
    expect((await processOptimiseMessage(deps, first, 2)).ack).toBe(true);
    expect(await imageRow(images[0]!.id)).toMatchObject({ status: 'compressed', step: 'done', lockJobId: null });
    expect(fakes.updates).toHaveLength(1);
    expect(await ledgerRows(shop.id)).toHaveLength(1);

    // The image that never started is not run and is not left "processing".
    expect((await processOptimiseMessage(deps, second, 1)).ack).toBe(true);
    expect((await imageRow(images[1]!.id))?.status).toBe('pending');
    const members = await listJobImages(db(), first.jobId);
    expect(members.find((m) => m.imageId === images[1]!.id)?.status).toBe('stopped');
    expect((await getJob(db(), shop.id, first.jobId))?.status).toBe('stopped');
  });
});

describe('the merchant changes the picture between two attempts', { timeout: 60_000 }, () => {
  /** The first attempt stops at Shopify (a 503 before the file is taken); the merchant replaces the picture. */
  async function failedThenReplaced(kind: 'optimize' | 'restore') {
    const { shop } = await createShop();
    const { deps, fakes } = makeDeps();
    await saveSettings(shop.id);
    const { item, images } = await seedItem(shop, fakes.cdn);
    const image = images[0]!;
    if (kind === 'restore') for (const m of await planOptimise(deps, shop, [item.id])) await deliverUntilAck(deps, m);
    const { q, plan } = planDepsOf(deps);
    await planJob(plan, {
      shop,
      dataType: 1,
      processType: kind,
      pageType: kind === 'optimize' ? 1 : 0,
      pattern: 'manual',
      selection: { itemIds: [item.id] },
    });
    const m = q.sent[0] as OptimiseMessage;
    const updatesBefore = fakes.updates.length;
    fakes.faults.failNextUpdates = 1;
    expect((await processOptimiseMessage(deps, m, 1)).ack).toBe(false);
    expect((await imageRow(image.id))!.step).toBe(kind === 'optimize' ? 'replacing' : 'restoring');
    const newer = fakes.cdn.get(image.src)!.slice();
    newer[200] = (newer[200]! + 1) % 256;
    fakes.cdn.set(image.src, newer); // Files > Replace while the message waits for its retry
    expect(await deliverUntilAck(deps, m)).toBe(1);
    return { shop, fakes, image, newer, updates: fakes.updates.slice(updatesBefore), m };
  }

  it('an optimisation resumed at Shopify optimises the newer picture instead of putting up the old one', async () => {
    const { shop, fakes, image, newer, updates } = await failedThenReplaced('optimize');
    const row = (await imageRow(image.id))!;
    expect(await r2Bytes(row.originalKey)).toEqual(newer); // the newer picture is the original now
    expect(fakes.cdn.get(image.src)).toEqual(await r2Bytes(row.resultKey));
    expect(row).toMatchObject({ status: 'compressed', noteKey: 'server.optimise.changedInShopify' });
    expect(updates.map((u) => u.update.file?.bytes.byteLength)).toEqual([newer.byteLength / 2]);
    expect(await ledgerRows(shop.id)).toHaveLength(1);
  });

  it('a restore resumed at Shopify leaves the newer picture alone and says why', async () => {
    const { fakes, image, newer, updates, m } = await failedThenReplaced('restore');
    expect(fakes.cdn.get(image.src)).toEqual(newer);
    expect(updates).toEqual([]);
    expect((await imageRow(image.id))!).toMatchObject({ status: 'pending', noteKey: 'server.optimise.changedInShopify' });
    expect((await listJobImages(db(), m.jobId))[0]).toMatchObject({
      status: 'failed',
      error: 'This image was changed in Shopify after it was optimized, so it was not restored.',
    });
  });
});
