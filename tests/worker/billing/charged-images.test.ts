import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { chargeImageOnce } from '../../../worker/billing/quota';
import { getImageWithItem, selectImages } from '../../../worker/db/images';
import { releaseReservedCharge } from '../../../worker/db/usage-ledger';
import { createShop, db } from '../helpers';
import { compressed, seedItem } from '../history/seed';

// `compressed` (is_compress) says our result replaced the image; `charged` says the image took its quota
// slot. They differ: a watermark that made the file larger is compressed but free, and an image that was
// charged and then re-optimised to "not smaller" is charged but no longer compressed.
describe('charged images', () => {
  it('reads charged from the ledger, apart from compressed', async () => {
    const { shop } = await createShop();
    const { imageIds } = await seedItem(shop.id, { dataType: 1, resourceId: '1' }, [
      compressed(1000, 1200, { watermarked: true }), // larger with the watermark: compressed, never charged
      { status: 'optimal', originalSize: 1000, optimisedSize: 1000 }, // charged once, now "not smaller"
      { status: 'pending' },
    ]);
    const [watermarked, optimal, pending] = imageIds as [number, number, number];
    expect(await chargeImageOnce(db(), shop, { imageId: optimal, jobId: 'job-a' })).toMatchObject({ ok: true, charged: true });

    const byId = async (id: number) => getImageWithItem(db(), shop.id, id);
    expect(await byId(watermarked)).toMatchObject({ image: { compressed: true }, charged: false });
    expect(await byId(optimal)).toMatchObject({ image: { compressed: false }, charged: true });
    expect(await byId(pending)).toMatchObject({ image: { compressed: false }, charged: false });

    const rows = await selectImages(db(), shop.id, 1, { wholeTab: true });
    expect(rows.map((r) => [r.image.id, r.charged])).toEqual([
      [watermarked, false],
      [optimal, true],
      [pending, false],
    ]);

    // A reservation given back (Shopify never confirmed the file) leaves the image uncharged again.
    await env.DB.prepare(`update images set step = 'replacing' where id = ?`).bind(optimal).run();
    expect(await releaseReservedCharge(db(), shop.id, optimal, 'job-a')).toBe(true);
    expect(await byId(optimal)).toMatchObject({ charged: false });
  });

  it('is scoped to the shop: another shop charging the same image id does not count', async () => {
    const { shop: a } = await createShop({ domain: 'charged-a.myshopify.com' });
    const { shop: b } = await createShop({ domain: 'charged-b.myshopify.com' });
    const { imageIds } = await seedItem(a.id, { dataType: 1, resourceId: '7' }, [{ status: 'pending' }]);
    const id = imageIds[0]!;
    expect(await chargeImageOnce(db(), b, { imageId: id, jobId: 'job-b' })).toMatchObject({ charged: true });
    expect(await getImageWithItem(db(), a.id, id)).toMatchObject({ charged: false });
  });
});
