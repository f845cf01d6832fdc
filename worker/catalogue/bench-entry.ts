// The Worker of `npm run bench:api` (bench/api.ts): the real app (every /api route, queues, crons) plus a few /__bench
// routes that prepare the measurement: apply the migrations, register the emulator's shop, run the
// first catalogue sync in-process (timed), and mark a realistic share of the images as optimised.
// Only the benchmark starts this entry; the deployed Worker is worker/index.ts.
import { runFullSync } from './sync';
import { createDb } from '../db/client';
import { encryptSecret, sha256Hex } from '../lib/crypto';
import { createLogger } from '../lib/log';
import { shopifyClientFor } from '../shopify';
import worker from '../index';

async function bench(req: Request, env: Env): Promise<Response> {
  const url = new URL(req.url);
  const body = req.method === 'POST' ? ((await req.json()) as Record<string, unknown>) : {};
  if (url.pathname === '/__bench/migrate') {
    for (const sqlText of body.statements as string[]) await env.DB.prepare(sqlText).run();
    return Response.json({ ok: true });
  }
  if (url.pathname === '/__bench/shop') {
    const enc = (s: string) => encryptSecret(env.TOKEN_ENCRYPTION_KEY, s);
    const row = await env.DB.prepare(
      `INSERT INTO shops (domain, name, email, access_token_enc, access_token_expires_at, refresh_token_enc, refresh_token_expires_at, admin_token_hash, installed_at, new_guide_status)
       VALUES (?, 'Bench Shop', 'bench@example.com', ?, ?, ?, ?, ?, ?, 0) RETURNING id`,
    )
      .bind(
        body.domain,
        await enc(String(body.accessToken)),
        Date.now() + Number(body.expiresIn ?? 86400) * 1000,
        body.refreshToken ? await enc(String(body.refreshToken)) : null,
        body.refreshToken ? Date.now() + 90 * 86400_000 : null,
        await sha256Hex(String(body.adminToken)),
        Date.now(),
      )
      .first<{ id: number }>();
    return Response.json({ shopId: row?.id });
  }
  if (url.pathname === '/__bench/sync') {
    const db = createDb(env.DB);
    const shopId = Number(body.shopId);
    const started = Date.now();
    const client = shopifyClientFor(env, db, { id: shopId, domain: String(body.domain) });
    const result = await runFullSync({ db, client, shopId, log: createLogger({ bench: 'api' }) });
    return Response.json({ images: result.images, mode: result.mode, phases: result.ms, ms: Date.now() - started });
  }
  if (url.pathname === '/__bench/mark') {
    // Three images in four optimised (30 to 70 % smaller), their items in the history.
    const shopId = Number(body.shopId);
    const now = Date.now();
    await env.DB.batch([
      env.DB.prepare(
        `UPDATE images SET status = 'compressed', is_compress = 1, img_size = CASE WHEN img_size > 0 THEN img_size ELSE 200000 + (id % 7) * 50000 END,
           comp_size = CAST(CASE WHEN img_size > 0 THEN img_size ELSE 200000 + (id % 7) * 50000 END * (0.3 + (id % 5) * 0.1) AS INTEGER),
           optimised_at = ?2 - id * 1000, expires_at = ?2 + 30 * 86400000, before_file_path = 'originals/' || shop_id || '/' || id || '.jpg',
           after_file_path = 'results/' || shop_id || '/' || id || '.jpg'
         WHERE shop_id = ?1 AND id % 4 != 0`,
      ).bind(shopId, now),
      env.DB.prepare(
        `UPDATE items SET opt_status = 2, status = 'finished', pattern = 'manual', optimised_at = ?2 - id * 1000
         WHERE shop_id = ?1 AND id IN (SELECT opt_id FROM images WHERE shop_id = ?1 AND status = 'compressed')`,
      ).bind(shopId, now),
    ]);
    return Response.json({ ok: true });
  }
  return new Response('not found', { status: 404 });
}

export default {
  ...worker,
  fetch: (req: Request, env: Env, ctx: ExecutionContext) => (new URL(req.url).pathname.startsWith('/__bench/') ? bench(req, env) : worker.fetch(req, env, ctx)),
} satisfies ExportedHandler<Env>;
