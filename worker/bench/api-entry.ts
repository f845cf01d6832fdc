// The Worker of `npm run bench:api` (bench/api.ts): the real app (every /api route, queues, crons) plus a few /__bench
// routes that prepare the measurement: apply the migrations, register the emulator's shop, run the
// first catalogue sync in-process (timed), and mark a realistic share of the images as optimised.
// Only the benchmark starts this entry; the deployed Worker is worker/index.ts.
import { runFullSync } from '../catalogue/sync';
import { createDb } from '../db/client';
import { encryptSecret, sha256Hex } from '../lib/crypto';
import { createLogger } from '../lib/log';
import { shopifyClientFor } from '../shopify';
import worker from '../index';

async function bench(req: Request, env: Env): Promise<Response> {
  const url = new URL(req.url);
  const body = req.method === 'POST' ? await req.json<Record<string, unknown>>() : {};
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
        typeof body.refreshToken === 'string' ? await enc(body.refreshToken) : null,
        typeof body.refreshToken === 'string' ? Date.now() + 90 * 86400_000 : null,
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

/**
 * D1 with a stopwatch: the wall time of every D1 call of one request, summed into X-D1-Ms, so the
 * benchmark can show database time apart from HTTP, auth and the machine's other load.
 */
function timedD1(db: D1Database, acc: { ms: number }): D1Database {
  const targets = new WeakMap<object, D1PreparedStatement>();
  const timed =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      const t = Date.now();
      try {
        return await fn(...a);
      } finally {
        acc.ms += Date.now() - t;
      }
    };
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === 'bind') return (...values: unknown[]) => wrap(target.bind(...values));
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== 'function') return value;
        const fn = (value as (...a: unknown[]) => Promise<unknown>).bind(target);
        return prop === 'all' || prop === 'raw' || prop === 'run' || prop === 'first' ? timed(fn) : fn;
      },
    });
    targets.set(proxy, stmt);
    return proxy;
  };
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'prepare') return (query: string) => wrap(target.prepare(query));
      if (prop === 'batch') return timed((stmts: D1PreparedStatement[]) => target.batch(stmts.map((s) => targets.get(s) ?? s)));
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function timedFetch(req: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const acc = { ms: 0 };
  const res = await worker.fetch(req, { ...env, DB: timedD1(env.DB, acc) }, ctx);
  const out = new Response(res.body, res);
  out.headers.set('X-D1-Ms', String(acc.ms));
  return out;
}

export default {
  ...worker,
  fetch: (req: Request, env: Env, ctx: ExecutionContext) =>
    new URL(req.url).pathname.startsWith('/__bench/') ? bench(req, env) : timedFetch(req, env, ctx),
} satisfies ExportedHandler<Env>;
