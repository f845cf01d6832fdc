// A store's life, model-based (fast-check commands): random sequences of what merchants, other apps,
// Shopify and the clock do to a shop's product images, interleaved with what the merchant asks of us
// (optimise, re-optimise, restore, automatic mode), all through the real queue handlers against the
// store emulator. The model holds the one thing only the merchant decides: the latest picture of each
// image. After every step (decisions.md, "The store changes after we optimise"):
// The images are a shop's product media and its collection image.
//   1. Shopify serves, for every image, the merchant's latest picture or our result made from it;
//   2. every image we changed has that latest picture's original in R2 until the date the admin shows;
//   3. a restore puts exactly those bytes back, with the merchant's alt text and file name, or the row says why not;
//   4. no image is charged twice, and no restore is charged;
//   5. the status the admin shows for each image matches what Shopify serves.
// Webhooks reach the app out of order, twice and replayed; image messages come once, twice, or twice at the
// same time; automatic mode reacts to what the syncs find. The merchant may uninstall with work still
// queued and install again: within 48 hours everything we hold is still theirs; after shop/redact nothing
// of the shop is left with us, and the reinstall starts from what Shopify serves.
// STORE_LIFE_RUNS / STORE_LIFE_STEPS make it deeper (npm run test:store-life); `npm test` runs a few short lives.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { and, eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setAutoSwitch, saveImageSettings } from '../../../worker/db/image-settings';
import { images, items, usageLedger } from '../../../worker/db/schema';
import type { ShopRow } from '../../../worker/db/shops';
import { sha256HexOfBytes } from '../../../worker/lib/crypto';
import { KEEP_MS } from '../../../worker/optimise/run-context';
import { imageStatusOf } from '../../../shared/image-status';
import { defaultImageSettings } from '../../../shared/image-settings';
import { createEmulatorShop, type EmulatorShop, type FileInfo } from '../emulator-client';
import { appFetch, db } from '../helpers';
import { handleSyncMessage } from '../../../worker/catalogue/consumer';
import { createLogger } from '../../../worker/lib/log';
import { MAX_RETRIES, processDeadLetter, processOptimiseMessage } from '../../../worker/optimise/consumer';
import { pipelineDeps } from '../../../worker/optimise/deps';
import type { PipelineDeps } from '../../../worker/optimise/ports';
import type { SyncQueueMessage } from '../../../worker/messages/catalogue-sync';
import type { OptimiseMessage } from '../../../worker/messages/optimise';
import type { WebhookWorkMessage } from '../../../worker/messages/shopify-webhook';
import { completeInstall } from '../../../worker/install/install';
import { findShopByDomain } from '../../../worker/db/shops';
import { shopPrefixes } from '../../../worker/lib/r2-keys';
import { runWebhookWork } from '../../../worker/webhooks/consumer';
import { CRON, dispatchScheduled } from '../../../worker/jobs/scheduled';
import { WebhookRetryLater } from '../../../worker/webhooks/handlers';
import {
  drainOptimiseQueue,
  installedShop,
  overlapOptimiseQueue,
  passTime,
  planAutomatic,
  planTabJob,
  syncCatalogue,
  type JobKind,
} from './harness';

const vars = env as unknown as Record<string, string | undefined>;
const RUNS = Number(vars.STORE_LIFE_RUNS ?? '') || 2;
const STEPS = Number(vars.STORE_LIFE_STEPS ?? '') || 8;
// `npm test` replays the same short lives every time (no luck in CI); the deep run draws new ones unless given a seed.
const SEED = vars.STORE_LIFE_SEED ? Number(vars.STORE_LIFE_SEED) : vars.STORE_LIFE_RUNS ? undefined : 20261127;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
// Seed photos of the emulator (emulator/store/images.ts); the shop's own images come from the same set.
const SEEDS = ['rocket.jpg', 'flower.jpg', 'chelsea.jpg', 'astronaut.jpg'] as const;

/**
 * `latest`: the merchant's latest picture of each image (sha256); `words`: the alt text and file name the
 * merchant gave each product image (what a restore must leave in Shopify).
 */
