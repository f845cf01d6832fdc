import { Hono } from 'hono';
import { getSyncStatus } from '../db/catalogue';
import { v1 } from '../lib/envelope';
import type { AppEnv } from '../types';

// /api/v1/getImageSyncStatus: the admin polls it every 3 s until imageSync is true.
export const catalogueRoutes = new Hono<AppEnv>();

catalogueRoutes.get('/api/v1/getImageSyncStatus', async (c) => {
  const row = await getSyncStatus(c.get('db'), c.get('shop').id);
  // No row yet: the install-time sync is still queued. A failed sync is retried by the queue; the
  // admin stops polling (imageSync true) and shows what was synced so far.
  const status = row?.status ?? 'queued';
  return v1(c, { imageSync: status === 'done' || status === 'failed', imageCount: row?.imageCount ?? 0, status });
});
