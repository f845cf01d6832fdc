import { and, eq, inArray, like, lt, not, sql } from 'drizzle-orm';
import type { Db } from './client';
import { processedWebhooks, shops } from './schema';
import type { ShopRow } from './shops';

/**
 * One row per delivery, keyed by its X-Shopify-Webhook-Id or, for the topics whose replay could change
 * something, by a keyed hash of the signed body (worker/webhooks/receive.ts `deliveryKey`: the id is not
 * signed, so a captured body replayed under a new id must still find its record). Shopify delivers at
 * least once, and retries a delivery it timed out on (5 s) even when the first attempt is still running.
 * The row is the arbiter of exactly-once:
 * - 'received': a request holds the delivery until `lease_until` (its handler runs, or it enqueues);
 * - 'queued':   the work is durably on the webhook queue; the consumer will run it;
 * - 'running':  the queue consumer holds it until `lease_until`;
 * - 'done':     the work is finished.
 * A delivery counts as handled ('duplicate' for Shopify) only from 'queued' on: never before its work is
 * done or durably enqueued. (`webhook_id` holds the key; the column keeps its old name.)
 */
export type DeliveryStatus = 'received' | 'queued' | 'running' | 'done';

export type DeliveryRow = typeof processedWebhooks.$inferSelect;

/** A request's hold on a delivery; long enough for any inline handler, short enough for a timely retry. */
export const RECEIVE_LEASE_MS = 60_000;
/** The consumer's hold: a queued handler may page through many R2 objects. */
export const WORK_LEASE_MS = 10 * 60_000;

/**
 * Claims a delivery for this request: a new id, or one whose previous holder's lease ran out without
 * finishing (it crashed or was cut off). False when it is handled, queued, or held by a live request.
 */
export async function claimWebhook(
  db: Db,
  webhookId: string,
  shopDomain: string,
  topic: string,
  now = Date.now(),
  leaseMs = RECEIVE_LEASE_MS,
): Promise<boolean> {
  return (await claimStatement(db, webhookId, shopDomain, topic, now, leaseMs).all()).length === 1;
}

/**
 * claimWebhook and the shop row the inline handlers need, in one D1 round trip: a product import sends
 * thousands of deliveries a minute, each pays for its round trips. `recordedDomain`: the shop domain the
 * record keeps ('' for a body key, which may outlive the shop's data).
 */
export async function claimWebhookWithShop(
  db: Db,
  webhookId: string,
  shopDomain: string,
  topic: string,
  now = Date.now(),
  recordedDomain = shopDomain,
): Promise<{ claimed: boolean; shop: ShopRow | undefined }> {
  const [claim, shop] = await db.batch([
    claimStatement(db, webhookId, recordedDomain, topic, now, RECEIVE_LEASE_MS),
    db.select().from(shops).where(eq(shops.domain, shopDomain)).limit(1),
  ]);
  return { claimed: claim.length === 1, shop: shop[0] };
}

function claimStatement(db: Db, webhookId: string, shopDomain: string, topic: string, now: number, leaseMs: number) {
  return db
    .insert(processedWebhooks)
    .values({ webhookId, shopDomain, topic, receivedAt: now, status: 'received', leaseUntil: now + leaseMs })
    .onConflictDoUpdate({
      target: processedWebhooks.webhookId,
      set: { status: 'received', leaseUntil: now + leaseMs },
      setWhere: and(eq(processedWebhooks.status, 'received'), lt(processedWebhooks.leaseUntil, now)),
    })
    .returning({ id: processedWebhooks.webhookId });
}

export async function findDelivery(db: Db, webhookId: string): Promise<DeliveryRow | undefined> {
  return db.select().from(processedWebhooks).where(eq(processedWebhooks.webhookId, webhookId)).get();
}

/** Moves a delivery on, only from the state its caller holds (the consumer may already have moved it). */
export async function advanceDelivery(db: Db, webhookId: string, from: DeliveryStatus, to: DeliveryStatus): Promise<void> {
  await db
    .update(processedWebhooks)
    .set({ status: to, leaseUntil: null })
    .where(and(eq(processedWebhooks.webhookId, webhookId), eq(processedWebhooks.status, from)));
}

/** Undoes a request's claim when its work failed, so Shopify's retry is processed instead of skipped. */
export async function releaseWebhook(db: Db, webhookId: string): Promise<void> {
  await db
    .delete(processedWebhooks)
    .where(and(eq(processedWebhooks.webhookId, webhookId), eq(processedWebhooks.status, 'received')));
}

/**
 * Ends a delivery held in `from`: recorded as done, or (`forget`: its handler changed nothing) removed, so
 * the record of a refused body can never make a later genuine delivery of the same body a duplicate.
 */
export async function finishDelivery(db: Db, key: string, from: DeliveryStatus, forget: boolean): Promise<void> {
  if (!forget) return advanceDelivery(db, key, from, 'done');
  await db.delete(processedWebhooks).where(and(eq(processedWebhooks.webhookId, key), eq(processedWebhooks.status, from)));
}

/**
 * The queue consumer claims the work of a delivery: queued, still marked received (the request enqueued
 * but had not yet recorded it), missing (the record failed after the send), or running under a lease that
 * ran out. False when it is done or another consumer holds a live lease.
 */
export async function claimWebhookWork(
  db: Db,
  d: { webhookId: string; shopDomain: string; topic: string },
  now = Date.now(),
  leaseMs = WORK_LEASE_MS,
): Promise<boolean> {
  const rows = await db
    .insert(processedWebhooks)
    .values({ ...d, receivedAt: now, status: 'running', leaseUntil: now + leaseMs })
    .onConflictDoUpdate({
      target: processedWebhooks.webhookId,
      set: { status: 'running', leaseUntil: now + leaseMs },
      setWhere: sql`${processedWebhooks.status} IN ('queued', 'received') OR (${processedWebhooks.status} = 'running' AND ${processedWebhooks.leaseUntil} < ${now})`,
    })
    .returning({ id: processedWebhooks.webhookId })
    .all();
  return rows.length === 1;
}

/** The consumer gives the work back after a failure: the queue's retry claims it again. */
export async function requeueWebhookWork(db: Db, webhookId: string): Promise<void> {
  await db
    .update(processedWebhooks)
    .set({ status: 'queued', leaseUntil: null })
    .where(and(eq(processedWebhooks.webhookId, webhookId), inArray(processedWebhooks.status, ['running'])));
}

/**
 * Forgets webhook ids received before `idsBefore` (Shopify retries a delivery with the same id for 4
 * hours, 48 before September 2024) and body keys (`keyPrefix`) received before `bodyKeysBefore`.
 */
export async function pruneProcessedWebhooks(
  db: Db,
  idsBefore: number,
  bodyKeys?: { keyPrefix: string; before: number },
): Promise<void> {
  if (!bodyKeys) {
    await db.delete(processedWebhooks).where(lt(processedWebhooks.receivedAt, idsBefore));
    return;
  }
  const isBodyKey = like(processedWebhooks.webhookId, `${bodyKeys.keyPrefix}%`);
  await db.batch([
    db.delete(processedWebhooks).where(and(lt(processedWebhooks.receivedAt, idsBefore), not(isBodyKey))),
    db.delete(processedWebhooks).where(and(lt(processedWebhooks.receivedAt, bodyKeys.before), isBodyKey)),
  ]);
}
