// The real product against the store emulator, driven the way production drives it: catalogue syncs
// through the catalogue queue consumer, jobs planned by planJob and delivered to the image queue
// handler (retries redelivered with attempts + 1, the last one handed to the dead-letter handler), the
// expiry cron, and R2's 30-day lifecycle rule, which Miniflare does not run, played here from each
// object's `storedAt` (the time the Worker wrote it, which is when R2 starts counting).
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { catalogueSyncConsumer } from '../../../worker/catalogue/consumer';
import { createDb } from '../../../worker/db/client';
import type { ShopRow } from '../../../worker/db/shops';
import { encryptSecret } from '../../../worker/lib/crypto';
import { ApiError } from '../../../worker/lib/errors';
import { createLogger } from '../../../worker/lib/log';
import { shopPrefixes } from '../../../worker/lib/r2-keys';
import type { OptimiseMessage } from '../../../worker/messages/optimise';
import { enqueueAutomatic } from '../../../worker/optimise/auto';
import { MAX_RETRIES } from '../../../worker/optimise/consumer';
import { quotaPort } from '../../../worker/optimise/deps';
import { sweepExpired } from '../../../worker/optimise/expiry';
import { handleOptimiseBatch, handleOptimiseDeadLetters } from '../../../worker/optimise/handlers';
import { planJob, type PlanDeps } from '../../../worker/optimise/plan';
import { KEEP_MS } from '../../../worker/optimise/run-context';
import type { EmulatorShop } from '../emulator-client';
import { createShop, db } from '../helpers';

/** The shop row of an emulator shop installed with its real (expiring) tokens. */
export async function installedShop(emu: EmulatorShop, fields: { name: string; planLevel: number }): Promise<ShopRow> {
  const t = emu.tokens!;
  const enc = (v: string) => encryptSecret(env.TOKEN_ENCRYPTION_KEY, v);
  const { shop } = await createShop({
    domain: emu.domain,
    ...fields,
    accessTokenEnc: await enc(t.access_token),
    accessTokenExpiresAt: Date.now() + (t.expires_in ?? 3600) * 1000,
    refreshTokenEnc: t.refresh_token ? await enc(t.refresh_token) : null,
    refreshTokenExpiresAt: t.refresh_token_expires_in ? Date.now() + t.refresh_token_expires_in * 1000 : null,
  });
  return shop;
}