type Words = { alt: string; filename: string };
type Model = { latest: Map<string, string>; words: Map<string, Words>; log: string[] };
/** `queued`: what the Worker sent to the image and sync queues, delivered by the test in order. */
/** `otherAppToken`: a token for the other app's calls (the emulator has one app; its current grant stands in). */
type Real = { emu: EmulatorShop; shop: ShopRow; queued: Queued; otherAppToken: string };
/** `webhookLater`: webhook work the consumer asked to have again later (retried on each delivery). */
type Queued = {
  optimise: OptimiseMessage[];
  sync: SyncQueueMessage[];
  webhook: WebhookWorkMessage[];
  webhookLater: WebhookWorkMessage[];
};

/**
 * The queues' consumers run inside the test Worker too: messages the code under test sends are taken here
 * instead, so each step's work is delivered by the model, in order, and the checks see it finished.
 */
function captureQueues(): Queued {
  const queued: Queued = { optimise: [], sync: [], webhook: [], webhookLater: [] };
  const sent = { metadata: { metrics: { backlogCount: 0, backlogBytes: 0, oldestMessageTimestamp: new Date(0) } } };
  vi.spyOn(env.OPTIMISE_QUEUE, 'send').mockImplementation(async (m) => (queued.optimise.push(m as OptimiseMessage), sent));
  vi.spyOn(env.OPTIMISE_QUEUE, 'sendBatch').mockImplementation(
    async (ms) => ([...ms].forEach((m) => queued.optimise.push(m.body as OptimiseMessage)), sent),
  );
  vi.spyOn(env.SYNC_QUEUE, 'send').mockImplementation(async (m) => (queued.sync.push(m as SyncQueueMessage), sent));
  vi.spyOn(env.WEBHOOK_QUEUE, 'send').mockImplementation(async (m) => (queued.webhook.push(m as WebhookWorkMessage), sent));
  return queued;
}

/**
 * Delivers what the code queued: webhook work, then catalogue updates (both may queue more, and automatic
 * work), then images. Webhook work the consumer defers (shop/redact before its 48 hours, work busy
 * elsewhere) waits for a later delivery, as the queue's delayed retry would.
 */
async function deliverQueued(r: Real): Promise<void> {
  r.queued.webhook.unshift(...r.queued.webhookLater.splice(0));
  while (r.queued.webhook.length > 0 || r.queued.sync.length > 0) {
    for (const m of r.queued.webhook.splice(0)) {
      try {
        if ((await runWebhookWork(env, db(), m, createLogger({ test: 'store-life' }))) === 'busy') r.queued.webhookLater.push(m);
      } catch (err) {
        if (!(err instanceof WebhookRetryLater)) throw err;
        r.queued.webhookLater.push(m);
      }
    }
    for (const body of r.queued.sync.splice(0)) await handleSyncMessage(body, env);
  }
  await drainOptimiseQueue(r.queued.optimise.splice(0));
}
type Fault = 'none' | 'graphql-429' | 'graphql-5xx' | 'cdn-5xx' | 'file-processing';

async function injectFault(emu: EmulatorShop, fault: Fault): Promise<void> {
  await emu.clearFaults();
  if (fault === 'graphql-429') await emu.injectFault({ target: 'graphql', status: 429, times: 2, retryAfter: 1 });
  if (fault === 'graphql-5xx') await emu.injectFault({ target: 'graphql', status: 503, times: 2 });
  if (fault === 'cdn-5xx') await emu.injectFault({ target: 'cdn', status: 503, times: 2 });
  if (fault === 'file-processing') await emu.failFileProcessing(1);
}

async function productFiles(emu: EmulatorShop): Promise<FileInfo[]> {
  return (await emu.products()).flatMap((p) => p.media);
}

/** What the store serves for every image we track: product media by file id, collection images by `<gid>/image` (as the catalogue names them). */
async function servedImages(emu: EmulatorShop): Promise<Map<string, string>> {
  const served = new Map((await productFiles(emu)).map((f) => [f.id, f.sha256]));
  for (const c of await emu.collections()) if (c.image) served.set(`${c.id}/image`, c.image.sha256);
  return served;
}

/**
 * Product (1) and collection (2) image rows; articles are left out of these lives (the blogs area is off).
 * `deleted`: the rows of images gone from Shopify instead.
 */
async function catalogueRows(shopId: number, deleted = false) {
  return db()
    .select({ image: images })
    .from(images)
    .innerJoin(items, eq(items.id, images.itemId))
    .where(and(eq(images.shopId, shopId), inArray(items.dataType, [1, 2]), eq(images.deleted, deleted)))
    .all()
    .then((r) => r.map((x) => x.image));
}

