// The image lease's own rules (worker/optimise/lease.ts): one delivery holds it, retaken only once it
// expired, renewed by every write and on a timer while async work waits. Timers are faked, D1 is real.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimImage, releaseImage } from '../../../worker/db/images';
import { createLogger } from '../../../worker/lib/log';
import { LeaseLostError, leasedImage } from '../../../worker/optimise/lease';
import { createShop, db } from '../helpers';
import { fakeShopify, imageRow, seedItem } from './fixtures';

const LEASE = 90_000;

async function heldImage() {
  const { shop } = await createShop();
  const { images } = await seedItem(shop, fakeShopify().cdn);
  const clock = { now: 1_000_000 };
  const deps = { db: db(), now: () => clock.now, leaseMs: LEASE, log: createLogger({ test: 'lease' }) };
  expect(await claimImage(db(), shop.id, images[0]!.id, { jobId: 'job', token: 'a' }, clock.now, LEASE)).toBe(true);
  return { shop, image: (await imageRow(images[0]!.id))!, clock, deps };
}

/** Waits (on D1, not on the wall clock) until the row's lease ends at `until`. */
async function leaseEndsAt(imageId: number, until: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await imageRow(imageId))!.lockExpiresAt === until) return;
    await new Promise((r) => setTimeout(r, 0));
  }
  throw new Error(`lease of image ${imageId} never renewed to ${until}`);
}

describe('the image lease', { timeout: 60_000 }, () => {
  afterEach(() => void vi.useRealTimers());

  it('is not shared with another delivery of the same job, and is retaken only once expired', async () => {
    const { shop, image, clock, deps } = await heldImage();
    const other = { jobId: 'job', token: 'b' };
    expect(await claimImage(db(), shop.id, image.id, other, clock.now + LEASE - 1, LEASE)).toBe(false);
    // Every write renews it: an expiry counted from the claim is no longer the one that counts.
    clock.now += LEASE - 10;
    await leasedImage(deps, 'a', image).write({ failReason: null });
    expect(await claimImage(db(), shop.id, image.id, other, clock.now + LEASE - 1, LEASE)).toBe(false);
    expect(await claimImage(db(), shop.id, image.id, other, clock.now + LEASE + 1, LEASE)).toBe(true);
    // The delivery that lost it can neither write nor renew nor give it back.
    const lost = leasedImage(deps, 'a', image);
    await expect(lost.write({ status: 'failed' })).rejects.toBeInstanceOf(LeaseLostError);
    await expect(lost.renew()).rejects.toBeInstanceOf(LeaseLostError);
    await releaseImage(db(), shop.id, image.id, 'a');
    expect(await imageRow(image.id)).toMatchObject({ lockToken: 'b', status: 'pending' });
  });

  it('is renewed while async work waits, and no longer once the work is over', async () => {
    const { shop, image, clock, deps } = await heldImage();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const lease = leasedImage(deps, 'a', image);
    let finish!: () => void;
    const work = lease.during(() => new Promise<void>((r) => (finish = r)));
    clock.now += 40_000;
    vi.advanceTimersByTime(LEASE / 3); // one renewal
    await leaseEndsAt(image.id, clock.now + LEASE);
    clock.now += 60_000; // past the lease as first claimed, within the renewed one
    expect(await claimImage(db(), shop.id, image.id, { jobId: 'job', token: 'b' }, clock.now, LEASE)).toBe(false);
    finish();
    await work;
    const renewedUntil = (await imageRow(image.id))!.lockExpiresAt;
    clock.now += 10_000;
    vi.advanceTimersByTime(LEASE); // the timer is gone: nothing renews it now
    await new Promise((r) => setTimeout(r, 0));
    expect((await imageRow(image.id))!.lockExpiresAt).toBe(renewedUntil);
    expect(vi.getTimerCount()).toBe(0);
  });
});
