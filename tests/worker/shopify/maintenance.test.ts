import { createScheduledController, env } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { claimWebhook } from '../../../worker/db/processed-webhooks';
import { processedWebhooks } from '../../../worker/db/schema';
import { findShopById } from '../../../worker/db/shops';
import { encryptSecret } from '../../../worker/lib/crypto';
import { needsAuthorisation } from '../../../worker/install/install';
import { refreshLapsingGrantsTask } from '../../../worker/shopify/maintenance';
import { pruneWebhookIdsTask } from '../../../worker/webhooks/maintenance';
import { eq } from 'drizzle-orm';
import { createShop, db } from '../helpers';
import { installFakeShopify } from './fake-shopify';

let fake: ReturnType<typeof installFakeShopify> | undefined;
afterEach(() => fake?.restore());

const DAY = 86_400_000;

describe('grant upkeep', () => {
  it('renews grants whose refresh token lapses within a week, and leaves the others alone', async () => {
    fake = installFakeShopify();
    const enc = (t: string) => encryptSecret(env.TOKEN_ENCRYPTION_KEY, t);
    const { shop: lapsing } = await createShop({
      accessTokenEnc: await enc('a'),
      accessTokenExpiresAt: Date.now() - 1000,
      refreshTokenEnc: await enc('r'),
      refreshTokenExpiresAt: Date.now() + 2 * DAY,
    });
    const { shop: healthy } = await createShop({
      accessTokenEnc: await enc('b'),
      accessTokenExpiresAt: Date.now() - 1000,
      refreshTokenEnc: await enc('r2'),
      refreshTokenExpiresAt: Date.now() + 60 * DAY,
    });
    await refreshLapsingGrantsTask(createScheduledController({ cron: '*/30 * * * *', scheduledTime: Date.now() }), env);
    expect(fake.stats.refresh).toBe(1);
    expect((await findShopById(db(), lapsing.id))!.refreshTokenExpiresAt).toBeGreaterThan(Date.now() + 80 * DAY);
    expect((await findShopById(db(), healthy.id))!.refreshTokenExpiresAt).toBe(healthy.refreshTokenExpiresAt);
  });

  it('forgets webhook ids older than the retry window only', async () => {
    await claimWebhook(db(), 'old-id', 'x.myshopify.com', 'products/update');
    await db()
      .update(processedWebhooks)
      .set({ receivedAt: Date.now() - 4 * DAY })
      .where(eq(processedWebhooks.webhookId, 'old-id'));
    await claimWebhook(db(), 'new-id', 'x.myshopify.com', 'products/update');
    await pruneWebhookIdsTask(createScheduledController({ cron: '30 2 * * *', scheduledTime: Date.now() }), env);
    const left = (await db().select().from(processedWebhooks).all()).map((r) => r.webhookId);
    expect(left).toContain('new-id');
    expect(left).not.toContain('old-id');
  });

  it('an expired token that cannot be renewed sends the shop back through OAuth', async () => {
    const { shop } = await createShop({
      accessTokenEnc: 'x',
      accessTokenExpiresAt: Date.now() - 1000,
      refreshTokenEnc: 'y',
      refreshTokenExpiresAt: Date.now() - 1000,
      scopes: env.SHOPIFY_SCOPES,
    });
    expect(needsAuthorisation(shop, env.SHOPIFY_SCOPES)).toBe(true);
    expect(needsAuthorisation({ ...shop, refreshTokenExpiresAt: Date.now() + DAY }, env.SHOPIFY_SCOPES)).toBe(false);
  });
});
