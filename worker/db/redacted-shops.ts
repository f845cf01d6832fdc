// What shop/redact keeps of a shop (decisions.md "Money shown is money charged"): the free quota is
// one-time per shop and the new-user offer is made once, across uninstall, redaction and reinstall. Only a
// keyed hash of the domain is stored (HMAC-SHA256 keyed with TOKEN_ENCRYPTION_KEY, which is never rotated:
// README "Rotating the app secret"), so the row names no shop unless the same domain installs again.
import { eq, sql } from 'drizzle-orm';
import { planFor } from '../../shared/plans';
import { toHex, hmacSha256 } from '../lib/crypto';
import type { Db } from './client';
import { redactedShops, usageLedger } from './schema';
import type { ShopRow } from './shops';
import { countPeriodUsage } from './usage-ledger';

export type RedactedShop = typeof redactedShops.$inferSelect;

/** The keyed hash a redacted shop is remembered by. */
export async function redactedDomainHash(key: string, domain: string): Promise<string> {
  return toHex(await hmacSha256(key, `redacted-shop:${domain.toLowerCase()}`));
}

/**
 * The row shop/redact writes before the shop's rows go: the free images used in the shop's current
 * period (at most the free plan's quota: after an uninstall the shop is on the free plan) and when the
 * offer ended (`offerEndsAt`, discount.ts). A second redaction of the same domain replaces the first.
 */
export async function redactedShopRecord(
  db: Db,
  key: string,
  shop: Pick<ShopRow, 'id' | 'domain' | 'billingCycleDay' | 'quotaPeriodStart'>,
  offerEndsAt: number,
  now: number,
): Promise<RedactedShop> {
  const { used } = await countPeriodUsage(db, shop.id, shop.quotaPeriodStart);
  return {
    domainHash: await redactedDomainHash(key, shop.domain),
    billingCycleDay: shop.billingCycleDay,
    quotaPeriodStart: shop.quotaPeriodStart,
    freeImagesUsed: Math.min(used, planFor(0).images),
    offerEndsAt,
    redactedAt: now,
  };
}

export function saveRedactedShop(db: Db, record: RedactedShop) {
  return db
    .insert(redactedShops)
    .values(record)
    .onConflictDoUpdate({
      target: redactedShops.domainHash,
      set: {
        billingCycleDay: record.billingCycleDay,
        quotaPeriodStart: record.quotaPeriodStart,
        freeImagesUsed: record.freeImagesUsed,
        offerEndsAt: record.offerEndsAt,
        redactedAt: record.redactedAt,
      },
    });
}

export async function findRedactedShop(db: Db, key: string, domain: string): Promise<RedactedShop | undefined> {
  return db
    .select()
    .from(redactedShops)
    .where(eq(redactedShops.domainHash, await redactedDomainHash(key, domain)))
    .get();
}

/**
 * A reinstall of a redacted domain: the free images it used in its period count again (one ledger row
 * each, keyed `redacted:<n>`, no image) in that period, so a period still running has that much less left.
 */
export async function restoreRedactedUsage(db: Db, shopId: number, record: RedactedShop): Promise<void> {
  if (record.freeImagesUsed <= 0) return;
  await db.run(sql`
    with recursive n(i) as (select 1 union all select i + 1 from n where i < ${record.freeImagesUsed})
    insert into ${usageLedger} (shop_id, charge_key, period_start)
    select ${shopId}, 'redacted:' || i, ${record.quotaPeriodStart} from n where true
    on conflict (shop_id, charge_key) do nothing`);
}
