// Two deliveries of ONE queue message (same job, same image) running at the same time. Cloudflare Queues
// deliver at least once: a message whose consumer outlived its wall time or whose batch failed comes again,
// possibly while the first delivery still runs in another isolate. The two deliveries here share D1, R2,
// the Shopify double and a test clock; each one stops at every call to the outside world (settings, the
// Shopify URL, the CDN, the engine, the quota, R2 writes, Shopify's fileUpdate before and after it took
// the file) and the test decides which of them goes on, so every interleaving is replayed exactly. The
// clock may also jump past the image lease while a delivery is stopped (an isolate frozen or slow).
// Afterwards the queue redelivers whatever asked for a retry, one delivery at a time, and the promises are
// checked: the merchant's original is kept byte for byte and a restore gives it back, the image is charged
// once, no version history takes our own output for a picture of the merchant's, Shopify never gets two
// different files, and the row, the job and Shopify agree.
// OVERLAP_RUNS makes the random part deeper (npm test runs a fixed handful of schedules).
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getJob, listJobImages } from '../../../worker/db/jobs';
import { images, imageVersions } from '../../../worker/db/schema';
import type { ShopRow } from '../../../worker/db/shops';
import type { EngineResult, EngineSettings } from '../../../worker/images/types';
import { sha256HexOfBytes } from '../../../worker/lib/crypto';
import type { Verdict } from '../../../worker/lib/queue-consumer';
import type { OptimiseMessage } from '../../../worker/messages/optimise';
import { processOptimiseMessage } from '../../../worker/optimise/consumer';
import { planJob } from '../../../worker/optimise/plan';
import { followServedPictures } from '../../../worker/optimise/served';
import type { PipelineDeps } from '../../../worker/optimise/ports';
import { ShopifyUserError } from '../../../worker/shopify/errors';
import { createShop, db } from '../helpers';
import { imageRow, ledgerRows, makeDeps, r2Bytes, recordingQueue, saveSettings, seedItem, type Fakes } from './fixtures';

const vars = env as unknown as Record<string, string | undefined>;
const RUNS = Number(vars.OVERLAP_RUNS ?? '') || 12;
const SEED = vars.OVERLAP_SEED ? Number(vars.OVERLAP_SEED) : vars.OVERLAP_RUNS ? undefined : 20261128;
const LEASE_MS = 60_000;

/** The engine double, deterministic per (bytes, quality): a re-optimise at another level makes other bytes. */
async function engine(input: Uint8Array, settings: EngineSettings): Promise<EngineResult> {
  const out = input.slice(0, Math.max(8, Math.floor(input.byteLength / 2)));
  out[5] = (out[5]! + settings.quality) % 256;
  return {
    kind: 'optimised',
    bytes: out,
    format: 'jpeg',
    mime: 'image/jpeg',
    width: 10,
    height: 10,
    inputFormat: 'jpeg',
    convertedToJpg: false,
    watermarked: false,
    bytesIn: input.byteLength,
    bytesOut: out.byteLength,
  };
}

type Stop = { label: string; go: () => void };

/** One delivery of the message, stopping before each call to the outside world until the test lets it go on. */
class Delivery {
  stop: Stop | null = null;
  verdict: Verdict | null = null;
  error: unknown = null;
  started = false;
  /** Every stop it passed, for the failure message. */
  readonly trail: string[] = [];
  private settled: (() => void) | null = null;
  readonly deps: PipelineDeps;

