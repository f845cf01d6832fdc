// The standalone authToken used outside the Shopify admin frame: random, at least 32 characters,
// stored only as its SHA-256 (admin_tokens). Each token is tied to the Shopify user whose session token
// issued it (`sub`), expires after ADMIN_TOKEN_TTL_MS, and is listed and revoked in Settings.
import { deleteAdminToken, deleteUserAdminTokens, insertAdminToken, listLiveAdminTokens } from '../db/admin-tokens';
import type { Db } from '../db/client';
import { randomToken, sha256Hex } from '../lib/crypto';
import { ADMIN_TOKEN_TTL_MS, MAX_ADMIN_TOKENS_PER_SHOP } from '../lib/limits';

/** Issues a new token for this user (replacing the user's previous one); the plain token is returned once. */
export async function issueAdminToken(
  db: Db,
  shopId: number,
  userId = '',
  now = Date.now(),
): Promise<{ authToken: string; expiresAt: number }> {
  const authToken = randomToken(32); // 43 base64url characters
  const expiresAt = now + ADMIN_TOKEN_TTL_MS;
  await insertAdminToken(
    db,
    { shopId, tokenHash: await sha256Hex(authToken), userId, createdAt: now, expiresAt },
    MAX_ADMIN_TOKENS_PER_SHOP,
  );
  return { authToken, expiresAt };
}

/** Revokes one token by id (Settings), only within the shop. */
export async function revokeAdminTokenById(db: Db, shopId: number, id: number, userId?: string): Promise<boolean> {
  return deleteAdminToken(db, shopId, id, userId);
}

/** Revokes the tokens a user issued. */
export async function revokeUserAdminTokens(db: Db, shopId: number, userId: string): Promise<void> {
  await deleteUserAdminTokens(db, shopId, userId);
}

/** What Settings shows: never the token, only who issued it and when it expires. */
export async function listAdminTokens(db: Db, shopId: number, currentTokenId: number | null, now = Date.now()) {
  const rows = await listLiveAdminTokens(db, shopId, now);
  return rows.map((r) => ({
    id: r.id,
    user_id: r.userId,
    created_at: r.createdAt,
    expires_at: r.expiresAt,
    current: r.id === currentTokenId,
  }));
}