/** 2. What we changed keeps its original in R2, byte for byte, until the date the admin shows. */
async function expectOriginalHeld(row: typeof images.$inferSelect, what: string, trail: string): Promise<void> {
  if (!row.originalKey || row.expiresAt === null || Date.now() >= row.expiresAt || row.expired) return;
  const obj = await env.BUCKET.get(row.originalKey);
  expect(obj, `2: ${what} original gone before ${new Date(row.expiresAt).toISOString()}${trail}`).toBeTruthy();
  expect(await sha256HexOfBytes(await obj!.arrayBuffer()), `2: ${what} original bytes${trail}`).toBe(row.originalSha256);
  const storedAt = Number(obj!.customMetadata?.storedAt);
  expect(storedAt + KEEP_MS, `2: ${what} R2 deletes its original before the date shown${trail}`).toBeGreaterThanOrEqual(
    row.expiresAt,
  );
}

const ledgerCount = async (shopId: number) =>
  (await db().select().from(usageLedger).where(eq(usageLedger.shopId, shopId)).all()).length;

/** The five promises, checked against Shopify (the emulator), D1 and R2 as they are now. */
async function checkInvariants(m: Model, r: Real): Promise<void> {
  const servedBy = await servedImages(r.emu);
  const files = new Map((await productFiles(r.emu)).map((f) => [f.id, f]));
  const rows = await catalogueRows(r.shop.id);
  const trail = `\n${m.log.join('\n')}`;
  for (const row of rows) {
    const served = servedBy.get(row.imgId);
    if (!served) continue; // removed in Shopify; the next sync marks the row deleted
    const latest = m.latest.get(row.imgId);
    const file = files.get(row.imgId);
    if (file) expect(row.fileName, `5: image ${row.id} shows another file name than Shopify's${trail}`).toBe(file.filename);
    // 3. words Shopify has that are not the merchant's are ours, and the row says so (a restore undoes them)
    const words = m.words.get(row.imgId);
    if (file && words && file.alt !== words.alt)
      expect(row.altEdited, `3: image ${row.id}'s alt text is not the merchant's nor claimed as ours${trail}`).toBe(true);
    if (file && words && file.filename !== words.filename)
      expect(row.fileNameEdited, `3: image ${row.id}'s file name is not the merchant's nor claimed as ours${trail}`).toBe(true);
    const what = `image ${row.id} (${row.imgId}, ${row.status})`;
    // 1. the merchant's latest picture, or our result made from it
    expect(
      served === latest || (served === row.resultSha256 && row.originalSha256 === latest),
      `1: ${what} serves a stale picture (served ${served.slice(0, 8)}, latest ${latest?.slice(0, 8)}, row original ${row.originalSha256?.slice(0, 8)} result ${row.resultSha256?.slice(0, 8)})${trail}`,
    ).toBe(true);
    // 5. the admin's status says what Shopify serves
    const label = imageStatusOf({
      is_delete: row.deleted ? 1 : 0,
      is_overdue: row.expired ? 1 : 0,
      is_restore: row.restored ? 1 : 0,
      is_compress: row.compressed ? 1 : 0,
      is_to_jpg: 0,
      is_edit_alt: 0,
      is_edit_name: 0,
      is_watermark: 0,
      has_before_file: false,
      has_after_file: false,
      process_status: row.status,
    }).label;
    expect(['queued', 'processing'], `${what} left mid-way${trail}`).not.toContain(row.status);
    if (label === 'Compressed') expect(served, `5: ${what} reads Compressed${trail}`).toBe(row.resultSha256);
    if (label === 'Restored' || label === 'Not Compressed') expect(served, `5: ${what} reads ${label}${trail}`).toBe(latest);
    if (label === 'Failed') expect(row.failReason, `5: ${what} failed without a reason${trail}`).toBeTruthy();
    // 2. what we changed keeps the latest picture's original in R2 until the date shown
    await expectOriginalHeld(row, what, trail);
    const held = row.originalKey && row.expiresAt !== null && Date.now() < row.expiresAt && !row.expired;
    if (held && row.status === 'compressed') expect(row.originalSha256, `2: ${what} keeps an old original${trail}`).toBe(latest);
  }
  // ... and so does an image the merchant deleted in Shopify: its original stays downloadable from history
  for (const row of await catalogueRows(r.shop.id, true))
    await expectOriginalHeld(row, `deleted image ${row.id} (${row.imgId})`, trail);
  // 4. charged once per image
  const ledger = await db().select().from(usageLedger).where(eq(usageLedger.shopId, r.shop.id)).all();
  // (a redacted shop's free images used, counted again after its reinstall, are rows of no image)
  const charged = ledger.filter((l) => l.imageId !== null);
  expect(new Set(charged.map((l) => l.imageId)).size, `4: an image charged twice${trail}`).toBe(charged.length);
}

