import { Hono } from 'hono';
import type { AppEnv } from '../types';

/** Liveness plus a real round-trip to D1, so a broken binding shows here first. */
export const healthRoutes = new Hono<AppEnv>().get('/api/health', async (c) => {
  const row = await c.env.DB.prepare('select count(*) as migrations from d1_migrations')
    .first<{ migrations: number }>()
    .catch(() => null);
  return c.json({ ok: true, db: row ? 'ok' : 'unavailable', migrations: row?.migrations ?? 0, time: new Date().toISOString() });
});
