import { Hono } from 'hono';
import { z } from 'zod';
import { ack } from '../lib/envelope';
import { NotFoundError } from '../lib/errors';
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

adminTokenRoutes.post('/api/v2/setting/revokeAdminToken', async (c) => {
  const { id } = parseInput(revokeInput, await readBody(c));
  if (!(await revokeAdminTokenById(c.get('db'), c.get('shop').id, id))) throw new NotFoundError('server.limits.tokenNotFound');
  return ack(c);
});
