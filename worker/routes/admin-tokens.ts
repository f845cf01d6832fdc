import { Hono } from 'hono';
import { z } from 'zod';
import { ack } from '../lib/envelope';
import { AuthError, NotFoundError } from '../lib/errors';
import { adminTokenExists } from '../db/admin-tokens';
import { parseInput, readBody } from '../lib/validate';
import { listAdminTokens, revokeAdminTokenById } from '../auth/admin-token';
import type { AppEnv } from '../types';
import type { AdminTokenInfo } from '../../shared/api/account';

// Settings > Admin tokens: the shop's live authTokens (who issued each, when it expires) and revoking one.
// The token itself is never shown again; `current` marks the token the caller is using.
export const adminTokenRoutes = new Hono<AppEnv>();

adminTokenRoutes.get('/api/v2/setting/getAdminTokens', async (c) => {
  const auth = c.get('auth');
  return ack<AdminTokenInfo[]>(
    c,
    await listAdminTokens(c.get('db'), c.get('shop').id, auth.kind === 'admin' ? auth.tokenId : null),
  );
});

const revokeInput = z.object({ id: z.coerce.number().int().positive() });

/**
 * A session token (the merchant in Shopify's admin) revokes any of the shop's tokens; an admin token only
 * tokens its own user issued (issue 25, item 8): revoking another user's access needs a session token.
 */
adminTokenRoutes.post('/api/v2/setting/revokeAdminToken', async (c) => {
  const { id } = parseInput(revokeInput, await readBody(c));
  const auth = c.get('auth');
  const db = c.get('db');
  const shopId = c.get('shop').id;
  if (await revokeAdminTokenById(db, shopId, id, auth.kind === 'admin' ? auth.userId : undefined)) return ack(c);
  if (auth.kind === 'admin' && (await adminTokenExists(db, shopId, id))) throw new AuthError('server.auth.sessionTokenRequired');
  throw new NotFoundError('server.limits.tokenNotFound');
});
