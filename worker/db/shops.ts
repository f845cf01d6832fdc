import { and, eq, exists, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Db } from './client';
import { saveRedactedShop, type RedactedShop } from './redacted-shops';
import { adminTokens, jobImages, jobs, oauthStates, shops } from './schema';

export type ShopRow = typeof shops.$inferSelect;

export type NewShop = typeof shops.$inferInsert;

export async function findShopByDomain(db: Db, domain: string): Promise<ShopRow | undefined> {
  return db.select().from(shops).where(eq(shops.domain, domain)).get();
}

export async function findShopById(db: Db, id: number): Promise<ShopRow | undefined> {
  return db.select().from(shops).where(eq(shops.id, id)).get();
}

/** Token columns as stored: ciphertexts only. */
export type StoredTokens = {
  accessTokenEnc: string;
  accessTokenExpiresAt: number | null;
  refreshTokenEnc: string | null;
  refreshTokenExpiresAt: number | null;
  scopes: string;
};

/** Creates or revives the shop row at install time; returns it and whether it is a fresh (re)install. */
export async function upsertInstalledShop(
  db: Db,
  domain: string,
  tokens: StoredTokens,
  now = Date.now(),
): Promise<{ shop: ShopRow; freshInstall: boolean }> {
  const existing = await findShopByDomain(db, domain);
  if (!existing) {
    const shop = await db
      .insert(shops)
      // No rating prompt at install: review_tips is set once the first optimisation has finished
      // (requestReviewAfterOptimisation). The column's DEFAULT 1 stays as migration 0000 made it.
      .values({ domain, ...tokens, installedAt: now, uninstalledAt: null, showReviewRequest: false })
      .onConflictDoUpdate({ target: shops.domain, set: { ...tokens, updatedAt: now } })
      .returning()
      .get();
    return { shop, freshInstall: true };
  }
  const freshInstall = existing.uninstalledAt != null || existing.installedAt == null;
  const shop = await db
    .update(shops)
    .set({
      ...tokens,
      tokenRefreshLeaseId: null,
      tokenRefreshLeaseUntil: null,
      ...(freshInstall ? { installedAt: now, uninstalledAt: null } : {}),
      updatedAt: now,
    })
    .where(eq(shops.id, existing.id))
    .returning()
    .get();
  return { shop, freshInstall };
}

export type ShopInfoFields = Partial<
  Pick<
    NewShop,
    | 'name'
    | 'email'
    | 'ownerName'
    | 'primaryDomain'
    | 'currencyCode'
    | 'shopifyPlan'
    | 'isDevelopmentStore'
    | 'language'
    | 'oldInstall'
    | 'scopes'
  >
>;

export async function updateShopInfo(db: Db, shopId: number, fields: ShopInfoFields): Promise<void> {
  if (Object.keys(fields).length === 0) return;
  await db
    .update(shops)
    .set({ ...fields, updatedAt: Date.now() })
    .where(eq(shops.id, shopId));
}

/**
 * Takes the refresh lease when nobody holds a live one and the token is still the one the caller saw
 * expire (so a request that read a stale row cannot refresh a second time). D1 runs the conditional
 * update atomically: exactly one racer gets a row back.
 */
export async function tryAcquireTokenRefreshLease(
  db: Db,
  shopId: number,
  leaseId: string,
  seenExpiresAt: number | null,
  now: number,
  ttlMs: number,
): Promise<boolean> {
  const won = await db
    .update(shops)
    .set({ tokenRefreshLeaseId: leaseId, tokenRefreshLeaseUntil: now + ttlMs })
    .where(
      and(
        eq(shops.id, shopId),
        or(isNull(shops.tokenRefreshLeaseUntil), lt(shops.tokenRefreshLeaseUntil, now)),
        seenExpiresAt == null ? isNull(shops.accessTokenExpiresAt) : eq(shops.accessTokenExpiresAt, seenExpiresAt),
      ),
    )
    .returning({ id: shops.id })
    .all();
  return won.length === 1;
}

/** Stores refreshed tokens and drops the lease in one statement, only while the caller still holds it. */
export async function saveRefreshedTokens(db: Db, shopId: number, leaseId: string, tokens: StoredTokens): Promise<boolean> {
  const rows = await db
    .update(shops)
    .set({ ...tokens, tokenRefreshLeaseId: null, tokenRefreshLeaseUntil: null, updatedAt: Date.now() })
    .where(and(eq(shops.id, shopId), eq(shops.tokenRefreshLeaseId, leaseId)))
    .returning({ id: shops.id })
    .all();
  return rows.length === 1;
}

