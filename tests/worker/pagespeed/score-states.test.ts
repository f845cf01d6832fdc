import { createExecutionContext, createMessageBatch, env, getQueueResult, waitOnExecutionContext } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pagespeedScores } from '../../../worker/db/schema';
import { dispatchQueue } from '../../../worker/jobs/queue';
import { PAGESPEED_MAX_ATTEMPTS } from '../../../worker/pagespeed/check-consumer';
import type { PagespeedCheckMessage } from '../../../worker/messages/pagespeed-check';
import { FAILURE_MESSAGES, STALE_CHECK_MS } from '../../../worker/pagespeed/score';
import { createShop, db } from '../helpers';
import { PSI_ORIGIN, fakePsi, psiPasswordPage, psiRateLimited, psiScore, psiUnreachable } from './psi-fake';
import { PAGESPEED_COOLDOWN_MS } from '../../../worker/lib/limits';

const psi = fakePsi();
beforeAll(() => psi.server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => psi.server.close());
beforeEach(() => psi.reset());

/** The queue binding, recording instead of delivering: each test drives the consumer itself. */
function recordingQueue(fail = false) {
  const sent: PagespeedCheckMessage[] = [];
  const queue = {
    send: async (body: PagespeedCheckMessage) => {
      if (fail) throw new Error('queue unavailable');
      sent.push(body);
    },
    sendBatch: async () => {},
  } as unknown as Queue;
  return { queue, sent };
}

const testEnv = (queue: Queue) => ({ ...env, PAGESPEED_QUEUE: queue, PAGESPEED_ORIGIN: PSI_ORIGIN }) as Env;

async function callApi(queue: Queue, path: string, headers: Record<string, string>, method = 'GET') {
  const { app } = await import('../../../worker/app');
  const ctx = createExecutionContext();
  const res = await app.request(path, { method, headers }, testEnv(queue), ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: await res.json<Record<string, unknown>>() };
}

async function deliver(body: PagespeedCheckMessage, attempts = 1) {
  const batch = createMessageBatch<unknown>('pagespeed-check', [
    { id: `msg-${body.checkId}-${attempts}`, timestamp: Date.now(), attempts, body },
  ]);
  // getQueueResult does not report retry delays: record what the consumer asked for.
  const delays: (number | undefined)[] = [];
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    message.retry = (options?: QueueRetryOptions) => {
      delays.push(options?.delaySeconds);
      retry(options);
    };
  }
  const ctx = createExecutionContext();
  await dispatchQueue(batch, testEnv(recordingQueue().queue), ctx);
  const result = await getQueueResult(batch, ctx);
  return { acked: result.explicitAcks.length === 1, retries: result.retryMessages.map((_, i) => ({ delaySeconds: delays[i] })) };
}

/** The shop's checks as if requested before the recheck cooldown (worker/lib/limits.ts). */
const pastCooldown = (shopId: number) =>
  db()
    .update(pagespeedScores)
    .set({ requestedAt: Date.now() - PAGESPEED_COOLDOWN_MS - 1000 })
    .where(eq(pagespeedScores.shopId, shopId));

const rowsOf = (shopId: number) => db().select().from(pagespeedScores).where(eq(pagespeedScores.shopId, shopId)).all();

