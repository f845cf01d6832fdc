import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from './client';
import { oauthStates } from './schema';

export async function createOAuthState(db: Db, state: string, shopDomain: string, expiresAt: number): Promise<void> {
  // Expired nonces are swept on the way: the table only ever holds the last few minutes of installs.
  await db.batch([db.delete(oauthStates).where(lt(oauthStates.expiresAt, Date.now())), db.insert(oauthStates).values({ state, shopDomain, expiresAt })]);
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
