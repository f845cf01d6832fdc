import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as s from '../../worker/db/schema';
import { createShop, db } from './helpers';

// Every table: a row goes in and comes back field for field, and the constraints the product relies on
// (uniqueness that makes charges and webhooks idempotent, cascades on shop deletion) hold.
describe('schema round trips', () => {
  it('shops, settings, items, images, jobs and job images', async () => {
    const { shop } = await createShop({
      planLevel: 3,
      language: 'ja',
      overageEnabled: true,
      hasUsageCap: true,
      billingCycleDay: 17,
    });
    expect(shop).toMatchObject({
      planLevel: 3,
      language: 'ja',
      overageEnabled: true,
      hasUsageCap: true,
      billingCycleDay: 17,
      setupGuidePending: true,
    });
    expect(shop.createdAt).toBeGreaterThan(Date.now() - 60_000);

    const imageOpt = { switch: 1, product: 1, collection: 1, blogs: 0, quality: { custom: 0, lossless: 0, custom_ratio: 75 } };
    const settings = await db()
      .insert(s.imageSettings)
      .values({ shopId: shop.id, imageOpt, altText: { switch: 0 }, fileName: { switch: 0 } })
      .returning()
      .get();
    expect(settings.imageOpt).toEqual(imageOpt);
    expect(settings.usingDefaults).toBe(true);

    const item = await db()
      .insert(s.items)
      .values({ shopId: shop.id, dataType: 1, resourceId: '1001', title: 'Blue Shirt', vendor: 'Acme' })
      .returning()
      .get();
    const image = await db()
      .insert(s.images)
      .values({
        shopId: shop.id,
        itemId: item.id,
        imgId: 'gid://shopify/MediaImage/1',
        src: 'https://cdn/x.jpg',
        originalSize: 1000,
        optimisedSize: 400,
        savedPercent: 60.25,
      })
      .returning()
      .get();
    expect(image).toMatchObject({ savedPercent: 60.25, status: 'pending', compressed: false });

    const job = await db()
      .insert(s.jobs)
      .values({ id: crypto.randomUUID(), shopId: shop.id, dataType: 1, processType: 'optimize', total: 1 })
      .returning()
      .get();
    const ji = await db()
      .insert(s.jobImages)
      .values({ jobId: job.id, imageId: image.id, itemId: item.id, shopId: shop.id })
      .returning()
      .get();
    expect(ji.status).toBe('queued');

    await expect(db().insert(s.items).values({ shopId: shop.id, dataType: 1, resourceId: '1001' }).run()).rejects.toThrow();
  });

  it('the usage ledger charges an image once', async () => {
    const { shop } = await createShop();
    const row = { shopId: shop.id, chargeKey: 'image:7', imageId: 7, periodStart: 0 };
    await db().insert(s.usageLedger).values(row).run();
    await db().insert(s.usageLedger).values(row).onConflictDoNothing().run();
    const rows = await db().select().from(s.usageLedger).where(eq(s.usageLedger.shopId, shop.id)).all();
    expect(rows).toHaveLength(1);
    await expect(db().insert(s.usageLedger).values(row).run()).rejects.toThrow();
  });

  it('usage charges, scores, switches, contacts, reviews, selections, webhooks, oauth states and sync', async () => {
    const { shop } = await createShop();
    const charge = await db()
      .insert(s.usageCharges)
      .values({ shopId: shop.id, idempotencyKey: 'p0:1', periodStart: 0, imageCount: 1000, amountCents: 499 })
      .returning()
      .get();
    expect(charge).toMatchObject({ amountCents: 499, status: 'pending' });
    const score = await db()
      .insert(s.pagespeedScores)
      .values({ shopId: shop.id, url: 'https://shop.test', desktop: 91, mobile: 55, status: 1 })
      .returning()
      .get();
    expect(score).toMatchObject({ desktop: 91, mobile: 55 });
    const sw = await db().insert(s.appSwitches).values({ shopId: shop.id, name: 'extra_adver', state: 1 }).returning().get();
    expect(sw).toMatchObject({ name: 'extra_adver', state: 1, expiry: 0 });
    const contact = await db()
      .insert(s.contactMessages)
      .values({
        shopId: shop.id,
        kind: 'quota_request',
        name: 'A',
        email: 'a@b.c',
        description: 'More please',
        path: '/image_optimisation',
      })
      .returning()
      .get();
    expect(contact.kind).toBe('quota_request');
    expect((await db().insert(s.reviewScores).values({ shopId: shop.id, score: 5 }).returning().get()).score).toBe(5);
    expect(
      (await db().insert(s.userSelections).values({ shopId: shop.id, key: 'promo_banner', value: 'closed' }).returning().get())
        .value,
    ).toBe('closed');
    const hook = { webhookId: crypto.randomUUID(), shopDomain: shop.domain, topic: 'products/update' };
    await db().insert(s.processedWebhooks).values(hook).run();
    await expect(db().insert(s.processedWebhooks).values(hook).run()).rejects.toThrow();
    expect(
      (await db().insert(s.oauthStates).values({ state: 'abc', shopDomain: shop.domain, expiresAt: 1 }).returning().get()).state,
    ).toBe('abc');
    expect(
      (await db().insert(s.catalogueSyncs).values({ shopId: shop.id, status: 'running', imageCount: 12 }).returning().get())
        .imageCount,
    ).toBe(12);
  });

  it('deleting a shop removes every row that belongs to it', async () => {
    const { shop } = await createShop();
    const item = await db().insert(s.items).values({ shopId: shop.id, dataType: 2, resourceId: '9' }).returning().get();
    await db().insert(s.images).values({ shopId: shop.id, itemId: item.id, imgId: 'gid://shopify/CollectionImage/9' }).run();
    await db().insert(s.reviewScores).values({ shopId: shop.id, score: 3 }).run();
    await db().delete(s.shops).where(eq(s.shops.id, shop.id)).run();
    expect(await db().select().from(s.items).where(eq(s.items.shopId, shop.id)).all()).toHaveLength(0);
    expect(await db().select().from(s.images).where(eq(s.images.shopId, shop.id)).all()).toHaveLength(0);
    expect(await db().select().from(s.reviewScores).where(eq(s.reviewScores.shopId, shop.id)).all()).toHaveLength(0);
  });
});
