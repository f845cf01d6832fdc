// The standalone authToken used outside the Shopify admin frame: random, at least 32 characters,
// stored only as its SHA-256, replaced on rotation and removed on revocation.
import type { Db } from '../db/client';
import { setAdminTokenHash } from '../db/shops';
import { randomToken, sha256Hex } from '../lib/crypto';

/** Issues a new token (replacing any previous one); the plain token is returned once, never stored. */
export async function issueAdminToken(db: Db, shopId: number): Promise<string> {
  const token = randomToken(32); // 43 base64url characters
  await setAdminTokenHash(db, shopId, await sha256Hex(token));
  return token;
}

export async function revokeAdminToken(db: Db, shopId: number): Promise<void> {
  await setAdminTokenHash(db, shopId, null);
}
