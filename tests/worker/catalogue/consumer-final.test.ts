// Failures no retry can fix are final in the catalogue-sync consumer: the message is acked (not
// retried for days) and the sync status row records why.
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { catalogueSyncConsumer } from '../../../worker/catalogue/consumer';
import { claimFirstSync, getSyncStatus } from '../../../worker/db/catalogue-syncs';
import { createShop, db } from '../helpers';

async function consume(body: unknown) {
  const batch = createMessageBatch('catalogue-sync', [
    { id: `m-${crypto.randomUUID()}`, timestamp: new Date(), attempts: 1, body },
  ]);
  await catalogueSyncConsumer(batch, env);
  return getQueueResult(batch, createExecutionContext());
}

/** Installed, but the access token expired and there is no refresh token: ShopifyReauthRequiredError. */
const lapsedGrant = () =>
  createShop({
    accessTokenEnc: 'stale',
    accessTokenExpiresAt: Date.now() - 60_000,
    refreshTokenEnc: null,
    refreshTokenExpiresAt: null,
  });

describe('catalogue-sync consumer: no usable grant', () => {
  it('a full sync needing reauthorisation is acked, not retried, and recorded as failed with the reason', async () => {
    const { shop } = await lapsedGrant();
    const result = await consume({ type: 'sync', shopId: shop.id });
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toHaveLength(1);
    const status = await getSyncStatus(db(), shop.id);
    expect(status?.status).toBe('failed');
    expect(status?.error).toMatch(/^reauth_required: .*re-authorise/);
  });

  it('a webhook-driven product update needing reauthorisation is final too', async () => {
    const { shop } = await lapsedGrant();
    await claimFirstSync(db(), shop.id);
    const result = await consume({
      type: 'product_changed',
      shopId: shop.id,
      resourceId: '1',
      gid: 'gid://shopify/Product/1',
      updatedAt: new Date().toISOString(),
      webhookId: 'w1',
    });
    expect(result.retryMessages).toEqual([]);
    expect(result.explicitAcks).toHaveLength(1);
    expect((await getSyncStatus(db(), shop.id))?.error).toMatch(/^reauth_required: /);
  });
});
