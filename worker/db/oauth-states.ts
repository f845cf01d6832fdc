import { and, desc, eq, gt, lt, notInArray } from 'drizzle-orm';
import type { Db } from './client';
import { oauthStates } from './schema';

/** Live states one shop may hold at once (a few browser tabs installing); older ones are dropped. */
export const MAX_STATES_PER_SHOP = 5;

/** Stores a nonce; the shop's older states beyond MAX_STATES_PER_SHOP go in the same batch. */
export async function createOAuthState(db: Db, state: string, shopDomain: string, expiresAt: number): Promise<void> {
  await db.batch([
    db.insert(oauthStates).values({ state, shopDomain, expiresAt }),
    db
      .delete(oauthStates)
      .where(
        and(
          eq(oauthStates.shopDomain, shopDomain),
          notInArray(
            oauthStates.state,
            db
              .select({ state: oauthStates.state })
              .from(oauthStates)
              .where(eq(oauthStates.shopDomain, shopDomain))
              .orderBy(desc(oauthStates.expiresAt))
              .limit(MAX_STATES_PER_SHOP),
          ),
        ),
      ),
  ]);
}

/** Expired nonces, swept by the half-hourly cron through the expires_at index. */
export async function deleteExpiredOAuthStates(db: Db, now = Date.now()): Promise<number> {
  const result = await db.delete(oauthStates).where(lt(oauthStates.expiresAt, now)).run();
  return result.meta.changes ?? 0;
}

/** Single use: the state is deleted as it is checked; true only when it existed, was live and named this shop. */
export async function consumeOAuthState(db: Db, state: string, shopDomain: string, now = Date.now()): Promise<boolean> {
  const rows = await db
    .delete(oauthStates)
    .where(and(eq(oauthStates.state, state), eq(oauthStates.shopDomain, shopDomain), gt(oauthStates.expiresAt, now)))
    .returning({ state: oauthStates.state })
    .all();
  return rows.length === 1;
}

/**
 * A signed state (worker/install/install.ts signedOAuthState) is accepted once: the first callback that
 * carries it records it until it expires (the row's state contains '~', which a stored nonce never does,
 * so it can never be consumed as one). True only for that first callback.
 */
export async function markSignedOAuthStateUsed(db: Db, state: string, shopDomain: string, expiresAt: number): Promise<boolean> {
  const rows = await db
    .insert(oauthStates)
    .values({ state, shopDomain, expiresAt })
    .onConflictDoNothing()
    .returning({ state: oauthStates.state })
    .all();
  return rows.length === 1;
}