export async function releaseTokenRefreshLease(db: Db, shopId: number, leaseId: string): Promise<void> {
  await db
    .update(shops)
    .set({ tokenRefreshLeaseId: null, tokenRefreshLeaseUntil: null })
    .where(and(eq(shops.id, shopId), eq(shops.tokenRefreshLeaseId, leaseId)));
}

/** Shops whose refresh token runs out before `before`: the cron refreshes them so they never lapse. */
export async function listShopsWithRefreshTokenExpiringBefore(db: Db, before: number, limit = 50): Promise<ShopRow[]> {
  return db
    .select()
    .from(shops)
    .where(and(isNull(shops.uninstalledAt), isNotNull(shops.refreshTokenEnc), lt(shops.refreshTokenExpiresAt, before)))
    .limit(limit)
    .all();
}

/**
 * app/uninstalled, once Shopify refused the shop's token (worker/webhooks/grant.ts): the shop's tokens are
 * gone, the admin tokens are revoked, queued and running jobs are stopped, the cancelled subscription no
 * longer counts, and `uninstalledAt` records when the uninstall was confirmed (shop/redact waits 48 hours
 * from it). `seenAccessTokenEnc` is the token Shopify refused: when the row holds another one by now (a
 * reinstall or a refresh landed meanwhile, so the grant is alive) nothing changes. One D1 batch (a
 * transaction): the other statements act only when the shop row changed. False when nothing changed.
 */
export async function markShopUninstalled(
  db: Db,
  shopId: number,
  now = Date.now(),
  seenAccessTokenEnc?: string | null,
): Promise<boolean> {
  const confirmedNow = exists(
    db
      .select({ id: shops.id })
      .from(shops)
      .where(and(eq(shops.id, shopId), eq(shops.uninstalledAt, now))),
  );
  const [updated] = await db.batch([
    db
      .update(shops)
      .set({
        uninstalledAt: now,
        accessTokenEnc: null,
        accessTokenExpiresAt: null,
        refreshTokenEnc: null,
        refreshTokenExpiresAt: null,
        tokenRefreshLeaseId: null,
        tokenRefreshLeaseUntil: null,
        adminTokenHash: null,
        adminTokenCreatedAt: null,
        planLevel: 0,
        pendingPlanLevel: null,
        subscriptionStatus: 'CANCELLED',
        // Money choices belong to the cancelled subscription (issue 25, items 7 and 12): the overcharge
        // opt-in and its cap do not carry over to the next install's subscription, and "this store can
        // only make test charges" is learnt again from Shopify's answer if it still holds.
        overageEnabled: false,
        hasUsageCap: false,
        cappedAmountCents: 0,
        usageLineItemId: null,
        testChargesOnly: false,
        updatedAt: now,
      })
      .where(
        and(
          eq(shops.id, shopId),
          isNull(shops.uninstalledAt),
          seenAccessTokenEnc === undefined
            ? undefined
            : seenAccessTokenEnc === null
              ? isNull(shops.accessTokenEnc)
              : eq(shops.accessTokenEnc, seenAccessTokenEnc),
        ),
      )
      .returning({ id: shops.id }),
    db
      .update(jobs)
      .set({ status: 'stopped', finishedAt: now, updatedAt: now })
      .where(and(eq(jobs.shopId, shopId), inArray(jobs.status, ['queued', 'running']), confirmedNow)),
    db
      .update(jobImages)
      .set({ status: 'stopped', updatedAt: now })
      .where(and(eq(jobImages.shopId, shopId), eq(jobImages.status, 'queued'), confirmedNow)),
    db.delete(adminTokens).where(and(eq(adminTokens.shopId, shopId), confirmedNow)),
  ]);
  return updated.length === 1;
}

/**
 * shop/redact: every row of the shop goes (child tables cascade from shops), plus rows keyed by domain; in
 * the same batch, `keep` (the keyed hash with the free images used and the offer, redacted-shops.ts) is written.
 */
export async function deleteShopData(db: Db, shopId: number, domain: string, keep?: RedactedShop): Promise<void> {
  const deletes = [
    db.delete(jobImages).where(eq(jobImages.shopId, shopId)),
    db.delete(oauthStates).where(eq(oauthStates.shopDomain, domain)),
    db.delete(shops).where(eq(shops.id, shopId)),
  ] as const;
  if (keep) await db.batch([saveRedactedShop(db, keep), ...deletes]);
  else await db.batch(deletes);
}

export async function setShopLanguage(db: Db, shopId: number, language: string): Promise<void> {
  await db.update(shops).set({ language, updatedAt: Date.now() }).where(eq(shops.id, shopId)).run();
}
