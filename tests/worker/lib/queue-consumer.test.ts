// The one shape of every queue consumer (worker/lib/queue-consumer.ts): validate, process, ack or retry with
// one backoff rule. Driven through real MessageBatch objects and, for every registered queue, through
// the dispatcher as Cloudflare calls it.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  ACK,
  backoffSeconds,
  consumeMessage,
  queueConsumer,
  retryIn,
  type ConsumerSpec,
  type Verdict,
} from '../../../worker/lib/queue-consumer';
import { dispatchQueue, queueHandlers } from '../../../worker/jobs/queue';
import { createLogger } from '../../../worker/lib/log';

const schema = z.object({ n: z.number() });
type Body = z.infer<typeof schema>;

function spec(
  process: ConsumerSpec<Body, null>['process'],
  more: Partial<ConsumerSpec<Body, null>> = {},
): ConsumerSpec<Body, null> {
  return {
    name: 'test_queue',
    schema,
    setup: () => null,
    process,
    backoff: { baseSeconds: 10, maxSeconds: 300 },
    parallel: false,
    ...more,
  };
}

/** One message through consumeMessage; what the queue was told (ack, or retry with which delay). */
async function deliver(s: ConsumerSpec<Body, null>, body: unknown, attempts = 1) {
  const batch = createMessageBatch<unknown>('test-queue', [{ id: 'm1', timestamp: new Date(), attempts, body }]);
  const delays: (number | undefined)[] = [];
  const message = batch.messages[0]!;
  const retry = message.retry.bind(message);
  message.retry = (options?: QueueRetryOptions) => {
    delays.push(options?.delaySeconds);
    retry(options);
  };
  const ctx = createExecutionContext();
  const verdict = await consumeMessage(s, null, message, createLogger());
  const result = await getQueueResult(batch, ctx);
  return { verdict, acked: result.explicitAcks.length, retried: result.retryMessages.length, delays };
}

function logged(spy: { mock: { calls: unknown[][] } }): { level?: string; event?: string }[] {
  return spy.mock.calls.map((c) => JSON.parse(String(c[0])) as { level?: string; event?: string });
}

afterEach(() => vi.restoreAllMocks());

describe('backoffSeconds: the one rule', () => {
  it('doubles from the base per delivery and stops at the cap', () => {
    const optimise = { baseSeconds: 10, maxSeconds: 300 };
    expect([1, 2, 3, 4, 5, 6, 7].map((a) => backoffSeconds(optimise, a))).toEqual([10, 20, 40, 80, 160, 300, 300]);
    const webhooks = { baseSeconds: 15, maxSeconds: 600 };
    expect([1, 2, 6, 11].map((a) => backoffSeconds(webhooks, a))).toEqual([15, 30, 480, 600]);
  });

  it('waits at least what the other side asked for, still capped, and adds the jitter last', () => {
    const psi = { baseSeconds: 30, maxSeconds: 900, jitterSeconds: 10 };
    const none = () => 0;
    expect(backoffSeconds(psi, 1, { atLeastSeconds: 120, random: none })).toBe(120);
    expect(backoffSeconds(psi, 3, { atLeastSeconds: 60, random: none })).toBe(120);
    expect(backoffSeconds(psi, 1, { atLeastSeconds: 5000, random: none })).toBe(900);
    expect(backoffSeconds(psi, 1, { random: () => 0.99 })).toBe(39);
    // No jitter configured: exact, whatever the random source says.
    expect(backoffSeconds({ baseSeconds: 10, maxSeconds: 300 }, 2, { random: () => 0.99 })).toBe(20);
  });

  it('a first delivery counted as 0 attempts still waits the base', () => {
    expect(backoffSeconds({ baseSeconds: 10, maxSeconds: 300 }, 0)).toBe(10);
  });
});