  /** `work`: what the delivery does with its stopping deps (by default: the message's first delivery). */
  constructor(
    readonly name: string,
    base: PipelineDeps,
    msg: OptimiseMessage,
    private readonly work: (deps: PipelineDeps) => Promise<Verdict> = (deps) => processOptimiseMessage(deps, msg, 1),
  ) {
    const at =
      <A extends unknown[], R>(label: string, fn: (...a: A) => Promise<R>) =>
      async (...a: A): Promise<R> => {
        await this.pause(label);
        return fn(...a);
      };
    const bucket = base.bucket;
    this.deps = {
      ...base,
      loadSettings: at('settings', base.loadSettings),
      fetchImage: at('cdn', base.fetchImage),
      optimiseImage: at('engine', base.optimiseImage),
      quota: { canOptimise: at('quota', base.quota.canOptimise), charge: at('charge', base.quota.charge) },
      shopify: {
        currentImageUrl: at('shopify-url', base.shopify.currentImageUrl),
        updateImage: at('fileUpdate', async (...a: Parameters<PipelineDeps['shopify']['updateImage']>) => {
          const res = await base.shopify.updateImage(...a);
          await this.pause('fileUpdate-taken'); // Shopify has the file; this delivery has not heard back yet
          return res;
        }),
      },
      bucket: new Proxy(bucket, {
        get: (target, prop) => {
          if (prop === 'put') return at('r2-put', (...a: Parameters<R2Bucket['put']>) => target.put(...a));
          const v = Reflect.get(target, prop) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      }),
    };
  }

  get done(): boolean {
    return this.verdict !== null || this.error !== null;
  }

  private pause(label: string): Promise<void> {
    this.trail.push(label);
    return new Promise<void>((go) => {
      this.stop = { label, go };
      this.settle();
    });
  }

  private settle(): void {
    const s = this.settled;
    this.settled = null;
    s?.();
  }

  /** Lets the delivery go on to its next stop (or its end); resolves once it is there. */
  async step(): Promise<void> {
    if (this.done) return;
    const arrived = new Promise<void>((r) => (this.settled = r));
    if (!this.started) {
      this.started = true;
      this.trail.push('start');
      this.work(this.deps).then(
        (v) => ((this.verdict = v), this.settle()),
        (e: unknown) => ((this.error = e), this.settle()),
      );
    } else {
      const stop = this.stop!;
      this.stop = null;
      stop.go();
    }
    await arrived;
  }

  /** Goes on until it stops at `label` (after `times` - 1 earlier stops there) or ends ('end' never stops). */
  async until(label: string, times = 1): Promise<void> {
    let seen = 0;
    while (!this.done) {
      await this.step();
      if (this.stop?.label === label && ++seen === times) return;
    }
  }
}

type Kind = 'optimize' | 'reoptimize' | 'restore';

type World = {
  shop: ShopRow;
  base: PipelineDeps;
  fakes: Fakes;
  clock: { now: number };
  imageId: number;
  itemId: number;
  original: Uint8Array;
  msg: OptimiseMessage;
  updatesBefore: number;
  chargesBefore: number;
  /** Shopify updates the overlapping deliveries (and their redeliveries) made, set by brokenPromises. */
  sent?: number;
};

async function planOne(base: PipelineDeps, shop: ShopRow, kind: Kind, itemId: number): Promise<OptimiseMessage> {
  const q = recordingQueue();
  await planJob(
    { db: base.db, queue: q.queue, log: base.log, now: base.now, canOptimise: base.quota.canOptimise },
    {
      shop,
      dataType: 1,
      processType: kind,
      pageType: kind === 'optimize' ? 1 : 0,
      pattern: 'manual',
      selection: { itemIds: [itemId] },
    },
  );
  expect(q.sent).toHaveLength(1);
  return q.sent[0] as OptimiseMessage;
}

/** Delivers a message one delivery at a time until the queue is told to ack it. */
async function redeliver(deps: PipelineDeps, msg: OptimiseMessage, from: number): Promise<number> {
  for (let attempt = from; attempt <= from + 6; attempt++)
    if ((await processOptimiseMessage(deps, msg, attempt)).ack) return attempt;
  throw new Error(`message for image ${msg.imageId} never acked`);
}

/**
 * A shop with one product image, and the message whose two deliveries overlap: a first optimisation, a
 * re-optimisation at another level (the row already holds a pair), or a restore of an optimised image.
 */
async function world(kind: Kind): Promise<World> {
  const { shop } = await createShop();
  const clock = { now: Date.now() };
  const { deps: base, fakes } = makeDeps({ optimiseImage: engine, now: () => clock.now, leaseMs: LEASE_MS });
  await saveSettings(shop.id);
  const { item, images } = await seedItem(shop, fakes.cdn);
  const image = images[0]!;
  const original = fakes.cdn.get(image.src)!;
  if (kind !== 'optimize') {
    await redeliver(base, await planOne(base, shop, 'optimize', item.id), 1);
    if (kind === 'reoptimize') await saveSettings(shop.id, (s) => (s.image_opt.quality.level = 3));
  }
  const msg = await planOne(base, shop, kind, item.id);
  return {
    shop,
    base,
    fakes,
    clock,
    imageId: image.id,
    itemId: item.id,
    original,
    msg,
    updatesBefore: fakes.updates.length,
    chargesBefore: (await ledgerRows(shop.id)).length,
  };
}

const hex = (b: Uint8Array | null | undefined) => (b ? sha256HexOfBytes(b) : Promise.resolve(null));

/** The promises after both deliveries (and any redelivery) ended; each broken one is a line. */
async function brokenPromises(w: World, kind: Kind): Promise<string[]> {
  const broken: string[] = [];
  const row = (await imageRow(w.imageId))!;
  const originalSha = await sha256HexOfBytes(w.original);
  const served = w.fakes.cdn.get(row.src) ?? null;
  const short = (s: string | null) => (s ? s.slice(0, 10) : String(s));
  // The original, kept byte for byte under the row's key.
  const kept = await r2Bytes(row.originalKey);
  if (row.originalSha256 !== originalSha)
    broken.push(`original: the row's original is ${short(row.originalSha256)}, the merchant's is ${short(originalSha)}`);
  if (!kept || (await hex(kept)) !== originalSha)
    broken.push(
      `original: R2 under the row's key (${row.originalKey}) holds ${short(await hex(kept))}, not the merchant's bytes`,
    );
  // Charged once, restores never.
  const charges = (await ledgerRows(w.shop.id)).filter((l) => l.imageId === w.imageId).length;
  if (charges !== 1) broken.push(`quota: the image is charged ${charges} times`);
  // No history of a picture that was ours all along.
  const versions = await db().select().from(imageVersions).where(eq(imageVersions.imageId, w.imageId)).all();
  if (versions.length)
    broken.push(
      `history: ${versions.length} retired version(s) (served ${versions.map((v) => short(v.servedSha256)).join(', ')}): our own output taken for a new picture`,
    );
  // Shopify got one file (a repeat of the same bytes is harmless), never two different ones.
  w.sent = w.fakes.updates.length - w.updatesBefore;
  const files = await Promise.all(w.fakes.updates.slice(w.updatesBefore).map((u) => hex(u.update.file?.bytes)));
  const distinct = new Set(files.filter((f) => f !== null));
  if (distinct.size > 1) broken.push(`shopify: ${distinct.size} different files sent (${[...distinct].map(short).join(', ')})`);
  // The row, the job and Shopify agree; the lease is free.
  const want = kind === 'restore' ? 'restored' : 'compressed';
  if (row.status !== want || row.step !== (kind === 'restore' ? 'restored' : 'done'))
    broken.push(`row: ${row.status}/${row.step} (${row.failReason ?? row.noteKey ?? 'no reason'}), expected ${want}`);
  const servedSha = await hex(served);
  const expected = kind === 'restore' ? originalSha : row.resultSha256;
  if (servedSha !== expected) broken.push(`shopify: serves ${short(servedSha)}, the row says ${short(expected)}`);
  if (row.lockJobId !== null) broken.push(`lease: still held by ${row.lockJobId}`);
  const job = await getJob(db(), w.shop.id, w.msg.jobId);
  const members = await listJobImages(db(), w.msg.jobId);
  if (job?.status !== 'done' || members[0]?.status !== 'done')
    broken.push(`job: ${job?.status}, image ${members[0]?.status} (${members[0]?.error ?? ''})`);
  // A restore afterwards gives the merchant's original back, byte for byte.
  if (kind !== 'restore' && broken.length === 0) {
    await redeliver(w.base, await planOne(w.base, w.shop, 'restore', w.itemId), 1);
    const back = w.fakes.cdn.get((await imageRow(w.imageId))!.src) ?? null;
    if ((await hex(back)) !== originalSha)
      broken.push(`restore: Shopify serves ${short(await hex(back))} after the restore, not the merchant's original`);
  }
  return broken;
}

/** Both deliveries, then the queue's redeliveries of whatever asked for a retry; the promises broken. */
async function afterOverlap(w: World, kind: Kind, a: Delivery, b: Delivery): Promise<string[]> {
  await a.until('end');
  await b.until('end');
  for (const d of [a, b]) {
    if (d.error) throw d.error as Error; // the queue plumbing would retry it; a run should not throw past its consumer
    if (!d.verdict!.ack) await redeliver(w.base, w.msg, 2);
  }
  return brokenPromises(w, kind);
}

function pair(w: World): [Delivery, Delivery] {
  return [new Delivery('A', w.base, w.msg), new Delivery('B', w.base, w.msg)];
}

describe('two deliveries of one message at the same time', { timeout: 120_000 }, () => {
  it('B loads the image, A replaces it on Shopify, then B goes on while A waits to hear back', async () => {
    const w = await world('optimize');
    const [a, b] = pair(w);
    await a.until('settings'); // A claimed the image
    await b.until('settings'); // B claimed it too and holds the row as it was before A changed anything
    await a.until('fileUpdate-taken'); // Shopify serves A's result; D1 does not know yet
    await b.until('end');
    expect(await afterOverlap(w, 'optimize', a, b)).toEqual([]);
  });

  it('B loads the image, A finishes it, then B goes on', async () => {
    const w = await world('optimize');
    const [a, b] = pair(w);
    await a.until('settings');
    await b.until('settings');
    await a.until('end');
    expect(await afterOverlap(w, 'optimize', a, b)).toEqual([]);
  });

  it('both reach Shopify with their own file', async () => {
    const w = await world('reoptimize');
    const [a, b] = pair(w);
    await a.until('settings');
    await b.until('settings');
    await a.until('fileUpdate');
    await b.until('fileUpdate');
    expect(await afterOverlap(w, 'reoptimize', a, b)).toEqual([]);
  });

  it('re-optimise: B reads what Shopify serves after A replaced it', async () => {
    const w = await world('reoptimize');
    const [a, b] = pair(w);
    await a.until('settings');
    await b.until('settings');
    await a.until('fileUpdate-taken');
    expect(await afterOverlap(w, 'reoptimize', a, b)).toEqual([]);
  });

  it('while A holds the lease, B waits for it instead of sharing it', async () => {
    const w = await world('optimize');
    const [a, b] = pair(w);
    await a.until('settings');
    await b.until('end');
    expect(b.trail).toEqual(['start']); // B never reached the outside world
    expect(b.verdict).toMatchObject({ ack: false });
    expect(await afterOverlap(w, 'optimize', a, b)).toEqual([]);
    expect(w.sent).toBe(1);
  });

  it('A stalls in the engine past its lease; B takes the image over, A stops before R2 and Shopify', async () => {
    const w = await world('optimize');
    const [a, b] = pair(w);
    await a.until('engine');
    w.clock.now += LEASE_MS + 1;
    await b.until('end');
    expect(b.verdict).toEqual({ ack: true });
    await a.until('end');
    expect(a.trail.slice(a.trail.indexOf('engine'))).toEqual(['engine']); // no R2 write, no Shopify call after it
    expect(a.verdict).toMatchObject({ ack: false });
    expect(await afterOverlap(w, 'optimize', a, b)).toEqual([]);
    expect(w.sent).toBe(1);
  });

  it('A stalls while Shopify takes its file, past its lease; B takes the image over without a second upload', async () => {
    const w = await world('optimize');
    const [a, b] = pair(w);
    await a.until('fileUpdate-taken');
    w.clock.now += LEASE_MS + 1;
    await b.until('end');
    expect(b.trail).not.toContain('fileUpdate'); // B found Shopify already serving the result
    expect(await afterOverlap(w, 'optimize', a, b)).toEqual([]);
    expect(w.sent).toBe(1);
  });

  it("A loses its lease on the way to Shopify, which then refuses its file: A records no failure over B's result", async () => {
    const w = await world('optimize');
    const refusing: PipelineDeps = {
      ...w.base,
      shopify: {
        ...w.base.shopify,
        updateImage: async () => {
          throw new ShopifyUserError('fileUpdate', [{ field: ['files'], message: 'File could not be processed' }]);
        },
      },
    };
    const a = new Delivery('A', refusing, w.msg);
    const b = new Delivery('B', w.base, w.msg);
    await a.until('fileUpdate'); // A holds a fresh lease (its marker step) and is about to call Shopify
    w.clock.now += LEASE_MS + 1;
    await b.until('end');
    await a.until('end');
    expect(a.verdict).toMatchObject({ ack: false }); // comes back later, to find the image done
    expect(await afterOverlap(w, 'optimize', a, b)).toEqual([]);
  });

  it('re-optimise: A stalls after reading what Shopify serves; B takes over and replaces it; A records no history', async () => {
    const w = await world('reoptimize');
    const [a, b] = pair(w);
    await a.until('cdn');
    w.clock.now += LEASE_MS + 1;
    await b.until('end');
    expect(await afterOverlap(w, 'reoptimize', a, b)).toEqual([]);
  });

  it(`keeps every promise over ${RUNS} random interleavings of optimise, re-optimise and restore`, async () => {
    let runs = 0;
    let takeovers = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Kind>('optimize', 'reoptimize', 'restore'),
        fc.array(fc.nat(5), { maxLength: 40 }),
        async (kind, choices) => {
          runs++;
          const w = await world(kind);
          const [a, b] = pair(w);
          const log: string[] = [];
          let jumps = 0;
          for (const c of choices) {
            const live = [a, b].filter((d) => !d.done);
            if (live.length === 0) break;
            // 0..4: a delivery goes on to its next stop; 5: the clock jumps past the lease (once).
            if (c === 5 && jumps === 0) {
              jumps++;
              w.clock.now += LEASE_MS + 1;
              log.push('clock +lease');
              continue;
            }
            const d = live[c % live.length]!;
            await d.step();
            log.push(`${d.name}:${d.done ? 'end' : d.stop?.label}`);
          }
          const broken = await afterOverlap(w, kind, a, b);
          expect(broken, `${kind}: ${log.join(' ')}`).toEqual([]);
          // Both deliveries got past the claim: one took the image over from the other.
          if (a.trail.includes('settings') && b.trail.includes('settings')) takeovers++;
        },
      ),
      { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
    );
    expect(runs).toBe(RUNS);
    expect(takeovers, 'no schedule let one delivery take the image over from the other').toBeGreaterThan(0);
  });
});

