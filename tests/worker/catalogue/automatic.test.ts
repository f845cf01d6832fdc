// Automatic mode end to end on the catalogue side: a merchant adds a product on Shopify, the webhook's
// queue message is consumed, and the new image is queued for optimisation at once (not at the next sweep).
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultImageSettings } from '../../../shared/image-settings';
import { catalogueSyncConsumer } from '../../../worker/catalogue/consumer';
import { saveImageSettings, setAutoSwitch } from '../../../worker/db/image-settings';
import { images, jobImages, jobs } from '../../../worker/db/schema';
import type { ShopRow } from '../../../worker/db/shops';
import { createEmulatorShop, type EmulatorShop } from '../emulator-client';
import { db } from '../helpers';
import { installedShopFor } from '../installed-shop';

async function deliver(body: unknown) {
  const batch = createMessageBatch('catalogue-sync', [{ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body }]);
  const ctx = createExecutionContext();
  await catalogueSyncConsumer(batch, env);
  return getQueueResult(batch, ctx);
}

const jobsOf = (shopId: number) => db().select().from(jobs).where(eq(jobs.shopId, shopId)).all();

async function productChanged(emu: EmulatorShop, shop: ShopRow, title: string) {
  const product = await emu.createProduct({ title, status: 'ACTIVE', published: true, images: [{ seed: 'photo' }] });
  const resourceId = product.id.replace(/^.*\//, '');
  const result = await deliver({
    type: 'product_changed',
    shopId: shop.id,
    resourceId,
    gid: product.id,
    updatedAt: product.updatedAt,
    webhookId: crypto.randomUUID(),
  });
  expect(result.explicitAcks).toHaveLength(1);
  return product;
}

describe('automatic mode from product webhooks', () => {
  let emu: EmulatorShop;
  let shop: ShopRow;
  beforeAll(async () => {
    emu = await createEmulatorShop({ seed: 'empty', install: true });
    shop = await installedShopFor(emu);
    await saveImageSettings(db(), shop.id, { ...defaultImageSettings(), is_default: 0 });
  });

  it('with automatic mode off, a new product is catalogued but nothing is queued', async () => {
    await productChanged(emu, shop, 'Manual mode product');
    expect(await db().select().from(images).where(eq(images.shopId, shop.id)).all()).toHaveLength(1);
    expect(await jobsOf(shop.id)).toHaveLength(0);
  });

  it('with automatic mode on, the new image is queued for optimisation straight away', async () => {
    await setAutoSwitch(db(), shop.id, 1);
    await productChanged(emu, shop, 'Automatic mode product');
    const autoJobs = (await jobsOf(shop.id)).filter((j) => j.processType === 'auto');
    expect(autoJobs.length).toBeGreaterThanOrEqual(1);
    const queued = await db().select().from(jobImages).where(eq(jobImages.shopId, shop.id)).all();
    // Both pending images (the one from manual mode too) are now covered, each once.
    expect(new Set(queued.map((q) => q.imageId)).size).toBe(queued.length);
    expect(queued.length).toBe(2);
  });
});