describe('getPageSpeedScore and refreshPageSpeedOnline', () => {
  it('status 0 on a shop never checked starts one check; then 2 until the consumer finishes; then 1', async () => {
    const { shop, headers } = await createShop({ primaryDomain: 'shop.example.com' });
    const { queue, sent } = recordingQueue();

    const first = await callApi(queue, '/api/v2/home/getPageSpeedScore', headers);
    expect(first).toEqual({
      status: 200,
      body: { ack: 1, message: 'success', score: { pc: 0, mb: 0 }, status: 0, checked_at: null },
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ type: 'check', shopId: shop.id });

    const polling = await callApi(queue, '/api/v2/home/getPageSpeedScore', headers);
    expect(polling.body).toMatchObject({ ack: 1, status: 2, score: { pc: 0, mb: 0 } });
    const recheck = await callApi(queue, '/api/v2/home/refreshPageSpeedOnline', headers, 'POST');
    expect(recheck.body).toMatchObject({ ack: 1 });
    expect(sent).toHaveLength(1); // a running check is never doubled

    psi.answer(psiScore(91, 48));
    const message = sent[0];
    if (!message) throw new Error('no message');
    expect(await deliver(message)).toEqual({ acked: true, retries: [] });
    expect(psi.calls.map((c) => c.strategy).sort()).toEqual(['desktop', 'mobile']);
    expect(psi.calls[0]).toMatchObject({ url: 'https://shop.example.com/', category: 'performance', key: env.PAGESPEED_API_KEY });

    const ready = await callApi(queue, '/api/v2/home/getPageSpeedScore', headers);
    const [row] = await rowsOf(shop.id);
    expect(ready.body).toEqual({
      ack: 1,
      message: 'success',
      score: { pc: 91, mb: 48 },
      status: 1,
      checked_at: row?.completedAt,
    });
    expect(row?.completedAt).toEqual(expect.any(Number));
  });

  it('Recheck after a finished check starts a new one and keeps the history', async () => {
    const { shop, headers } = await createShop();
    const { queue, sent } = recordingQueue();
    await callApi(queue, '/api/v2/home/refreshPageSpeedOnline', headers, 'POST');
    await deliver(sent[0] as PagespeedCheckMessage);
    psi.answer(psiScore(70, 35));
    // Within the per-shop cooldown a recheck is refused (issue 17); after it, a new check starts.
    expect((await callApi(queue, '/api/v2/home/refreshPageSpeedOnline', headers, 'POST')).status).toBe(429);
    await pastCooldown(shop.id);
    await callApi(queue, '/api/v2/home/refreshPageSpeedOnline', headers, 'POST');
    expect(sent).toHaveLength(2);

    // While the second runs, the dashboard keeps showing the first scores.
    expect((await callApi(queue, '/api/v2/home/getPageSpeedScore', headers)).body).toMatchObject({
      status: 2,
      score: { pc: 90, mb: 50 },
    });
    await deliver(sent[1] as PagespeedCheckMessage);
    expect((await callApi(queue, '/api/v2/home/getPageSpeedScore', headers)).body).toMatchObject({
      status: 1,
      score: { pc: 70, mb: 35 },
    });

    const history = await rowsOf(shop.id);
    expect(history.map((r) => [r.status, r.desktop, r.mobile])).toEqual([
      [1, 90, 50],
      [1, 70, 35],
    ]);
    expect(history.every((r) => r.url === `https://${shop.domain}/` && r.completedAt !== null)).toBe(true);
  });

  it('keeps every shop’s scores to itself', async () => {
    const a = await createShop();
    const b = await createShop();
    const { queue, sent } = recordingQueue();
    await callApi(queue, '/api/v2/home/refreshPageSpeedOnline', a.headers, 'POST');
    await deliver(sent[0] as PagespeedCheckMessage);
    expect((await callApi(queue, '/api/v2/home/getPageSpeedScore', b.headers)).body).toMatchObject({ status: 0 });
    // A message naming another shop's check does nothing.
    expect(await deliver({ type: 'check', shopId: b.shop.id, checkId: (sent[0] as PagespeedCheckMessage).checkId })).toEqual({
      acked: true,
      retries: [],
    });
  });

  it('a check whose message was lost counts as failed after 15 minutes and can be restarted', async () => {
    const { shop, headers } = await createShop();
    await db()
      .insert(pagespeedScores)
      .values({ shopId: shop.id, url: 'https://x/', status: 2, requestedAt: Date.now() - STALE_CHECK_MS - 1000 });
    const { queue, sent } = recordingQueue();
    expect((await callApi(queue, '/api/v2/home/getPageSpeedScore', headers)).body).toMatchObject({
      status: 3,
      reason: 'unavailable',
      message: FAILURE_MESSAGES.unavailable,
    });
    await callApi(queue, '/api/v2/home/refreshPageSpeedOnline', headers, 'POST');
    expect(sent).toHaveLength(1);
  });

  it('ends the check at once when the queue refuses the message', async () => {
    const { shop, headers } = await createShop();
    const res = await callApi(recordingQueue(true).queue, '/api/v2/home/refreshPageSpeedOnline', headers, 'POST');
    expect(res.status).toBe(500);
    expect((await rowsOf(shop.id)).map((r) => [r.status, r.error])).toEqual([[3, 'unavailable']]);
  });

  it('needs authentication', async () => {
    const res = await callApi(recordingQueue().queue, '/api/v2/home/getPageSpeedScore', {});
    expect(res.status).toBe(401);
  });
});