describe('consumeMessage', () => {
  it('an invalid body is logged and acked without being processed', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const process = vi.fn(async () => ACK);
    const r = await deliver(spec(process), { n: 'not a number' });
    expect(r).toMatchObject({ verdict: ACK, acked: 1, retried: 0 });
    expect(process).not.toHaveBeenCalled();
    expect(logged(errors).map((l) => l.event)).toEqual(['test_queue_bad_message']);
  });

  it("passes the parsed body and the delivery's attempts, and follows the verdict", async () => {
    const seen: unknown[] = [];
    const ack = await deliver(
      spec(async (_d, body, delivery) => (seen.push([body, delivery.attempts]), ACK)),
      { n: 1, extra: true },
      3,
    );
    expect(ack).toMatchObject({ acked: 1, retried: 0 });
    expect(seen).toEqual([[{ n: 1 }, 3]]);
    const later = await deliver(
      spec(async () => retryIn(15)),
      { n: 1 },
    );
    expect(later).toMatchObject({ acked: 0, retried: 1, delays: [15] });
  });

  it('a throw is retried with the backoff of the delivery; past max_retries it is logged as given up', async () => {
    const warns = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failing = spec(
      async () => {
        throw new Error('D1 unavailable');
      },
      { maxRetries: 5 },
    );
    const delays: (number | undefined)[] = [];
    for (let attempts = 1; attempts <= 6; attempts++) {
      const r = await deliver(failing, { n: 1 }, attempts);
      expect(r).toMatchObject({ acked: 0, retried: 1 });
      delays.push(...r.delays);
    }
    expect(delays).toEqual([10, 20, 40, 80, 160, 300]);
    expect(logged(warns).map((l) => l.event)).toEqual(Array(5).fill('test_queue_retry'));
    expect(logged(errors).map((l) => l.event)).toEqual(['test_queue_gave_up']);
  });
});

describe('queueConsumer', () => {
  async function runBatch(parallel: boolean) {
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const handler = queueConsumer(
      spec(
        async (_d, body): Promise<Verdict> => {
          running++;
          most = Math.max(most, running);
          await new Promise((r) => setTimeout(r, 5 * (4 - body.n)));
          order.push(body.n);
          running--;
          return body.n === 2 ? retryIn(30) : ACK;
        },
        { parallel },
      ),
    );
    const batch = createMessageBatch<unknown>(
      'test-queue',
      [1, 2, 3].map((n) => ({ id: `m${n}`, timestamp: new Date(), attempts: 1, body: { n } })),
    );
    const ctx = createExecutionContext();
    await handler(batch, env);
    const result = await getQueueResult(batch, ctx);
    return { most, order, acks: result.explicitAcks.sort(), retries: result.retryMessages.map((m) => m.msgId) };
  }

  it('one after the other, or side by side, each message decided on its own', async () => {
    const sequential = await runBatch(false);
    expect(sequential).toEqual({ most: 1, order: [1, 2, 3], acks: ['m1', 'm3'], retries: ['m2'] });
    const parallel = await runBatch(true);
    expect(parallel.most).toBe(3);
    expect(parallel.order).toEqual([3, 2, 1]);
    expect(parallel).toMatchObject({ acks: ['m1', 'm3'], retries: ['m2'] });
  });
});

describe('every registered queue', () => {
  it('acks a malformed message (logged, never retried forever) and retries nothing else from it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(Object.keys(queueHandlers).sort()).toEqual([
      'catalogue-sync',
      'catalogue-sync-dlq',
      'image-optimise',
      'image-optimise-dlq',
      'pagespeed-check',
      'pagespeed-check-dlq',
      'shopify-webhooks',
      'shopify-webhooks-dlq',
    ]);
    for (const queue of Object.keys(queueHandlers)) {
      const batch = createMessageBatch<unknown>(queue, [
        { id: 'junk', timestamp: new Date(), attempts: 1, body: { hello: 'world' } },
        { id: 'null', timestamp: new Date(), attempts: 1, body: null },
      ]);
      const ctx = createExecutionContext();
      await dispatchQueue(batch, env, ctx);
      const result = await getQueueResult(batch, ctx);
      expect({ queue, acks: result.explicitAcks.sort(), retries: result.retryMessages }).toEqual({
        queue,
        acks: ['junk', 'null'],
        retries: [],
      });
    }
  });
});