// ---- what the merchant asks of us ----

/**
 * At-least-once delivery: `twice`, every message arrives once more after its first delivery (an ack that
 * was lost); `overlapping`, twice at the same time (a redelivery while the first still runs elsewhere).
 */
type Delivery = 'once' | 'twice' | 'overlapping';

class Job implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: JobKind | 'auto',
    readonly fault: Fault,
    readonly delivery: Delivery = 'once',
  ) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    m.log.push(this.toString());
    const before = await catalogueRows(r.shop.id);
    const chargesBefore = await ledgerCount(r.shop.id);
    if (this.kind === 'auto') await setAutoSwitch(db(), r.shop.id, 1);
    const messages =
      this.kind === 'auto'
        ? await planAutomatic(r.shop)
        : [...(await planTabJob(r.shop, this.kind, 1)), ...(await planTabJob(r.shop, this.kind, 2))];
    await deliverQueued(r); // anything an earlier step left (none expected)
    let first = true;
    const drain = this.delivery === 'overlapping' ? overlapOptimiseQueue : drainOptimiseQueue;
    await drain(messages, {
      beforeBatch: async () => {
        await injectFault(r.emu, first ? this.fault : 'none');
        first = false;
      },
      afterRetries: async () => void (await r.emu.clearFaults()),
    });
    await r.emu.clearFaults();
    if (this.delivery === 'twice') await drainOptimiseQueue(messages);
    if (this.kind === 'restore') await expectRestored(m, r, before, chargesBefore);
    await checkInvariants(m, r);
  }
  toString = () =>
    `${this.kind}${this.fault === 'none' ? '' : ` with ${this.fault}`}${
      this.delivery === 'once' ? '' : this.delivery === 'twice' ? ', delivered twice' : ', delivered twice at the same time'
    }`;
}

/**
 * 4. a restore is never charged; 3. it ends Restored with the original's bytes and the merchant's alt text
 * and file name (a nearby name when theirs is taken, and the row says so), or says why not.
 */
async function expectRestored(m: Model, r: Real, before: ImageRowOf[], chargesBefore: number): Promise<void> {
  const trail = `\n${m.log.join('\n')}`;
  expect(await ledgerCount(r.shop.id), `4: a restore was charged${trail}`).toBe(chargesBefore);
  const servedBy = await servedImages(r.emu);
  const files = new Map((await productFiles(r.emu)).map((f) => [f.id, f]));
  const after = new Map((await catalogueRows(r.shop.id)).map((x) => [x.id, x]));
  for (const was of before.filter((x) => x.status === 'compressed' && x.expiresAt !== null && Date.now() < x.expiresAt)) {
    const now = after.get(was.id);
    const served = servedBy.get(was.imgId);
    if (!now || !served) continue;
    if (now.status !== 'restored') {
      expect(
        now.failReason ?? now.noteKey,
        `3: image ${was.id} not restored without a reason (${now.status}, step ${now.step})${trail}`,
      ).toBeTruthy();
      continue;
    }
    expect(served, `3: image ${was.id} restored to other bytes${trail}`).toBe(now.originalSha256);
    const file = files.get(was.imgId);
    const words = m.words.get(was.imgId);
    if (!file || !words) continue; // a collection image: no file of its own here
    expect(file.alt, `3: image ${was.id} restored without the merchant's alt text${trail}`).toBe(words.alt);
    if (now.noteKey !== 'server.optimise.restoredAs')
      expect(file.filename, `3: image ${was.id} restored without the merchant's file name${trail}`).toBe(words.filename);
  }
}

type ImageRowOf = Awaited<ReturnType<typeof catalogueRows>>[number];

/** The alt text and file name of every product image as Shopify has them now. */
async function wordsNow(emu: EmulatorShop): Promise<Map<string, Words>> {
  return new Map((await productFiles(emu)).map((f) => [f.id, { alt: f.alt, filename: f.filename }]));
}

// ---- what merchants, other apps and time do ----

/** Picks the k-th product image (modulo) of the store now. */
async function pick(r: Real, k: number): Promise<FileInfo | undefined> {
  const files = (await productFiles(r.emu)).sort((a, b) => a.id.localeCompare(b.id));
  return files.length ? files[k % files.length] : undefined;
}