describe('pagespeed-check consumer: PSI failures', () => {
  async function startCheck() {
    const { shop, headers } = await createShop();
    const { queue, sent } = recordingQueue();
    await callApi(queue, '/api/v2/home/refreshPageSpeedOnline', headers, 'POST');
    return { shop, headers, queue, message: sent[0] as PagespeedCheckMessage };
  }

  it('429: keeps the strategy that succeeded, retries later with backoff, then runs only what is missing', async () => {
    const { shop, headers, queue, message } = await startCheck();
    psi.answer((call) => (call.strategy === 'mobile' ? psiRateLimited(120)(call) : psiScore(88, 0)(call)));
    const first = await deliver(message, 1);
    expect(first.acked).toBe(false);
    expect(first.retries).toHaveLength(1);
    expect(first.retries[0]?.delaySeconds).toBeGreaterThanOrEqual(120); // PSI's Retry-After wins over 30 s
    expect((await rowsOf(shop.id))[0]).toMatchObject({ status: 2, desktop: 88, mobile: null });

    psi.reset();
    psi.answer(psiScore(10, 42));
    expect(await deliver(message, 2)).toEqual({ acked: true, retries: [] });
    expect(psi.calls.map((c) => c.strategy)).toEqual(['mobile']);
    expect((await callApi(queue, '/api/v2/home/getPageSpeedScore', headers)).body).toMatchObject({
      status: 1,
      score: { pc: 88, mb: 42 },
    });
  });

  it('429 without Retry-After backs off 30 s, then 60 s', async () => {
    const { message } = await startCheck();
    psi.answer(psiRateLimited());
    const first = (await deliver(message, 1)).retries[0]?.delaySeconds ?? 0;
    const second = (await deliver(message, 2)).retries[0]?.delaySeconds ?? 0;
    expect(first).toBeGreaterThanOrEqual(30);
    expect(first).toBeLessThan(40);
    expect(second).toBeGreaterThanOrEqual(60);
    expect(second).toBeLessThan(70);
  });

  it('still rate limited on the last delivery: failed as unavailable, last good score kept', async () => {
    const { shop, headers, queue, message } = await startCheck();
    await deliver(message);
    await pastCooldown(shop.id);
    await callApi(queue, '/api/v2/home/refreshPageSpeedOnline', headers, 'POST');
    const latest = (await rowsOf(shop.id)).at(-1);
    if (!latest) throw new Error('no check');
    psi.answer(psiRateLimited());
    expect(await deliver({ type: 'check', shopId: shop.id, checkId: latest.id }, PAGESPEED_MAX_ATTEMPTS)).toEqual({
      acked: true,
      retries: [],
    });
    expect((await callApi(queue, '/api/v2/home/getPageSpeedScore', headers)).body).toEqual({
      ack: 1,
      status: 3,
      reason: 'unavailable',
      message: FAILURE_MESSAGES.unavailable,
      score: { pc: 90, mb: 50 },
      checked_at: expect.any(Number),
    });
  });

  it('password-protected store: failed with its own message, no retry', async () => {
    const { shop, headers, queue, message } = await startCheck();
    psi.answer(psiPasswordPage);
    expect(await deliver(message)).toEqual({ acked: true, retries: [] });
    expect((await callApi(queue, '/api/v2/home/getPageSpeedScore', headers)).body).toMatchObject({
      status: 3,
      reason: 'password_protected',
      message: FAILURE_MESSAGES.password_protected,
      score: { pc: 0, mb: 0 },
    });
    const [row] = await db()
      .select()
      .from(pagespeedScores)
      .where(and(eq(pagespeedScores.shopId, shop.id), eq(pagespeedScores.id, message.checkId)))
      .all();
    expect(row).toMatchObject({ status: 3, error: 'password_protected', desktop: null, mobile: null });
  });

  it('unreachable store: failed with its own message, no retry', async () => {
    const { headers, queue, message } = await startCheck();
    psi.answer(psiUnreachable);
    expect(await deliver(message)).toEqual({ acked: true, retries: [] });
    expect((await callApi(queue, '/api/v2/home/getPageSpeedScore', headers)).body).toMatchObject({
      status: 3,
      reason: 'unreachable',
      message: FAILURE_MESSAGES.unreachable,
    });
  });

  it('a second delivery of a finished check does nothing', async () => {
    const { message } = await startCheck();
    await deliver(message);
    psi.reset();
    expect(await deliver(message, 2)).toEqual({ acked: true, retries: [] });
    expect(psi.calls).toHaveLength(0);
  });

  it('acks a malformed message instead of burning its retries', async () => {
    expect(await deliver({ type: 'nope' } as unknown as PagespeedCheckMessage)).toEqual({ acked: true, retries: [] });
  });
});

