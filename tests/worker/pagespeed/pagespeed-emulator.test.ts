import { createExecutionContext, createMessageBatch, env, getQueueResult, waitOnExecutionContext } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { dispatchQueue } from '../../../worker/jobs/queue';
import type { PagespeedCheckMessage } from '../../../worker/messages/pagespeed-check';
import { FAILURE_MESSAGES } from '../../../worker/pagespeed/score';
import { createEmulatorShop, pageSpeed } from '../emulator-client';
import { createShop } from '../helpers';

// The whole check against the PageSpeed Insights emulator (PAGESPEED_ORIGIN in tests): the dashboard
// asks, the queue consumer calls PSI for both strategies, the dashboard reads the result.

const sent: PagespeedCheckMessage[] = [];
const queue = {
  send: async (body: PagespeedCheckMessage) => void sent.push(body),
  sendBatch: async () => {},
} as unknown as Queue;
const testEnv = { ...env, PAGESPEED_QUEUE: queue } as Env;

beforeEach(() => {
  sent.length = 0;
});

async function api(path: string, headers: Record<string, string>, method = 'GET') {
  const { app } = await import('../../../worker/app');
  const ctx = createExecutionContext();
  const res = await app.request(path, { method, headers }, testEnv, ctx);
  await waitOnExecutionContext(ctx);
  return await res.json<Record<string, unknown>>();
}

async function deliverLast(attempts = 1) {
  const body = sent.at(-1);
  if (!body) throw new Error('no check was queued');
  const batch = createMessageBatch<unknown>('pagespeed-check', [
    { id: `m-${body.checkId}-${attempts}`, timestamp: Date.now(), attempts, body },
  ]);
  const ctx = createExecutionContext();
  await dispatchQueue(batch, testEnv, ctx);
  const result = await getQueueResult(batch, ctx);
  return { acked: result.explicitAcks.length, retried: result.retryMessages.length };
}

/** An emulator store with its own storefront host, so PSI rules never leak between tests. */
async function storeWithApp(settings: { storefrontPassword?: boolean } = {}) {
  const emulatorShop = await createEmulatorShop({ seed: 'empty', settings });
  const info = await emulatorShop.info();
  const { headers } = await createShop({ domain: emulatorShop.domain, primaryDomain: info.storefrontUrl });
  return { headers, host: new URL(info.storefrontUrl).host, storefrontUrl: info.storefrontUrl };
}

describe('page-speed score through the PSI emulator', () => {
  it('scores the primary domain on desktop and mobile', async () => {
    const { headers, host, storefrontUrl } = await storeWithApp();
    await pageSpeed.set({ host, mode: 'ok', desktop: 0.82, mobile: 0.41 });
    expect(await api('/api/v2/home/getPageSpeedScore', headers)).toMatchObject({ ack: 1, status: 0 });
    expect(await deliverLast()).toEqual({ acked: 1, retried: 0 });
    expect(await api('/api/v2/home/getPageSpeedScore', headers)).toEqual({
      ack: 1,
      message: 'success',
      status: 1,
      score: { pc: 82, mb: 41 },
      checked_at: expect.any(Number),
    });
    const calls = (await pageSpeed.calls()).filter((c) => c.url.startsWith(new URL(storefrontUrl).origin));
    expect(calls.map((c) => c.strategy).sort()).toEqual(['desktop', 'mobile']);
  });

  it('a password-protected storefront ends in the failed state with its message', async () => {
    const { headers } = await storeWithApp({ storefrontPassword: true });
    await api('/api/v2/home/refreshPageSpeedOnline', headers, 'POST');
    expect(await deliverLast()).toEqual({ acked: 1, retried: 0 });
    expect(await api('/api/v2/home/getPageSpeedScore', headers)).toMatchObject({
      status: 3,
      reason: 'password_protected',
      message: FAILURE_MESSAGES.password_protected,
    });
  });

  it('an unreachable storefront ends in the failed state with its message', async () => {
    const { headers, host } = await storeWithApp();
    await pageSpeed.set({ host, mode: 'unreachable' });
    await api('/api/v2/home/refreshPageSpeedOnline', headers, 'POST');
    expect(await deliverLast()).toEqual({ acked: 1, retried: 0 });
    expect(await api('/api/v2/home/getPageSpeedScore', headers)).toMatchObject({
      status: 3,
      reason: 'unreachable',
      message: FAILURE_MESSAGES.unreachable,
    });
  });

  it('429 from PSI: retried later, then ready', async () => {
    const { headers, host } = await storeWithApp();
    await pageSpeed.set({ host, mode: 'rate-limited', remaining: 2 });
    await api('/api/v2/home/refreshPageSpeedOnline', headers, 'POST');
    expect(await deliverLast(1)).toEqual({ acked: 0, retried: 1 });
    expect(await api('/api/v2/home/getPageSpeedScore', headers)).toMatchObject({ status: 2 });
    expect(await deliverLast(2)).toEqual({ acked: 1, retried: 0 });
    expect(await api('/api/v2/home/getPageSpeedScore', headers)).toMatchObject({ status: 1 });
  });
});