/** After a store change the product hears of it (webhook -> catalogue sync, automatic mode) before the next step. */
async function noticed(m: Model, r: Real): Promise<void> {
  await syncCatalogue(r.shop);
  await deliverQueued(r);
  await checkInvariants(m, r);
}

/**
 * Shopify's pending webhooks reach the app out of order, each twice, and once more replayed (same signed
 * body, a new X-Shopify-Webhook-Id, no X-Shopify-Triggered-At): whatever they trigger keeps the promises.
 */
class Webhooks implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    m.log.push(this.toString());
    await postPendingWebhooks(r);
    await deliverQueued(r);
    await checkInvariants(m, r);
  }
  toString = () => 'webhooks delivered out of order, twice and replayed';
}

/** Shopify's pending webhooks posted to the app out of order, each twice, then each replayed once. */
async function postPendingWebhooks(r: Real): Promise<void> {
  const pending = (await r.emu.webhooks({ status: 'pending' })).filter((d) => d.url).reverse();
  for (const d of [...pending, ...pending]) {
    await appFetch(new Request(d.url, { method: 'POST', headers: d.headers, body: d.body }));
    await r.emu.ackWebhook(d.id);
  }
  for (const d of pending) {
    const { 'X-Shopify-Triggered-At': _at, ...headers } = d.headers;
    await appFetch(
      new Request(d.url, {
        method: 'POST',
        headers: { ...headers, 'X-Shopify-Webhook-Id': crypto.randomUUID() },
        body: d.body,
      }),
    );
  }
}

/** Every R2 object we hold for the shop (originals, results, uploads, watermarks, its own files). */
async function objectsOf(shopId: number): Promise<string[]> {
  const keys: string[] = [];
  for (const prefix of shopPrefixes(shopId)) keys.push(...(await env.BUCKET.list({ prefix })).objects.map((o) => o.key));
  return keys;
}

/**
 * The merchant uninstalls the app while a job's image messages are still queued, and installs it again
 * `hours` later. The queued messages arrive after the uninstall and change nothing in Shopify nor in what
 * is charged. Before 48 hours, every row and original is still there; at 72 hours Shopify's shop/redact has
 * taken everything of the shop (nothing of it is left in R2), so the pictures Shopify serves are from then
 * on the merchant's latest ones. The reinstall goes through the product's own install (completeInstall).
 */
class UninstallReinstall implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly hours: 1 | 72,
    readonly pending: 'optimize' | 'restore',
  ) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    m.log.push(this.toString());
    const trail = `\n${m.log.join('\n')}`;
    const left = await planTabJob(r.shop, this.pending, 1);
    const served = await servedImages(r.emu);
    const charges = await ledgerCount(r.shop.id);
    const held = (await objectsOf(r.shop.id)).sort();
    await r.emu.uninstall();
    await postPendingWebhooks(r);
    await deliverQueued(r);
    expect((await findShopByDomain(db(), r.emu.domain))?.uninstalledAt, `the uninstall was not confirmed${trail}`).not.toBeNull();
    await drainOptimiseQueue(left);
    expect(await servedImages(r.emu), `work queued before the uninstall changed Shopify after it${trail}`).toEqual(served);
    expect(await ledgerCount(r.shop.id), `work queued before the uninstall was charged after it${trail}`).toBe(charges);
    vi.setSystemTime(Date.now() + this.hours * HOUR);
    if (this.hours >= 48) {
      await r.emu.triggerWebhook('shop/redact');
      await postPendingWebhooks(r);
      await deliverQueued(r);
      expect(await objectsOf(r.shop.id), `shop/redact left objects of the shop${trail}`).toEqual([]);
      // the originals went with the merchant's data: what Shopify serves is theirs now, words included
      m.latest = served;
      m.words = await wordsNow(r.emu);
    } else {
      expect((await objectsOf(r.shop.id)).sort(), `the uninstall took objects before shop/redact${trail}`).toEqual(held);
    }
    const grant = await r.emu.install();
    r.otherAppToken = grant.access_token;
    r.shop = await completeInstall(env, db(), r.emu.domain, grant, createLogger({ test: 'store-life' }));
    await deliverQueued(r); // the reinstall's catalogue sync
    await checkInvariants(m, r);
  }
  toString = () =>
    `merchant uninstalls with ${this.pending} messages still queued, and installs again ${this.hours} hours later${
      this.hours >= 48 ? ' (after shop/redact)' : ''
    }`;
}

