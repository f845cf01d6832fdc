import { Hono } from 'hono';
import { claimFirstSync, getSyncStatus } from '../db/catalogue-syncs';
import { v1 } from '../lib/envelope';
import { enqueueSync } from '../messages/catalogue-sync';
import type { AppEnv } from '../types';
import type { ImageSyncStatus } from '../../shared/api/billing';

// /api/v1/getImageSyncStatus: the admin polls it every 3 s until imageSync is true.
export const catalogueRoutes = new Hono<AppEnv>();

catalogueRoutes.get('/api/v1/getImageSyncStatus', async (c) => {
  const shopId = c.get('shop').id;
  const db = c.get('db');
  let row = await getSyncStatus(db, shopId);
  // A shop without any sync row never got its install-time sync (installed before the catalogue
  // existed, or the message was lost): queue one, once, instead of letting the admin poll forever.
  if (!row && (await claimFirstSync(db, shopId))) {
    await enqueueSync(c.env.SYNC_QUEUE, { type: 'sync', shopId });
    c.get('log').info('catalogue_sync_queued_on_poll');
    row = await getSyncStatus(db, shopId);
  }
  // A failed sync is retried by the queue; the admin stops polling (imageSync true) and shows what was
  // synced so far.
  const status = row?.status ?? 'queued';
  return v1<ImageSyncStatus>(c, {
    imageSync: status === 'done' || status === 'failed',
    imageCount: row?.imageCount ?? 0,
    status,
  });
});