describe('the served check after a catalogue sync, beside a job on the same image', { timeout: 120_000 }, () => {
  it('a re-optimise that replaces the image while the check looks is not taken for a picture we did not write', async () => {
    const w = await world('reoptimize');
    // The catalogue saw a new URL for the image (e.g. the webhook of our own earlier fileUpdate).
    await db().update(images).set({ checkServed: true }).where(eq(images.id, w.imageId));
    const check = new Delivery('S', w.base, w.msg, async (deps) => {
      await followServedPictures(deps, w.shop);
      return { ack: true };
    });
    const job = new Delivery('J', w.base, w.msg);
    await check.until('shopify-url'); // the check read its list and is about to ask Shopify
    await job.until('end'); // the re-optimise runs meanwhile (or waits for the image)
    expect(await afterOverlap(w, 'reoptimize', check, job)).toEqual([]);
  });
  it('a newer picture the merchant puts up while a job finishes is compared once the job gives the image back', async () => {
    const w = await world('optimize');
    const job = new Delivery('J', w.base, w.msg);
    await job.until('fileUpdate-taken'); // Shopify serves our result; D1 does not know yet
    // The merchant replaces the file (Files > Replace) and the catalogue sync marks the row for a look.
    const src = (await imageRow(w.imageId))!.src;
    const newer = w.original.slice();
    newer[100] = (newer[100]! + 1) % 256;
    w.fakes.cdn.set(src, newer);
    await db().update(images).set({ checkServed: true }).where(eq(images.id, w.imageId));
    await job.until('end');
    await followServedPictures(w.base, w.shop); // the sync's served check after the job
    const row = (await imageRow(w.imageId))!;
    // The row follows Shopify: a pending image of the newer picture, never "Compressed" over it.
    expect([row.status, row.noteKey, row.resultSha256]).toEqual(['pending', 'server.optimise.changedInShopify', null]);
    expect(w.fakes.cdn.get(src)).toEqual(newer);
  });
});