/** Something done to the store: logged, done, then heard of by the product (sync, automatic mode) and checked. */
abstract class StoreEvent implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  /** How the event reads in a failing sequence. */
  abstract toString: () => string;
  /** Does it and tells the model the merchant's latest pictures; false when there was nothing to do. */
  abstract act(m: Model, r: Real): Promise<boolean>;
  async run(m: Model, r: Real): Promise<void> {
    m.log.push(this.toString());
    if (await this.act(m, r)) await noticed(m, r);
  }
}

class FilesReplace extends StoreEvent {
  constructor(
    readonly k: number,
    readonly seed: string,
  ) {
    super();
  }
  async act(m: Model, r: Real): Promise<boolean> {
    const f = await pick(r, this.k);
    if (!f) return false;
    const after = await r.emu.replaceFile(f.id, { seed: this.seed });
    m.latest.set(f.id, after.sha256);
    m.words.set(f.id, { alt: after.alt, filename: after.filename });
    return true;
  }
  override toString = () => `Files > Replace #${this.k} with ${this.seed}`;
}

/** Another app's fileUpdate with a picture of its own (here: another image's URL as the source). */
class OtherAppUpdate extends StoreEvent {
  constructor(
    readonly k: number,
    readonly from: number,
  ) {
    super();
  }
  async act(m: Model, r: Real): Promise<boolean> {
    const f = await pick(r, this.k);
    const source = await pick(r, this.from);
    if (!f || !source || source.id === f.id || source.sha256 === f.sha256) return false;
    const res = await r.emu.graphql<{ fileUpdate: { userErrors: unknown[] } }>(
      `mutation($files: [FileUpdateInput!]!) { fileUpdate(files: $files) { userErrors { field message } } }`,
      { files: [{ id: f.id, originalSource: source.url }] },
      r.otherAppToken,
    );
    expect(res.body.data?.fileUpdate.userErrors).toEqual([]);
    const ready = await r.emu.waitForFile(f.id);
    m.latest.set(f.id, ready.sha256);
    return true;
  }
  override toString = () => `another app's fileUpdate #${this.k} from #${this.from}`;
}

/** The merchant edits an image's alt text, or renames its file, in the Shopify admin. */
class EditFile extends StoreEvent {
  constructor(
    readonly k: number,
    readonly edit: { alt: string } | { filename: string },
  ) {
    super();
  }
  async act(m: Model, r: Real): Promise<boolean> {
    const f = await pick(r, this.k);
    if (!f) return false;
    const patch =
      'filename' in this.edit
        ? { filename: `${this.edit.filename}-${f.id.replace(/\D/g, '')}.${f.filename.split('.').pop()}` }
        : this.edit;
    const edited = await r.emu.editFile(f.id, patch);
    m.words.set(f.id, { alt: edited.alt, filename: edited.filename });
    return true;
  }
  override toString = () => `merchant ${'filename' in this.edit ? 'renames the file of' : 'edits the alt text of'} #${this.k}`;
}

class ReplaceMedia extends StoreEvent {
  constructor(
    readonly k: number,
    readonly seed: string,
  ) {
    super();
  }
  async act(m: Model, r: Real): Promise<boolean> {
    const f = await pick(r, this.k);
    if (!f) return false;
    const product = await r.emu.replaceProductMedia(f.productIds[0]!, f.id, { seed: this.seed });
    m.latest.delete(f.id);
    m.words.delete(f.id);
    for (const media of product.media) {
      if (!m.latest.has(media.id)) m.latest.set(media.id, media.sha256);
      if (!m.words.has(media.id)) m.words.set(media.id, { alt: media.alt, filename: media.filename });
    }
    return true;
  }
  override toString = () => `merchant deletes image #${this.k} and adds ${this.seed}`;
}

/** The merchant picks another collection image. */
class CollectionImage extends StoreEvent {
  constructor(readonly seed: string) {
    super();
  }
  async act(m: Model, r: Real): Promise<boolean> {
    const collection = (await r.emu.collections())[0];
    if (!collection) return false;
    const changed = await r.emu.setCollectionImage(collection.id, { seed: this.seed });
    m.latest.set(`${collection.id}/image`, changed.image!.sha256);
    return true;
  }
  override toString = () => `merchant sets the collection image to ${this.seed}`;
}