describe('checked_at and getPageSpeedHistory (issue 23)', () => {
  /** A finished check at a given moment, as the consumer leaves it. */
  const finished = (shopId: number, at: number, desktop: number | null, mobile: number | null, status = 1) =>
    db()
      .insert(pagespeedScores)
      .values({ shopId, url: 'https://x.example/', status, desktop, mobile, requestedAt: at - 30_000, completedAt: at })
      .run();

  it('checked_at is when the scores shown were measured, also while a new check runs or after one failed', async () => {
    const { shop, headers } = await createShop();
    const { queue } = recordingQueue();
    const t0 = Date.now() - PAGESPEED_COOLDOWN_MS - 60_000;
    await finished(shop.id, t0, 77, 41);
    const score = async () => (await callApi(queue, '/api/v2/home/getPageSpeedScore', headers)).body;
    expect(await score()).toMatchObject({ status: 1, score: { pc: 77, mb: 41 }, checked_at: t0 });
    await finished(shop.id, t0 + 10_000, null, null, 3); // a later check failed: the last good scores and their time
    expect(await score()).toMatchObject({ status: 3, score: { pc: 77, mb: 41 }, checked_at: t0 });
    await callApi(queue, '/api/v2/home/refreshPageSpeedOnline', headers, 'POST');
    expect(await score()).toMatchObject({ status: 2, score: { pc: 77, mb: 41 }, checked_at: t0 });
  });

  it('lists the last finished checks oldest first, without failed or running ones, for this shop only', async () => {
    const { shop, headers } = await createShop();
    const other = await createShop();
    const { queue } = recordingQueue();
    const history = async (h: Record<string, string>) => (await callApi(queue, '/api/v2/home/getPageSpeedHistory', h)).body;
    expect(await history(headers)).toEqual({ ack: 1, message: 'success', data: { list: [] } });

    const base = Date.now() - 20 * 86_400_000;
    for (let i = 0; i < 12; i++) await finished(shop.id, base + i * 86_400_000, 60 + i, 30 + i);
    await finished(shop.id, base + 12.5 * 86_400_000, null, null, 3);
    await finished(other.shop.id, base, 99, 99);
    const { data } = (await history(headers)) as { data: { list: { checked_at: number; pc: number; mb: number }[] } };
    expect(data.list).toHaveLength(10);
    expect(data.list[0]).toEqual({ checked_at: base + 2 * 86_400_000, pc: 62, mb: 32 });
    expect(data.list.at(-1)).toEqual({ checked_at: base + 11 * 86_400_000, pc: 71, mb: 41 });
    expect(data.list.map((p) => p.checked_at)).toEqual([...data.list.map((p) => p.checked_at)].sort((a, b) => a - b));
    expect(((await history(other.headers)) as { data: { list: unknown[] } }).data.list).toEqual([
      { checked_at: base, pc: 99, mb: 99 },
    ]);
  });
});