/** A full catalogue sync through the catalogue queue consumer (its bulk operation polled until done). */
export async function syncCatalogue(shop: ShopRow): Promise<void> {
  for (let attempt = 1; attempt <= 60; attempt++) {
    const batch = createMessageBatch('catalogue-sync', [
      { id: `sync-${attempt}`, timestamp: new Date(), attempts: attempt, body: { type: 'sync', shopId: shop.id } },
    ]);
    await catalogueSyncConsumer(batch, env);
    const result = await getQueueResult(batch, createExecutionContext());
    if (result.explicitAcks.length > 0) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('catalogue sync never finished');
}

type Sent = OptimiseMessage[];

function captureQueue(sent: Sent) {
  return {
    send: async (b: unknown) => void sent.push(b as OptimiseMessage),
    sendBatch: async (ms: Iterable<{ body: unknown }>) => void [...ms].forEach((m) => sent.push(m.body as OptimiseMessage)),
  } as unknown as Queue;
}

export function planDepsCapturing(sent: Sent): PlanDeps {
  const d = db();
  return { db: d, queue: captureQueue(sent), log: createLogger(), now: Date.now, canOptimise: quotaPort(d).canOptimise };
}

export type DeliveryFigures = { deliveries: number; retried: number; deadLettered: number };

/**
 * Delivers the messages to the image queue handler until none is left: retried ones come back with
 * attempts + 1, past max_retries they go to the dead-letter handler. `beforeBatch` may inject faults.
 */
export async function drainOptimiseQueue(
  messages: Sent,
  opts: { batchSize?: number; beforeBatch?: () => Promise<void>; afterRetries?: () => Promise<void>; attempts?: number } = {},
  figures: DeliveryFigures = { deliveries: 0, retried: 0, deadLettered: 0 },
): Promise<DeliveryFigures> {
  const batchSize = opts.batchSize ?? 4;
  let pending = messages.map((body) => ({ body, attempts: opts.attempts ?? 1 }));
  while (pending.length > 0) {
    const next: typeof pending = [];
    for (let i = 0; i < pending.length; i += batchSize) {
      const slice = pending.slice(i, i + batchSize);
      await opts.beforeBatch?.();
      const live = slice.filter((m) => m.attempts <= MAX_RETRIES + 1);
      const dead = slice.filter((m) => m.attempts > MAX_RETRIES + 1);
      if (live.length) {
        const batch = createMessageBatch(
          'image-optimise',
          live.map((m, k) => ({ id: `m${k}`, timestamp: new Date(), attempts: m.attempts, body: m.body })),
        );
        await handleOptimiseBatch(batch, env);
        const result = await getQueueResult(batch, createExecutionContext());
        figures.deliveries += live.length;
        for (const r of result.retryMessages) {
          const m = live[Number(r.msgId.slice(1))]!;
          figures.retried += 1;
          next.push({ body: m.body, attempts: m.attempts + 1 });
        }
      }
      if (dead.length) {
        await opts.afterRetries?.();
        const batch = createMessageBatch(
          'image-optimise-dlq',
          dead.map((m, k) => ({ id: `d${k}`, timestamp: new Date(), attempts: 1, body: m.body })),
        );
        await handleOptimiseDeadLetters(batch, env);
        figures.deadLettered += dead.length;
      }
    }
    pending = next;
  }
  return figures;
}

/**
 * Every message delivered twice AT THE SAME TIME (at least once: the queue delivers a message again while
 * its first delivery still runs in another isolate), each batch's two deliveries side by side. What either
 * delivery asks to retry comes back afterwards, one delivery at a time, as the retry delay would have it.
 */
export async function overlapOptimiseQueue(
  messages: Sent,
  opts: { batchSize?: number; beforeBatch?: () => Promise<void>; afterRetries?: () => Promise<void> } = {},
): Promise<DeliveryFigures> {
  const batchSize = opts.batchSize ?? 4;
  const figures: DeliveryFigures = { deliveries: 0, retried: 0, deadLettered: 0 };
  const again: Sent = [];
  for (let i = 0; i < messages.length; i += batchSize) {
    const slice = messages.slice(i, i + batchSize);
    await opts.beforeBatch?.();
    const deliver = async (copy: string) => {
      const batch = createMessageBatch(
        'image-optimise',
        slice.map((body, k) => ({ id: `${copy}${k}`, timestamp: new Date(), attempts: 1, body })),
      );
      await handleOptimiseBatch(batch, env);
      const result = await getQueueResult(batch, createExecutionContext());
      return result.retryMessages.map((r) => slice[Number(r.msgId.slice(copy.length))]!);
    };
    const retried = (await Promise.all([deliver('a'), deliver('b')])).flat();
    figures.deliveries += slice.length * 2;
    figures.retried += retried.length;
    again.push(...retried);
  }
  return drainOptimiseQueue(again, { ...opts, beforeBatch: undefined, attempts: 2 }, figures);
}

export type JobKind = 'optimize' | 'restore' | 'reoptimize';

/** Plans a whole-tab job as the admin's call would, and returns its queue messages. */
export async function planTabJob(shop: ShopRow, processType: JobKind, dataType = 1): Promise<Sent> {
  const sent: Sent = [];
  await planJob(planDepsCapturing(sent), {
    shop,
    dataType,
    processType,
    pageType: processType === 'optimize' ? 1 : 0,
    pattern: 'manual',
    selection: { wholeTab: true },
  }).catch((err: unknown) => {
    // A refusal ("Select the correct state of the image operation": nothing selectable) changes nothing.
    if (!(err instanceof ApiError)) throw err;
  });
  return sent;
}

/** What automatic mode queues for the shop now (the half-hourly sweep and the catalogue consumer call this). */
export async function planAutomatic(shop: ShopRow): Promise<Sent> {
  const sent: Sent = [];
  await enqueueAutomatic(planDepsCapturing(sent), shop.id);
  return sent;
}

/**
 * R2's lifecycle rule (`originals/` and `uploads/` deleted 30 days after they were written), played at the
 * current (possibly moved) clock, then the daily expiry cron.
 */
export async function passTime(shopId: number): Promise<{ deletedByLifecycle: number }> {
  let deletedByLifecycle = 0;
  for (const prefix of shopPrefixes(shopId).filter((p) => p.startsWith('originals/') || p.startsWith('uploads/'))) {
    const listed = await env.BUCKET.list({ prefix, include: ['customMetadata'] });
    for (const obj of listed.objects) {
      const storedAt = Number(obj.customMetadata?.storedAt ?? obj.uploaded.getTime());
      if (storedAt + KEEP_MS <= Date.now()) {
        await env.BUCKET.delete(obj.key);
        deletedByLifecycle++;
      }
    }
  }
  await sweepExpired({ db: createDb(env.DB), bucket: env.BUCKET, log: createLogger(), now: Date.now });
  return { deletedByLifecycle };
}