/**
 * The merchant uses Files > Replace on image #k while the engine encodes it in an (re-)optimisation: the
 * picture the job read is no longer the one Shopify serves when the job's change goes up. Delivered one
 * message at a time through the image queue's handler logic, retries and dead letters included.
 */
class ReplacedWhileOptimised implements fc.AsyncCommand<Model, Real> {
  private reached = false;
  constructor(
    readonly kind: 'optimize' | 'reoptimize',
    readonly k: number,
    readonly seed: string,
  ) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    m.log.push(this.toString());
    this.reached = false; // fast-check runs a command again when it shrinks a failing life
    const f = await pick(r, this.k);
    const messages = await planTabJob(r.shop, this.kind, 1);
    await deliverQueued(r);
    const product = pipelineDeps(env, createLogger({ test: 'store-life' }));
    const during: PipelineDeps = {
      ...product,
      optimiseImage: async (input, settings) => {
        if (f && !this.reached) {
          this.reached = true;
          const after = await r.emu.replaceFile(f.id, { seed: this.seed });
          m.latest.set(f.id, after.sha256);
          m.words.set(f.id, { alt: after.alt, filename: after.filename });
        }
        return product.optimiseImage(input, settings);
      },
    };
    await deliverOneByOne(messages, product, async (msg) => {
      const row = await db().select().from(images).where(eq(images.id, msg.imageId)).get();
      return row?.imgId === f?.id ? during : product;
    });
    if (!this.reached) m.log.push('  (the engine never ran on it: nothing replaced)');
    await noticed(m, r);
  }
  toString = () =>
    `Files > Replace #${this.k} with ${this.seed} while ${this.kind === 'optimize' ? 'optimising' : 're-optimising'} it`;
}

/**
 * Image messages delivered one at a time through the image queue's handler logic, retries and the dead
 * letter included, each with the dependencies `depsFor` gives it.
 */
async function deliverOneByOne(
  messages: OptimiseMessage[],
  product: PipelineDeps,
  depsFor: (msg: OptimiseMessage) => Promise<PipelineDeps>,
): Promise<void> {
  for (const msg of messages) {
    const deps = await depsFor(msg);
    for (let attempts = 1; ; attempts++) {
      if ((await processOptimiseMessage(deps, msg, attempts)).ack) break;
      if (attempts > MAX_RETRIES) {
        await processDeadLetter(product, msg);
        break;
      }
    }
  }
}

/**
 * Shopify's webhook for our own change arrives at once: the catalogue sync records what Shopify took from
 * us (our alt text, file name, URL) before the job itself records it, on every image of an optimisation,
 * re-optimisation or restore. The words are still ours (a restore must undo them), and the merchant's stay theirs.
 */
class SyncedWhileWorking implements fc.AsyncCommand<Model, Real> {
  constructor(readonly kind: JobKind) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    m.log.push(this.toString());
    const before = await catalogueRows(r.shop.id);
    const chargesBefore = await ledgerCount(r.shop.id);
    const messages = [...(await planTabJob(r.shop, this.kind, 1)), ...(await planTabJob(r.shop, this.kind, 2))];
    await deliverQueued(r);
    const product = pipelineDeps(env, createLogger({ test: 'store-life' }));
    const syncing: PipelineDeps = {
      ...product,
      shopify: {
        ...product.shopify,
        updateImage: async (shop, target, update) => {
          const res = await product.shopify.updateImage(shop, target, update);
          await syncCatalogue(r.shop);
          return res;
        },
      },
    };
    await deliverOneByOne(messages, product, async () => syncing);
    if (this.kind === 'restore') await expectRestored(m, r, before, chargesBefore);
    await noticed(m, r);
  }
  toString = () => `${this.kind}, each change of ours synced back before the job records it`;
}

class ClockJump implements fc.AsyncCommand<Model, Real> {
  constructor(readonly days: number) {}
  check = () => true;
  async run(m: Model, r: Real): Promise<void> {
    m.log.push(this.toString());
    vi.setSystemTime(Date.now() + this.days * DAY);
    await passTime(r.shop.id);
    // Every cron of wrangler.toml once at the new time: quota reset, expiry, usage charges, the automatic
    // sweep, grant refresh, dead letters; what they queue is delivered before the checks.
    for (const cron of Object.values(CRON)) {
      const ctx = createExecutionContext();
      await dispatchScheduled({ cron, scheduledTime: Date.now(), noRetry: () => {} }, env, ctx);
      await waitOnExecutionContext(ctx);
    }
    await deliverQueued(r);
    await checkInvariants(m, r);
  }
  toString = () => `${this.days} days pass (every cron runs)`;
}

const jobs = fc
  .tuple(
    fc.constantFrom<JobKind | 'auto'>('optimize', 'reoptimize', 'restore', 'auto'),
    fc.constantFrom<Fault>('none', 'none', 'graphql-429', 'graphql-5xx', 'cdn-5xx', 'file-processing'),
    fc.constantFrom<Delivery>('once', 'twice', 'overlapping'),
  )
  .map(([k, f, delivery]) => new Job(k, f, delivery));

// Jobs twice: what the merchant asks of us comes as often as what happens to the store.
const commands = [
  jobs,
  jobs,
  fc.tuple(fc.nat(7), fc.constantFrom(...SEEDS)).map(([k, s]) => new FilesReplace(k, s)),
  fc
    .tuple(fc.constantFrom<'optimize' | 'reoptimize'>('optimize', 'reoptimize'), fc.nat(7), fc.constantFrom(...SEEDS))
    .map(([kind, k, s]) => new ReplacedWhileOptimised(kind, k, s)),
  fc.tuple(fc.nat(7), fc.nat(7)).map(([k, from]) => new OtherAppUpdate(k, from)),
  fc
    .tuple(fc.nat(7), fc.constantFrom({ alt: 'Blue mug on a table' }, { alt: '' }, { filename: 'merchant-name' }))
    .map(([k, edit]) => new EditFile(k, edit)),
  fc.tuple(fc.nat(7), fc.constantFrom(...SEEDS)).map(([k, s]) => new ReplaceMedia(k, s)),
  fc.integer({ min: 5, max: 35 }).map((d) => new ClockJump(d)),
  fc.constant(new Webhooks()),
  fc.constantFrom<JobKind>('optimize', 'reoptimize', 'restore').map((k) => new SyncedWhileWorking(k)),
  fc
    .tuple(fc.constantFrom<1 | 72>(1, 72), fc.constantFrom<'optimize' | 'restore'>('optimize', 'restore'))
    .map(([hours, pending]) => new UninstallReinstall(hours, pending)),
  fc.constantFrom(...SEEDS).map((seed) => new CollectionImage(seed)),
];

describe('a store over its life', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it(
    `keeps the five promises over ${RUNS} random lives of up to ${STEPS} steps`,
    { timeout: Math.max(240_000, RUNS * STEPS * 20_000) },
    async () => {
      let lives = 0;
      let steps = 0;
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: STEPS, size: 'max' }), fc.boolean(), async (cmds, synced) => {
          vi.useRealTimers();
          vi.restoreAllMocks();
          vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
          const queued = captureQueues();
          const emu = await createEmulatorShop({
            seed: 'large',
            products: 2,
            imagesPerProduct: 2,
            install: true,
            settings: { fileProcessingMs: 20 },
          });
          const shop = await installedShop(emu, { name: 'Life Shop', planLevel: 3 });
          // File names and alt text from templates on: the case where a restore must find the old name.
          const settings = defaultImageSettings();
          settings.file_name.switch = 1;
          settings.alt_text.switch = 1;
          settings.alt_text.blank_replace = 0; // every alt text rewritten: restores must bring the merchant's back
          settings.image_opt.blogs = 0; // 20 article images would only make each life slower
          await saveImageSettings(db(), shop.id, settings);
          await syncCatalogue(shop);
          const model: Model = {
            latest: await servedImages(emu),
            words: await wordsNow(emu),
            log: [],
          };
          lives++;
          steps += [...cmds].length;
          // Every life starts from a shop we optimised once (half of them with Shopify's webhooks for our own
          // changes synced back mid-job): what follows is the store's life after it.
          const real: Real = { emu, shop, queued, otherAppToken: emu.tokens!.access_token };
          await (synced ? new SyncedWhileWorking('optimize') : new Job('optimize', 'none')).run(model, real);
          await fc.asyncModelRun(() => ({ model, real }), cmds);
          console.info(`life ${lives}: ${model.log.join(' | ')}`);
        }),
        { numRuns: RUNS, verbose: 1, ...(SEED !== undefined ? { seed: SEED } : {}) },
      );
      console.info(`store life: ${lives} lives, ${steps} steps`);
      expect(steps, 'the lives ran no step').toBeGreaterThan(0);
    },
  );
});
