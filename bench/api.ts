// npm run bench:api -- [--products 10000] [--images 4] [--n 200] [--json FILE]
// Seeds a large shop in local D1 the way production does it (the first catalogue sync, through the
// GraphQL client, against the store emulator at its default rate limit), marks three images in four
// as optimised, then prints p50 / p95 latency of the history, detail, search and statistics calls as
// the admin makes them (HTTP through wrangler's local dev server into workerd and local D1).
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { unstable_startWorker } from 'wrangler';
import { APP_HANDLE, DEFAULT_SCOPES, startEmulator } from '../emulator/server';

const { values: args } = parseArgs({
  options: {
    products: { type: 'string', default: '10000' },
    images: { type: 'string', default: '4' },
    n: { type: 'string', default: '200' },
    json: { type: 'string' },
  },
});
const PRODUCTS = Number(args.products);
const IMAGES = Number(args.images);
const N = Number(args.n);

const APP = {
  apiKey: 'bench-api-key',
  apiSecret: 'bench-api-secret-0123456789abcdef',
  appUrl: 'https://app.bench',
  handle: APP_HANDLE,
  scopes: DEFAULT_SCOPES.split(','),
};
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdefghijklmnop';

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};

async function main() {
  const emulator = await startEmulator({ port: 0, app: APP, defaults: { webhookUrl: '' } });
  const dir = mkdtempSync(join(tmpdir(), 'bench-api-'));
  let dispose: (() => Promise<void>) | undefined;
  try {
    const t0 = Date.now();
    const created = (await (
      await fetch(`${emulator.origin}/__emulator/shops`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ seed: 'large', products: PRODUCTS, imagesPerProduct: IMAGES, install: true }),
      })
    ).json()) as { domain: string; tokens: { access_token: string; refresh_token?: string; expires_in?: number } };
    // The emulator generates a large shop's images on first access: do that before the sync is timed.
    await (await fetch(`${emulator.origin}/__emulator/shops/${created.domain}/products`)).arrayBuffer();
    console.log(`emulator: ${created.domain} with ${PRODUCTS} products x ${IMAGES} images (${Date.now() - t0} ms to generate)`);

    // A throwaway Worker config: the bench entry, local D1/R2 in a temp dir, the emulator as Shopify.
    const toml = join(dir, 'wrangler.toml');
    writeFileSync(
      toml,
      `name = "api-bench"
main = "${resolve('worker/bench/api-entry.ts')}"
compatibility_date = "2026-10-01"
compatibility_flags = ["nodejs_compat"]
[[d1_databases]]
binding = "DB"
database_name = "api-bench"
database_id = "00000000-0000-0000-0000-000000000000"
[[r2_buckets]]
binding = "BUCKET"
bucket_name = "api-bench"
[[queues.producers]]
binding = "OPTIMISE_QUEUE"
queue = "bench-image-optimise"
[[queues.producers]]
binding = "SYNC_QUEUE"
queue = "bench-catalogue-sync"
[[queues.producers]]
binding = "PAGESPEED_QUEUE"
queue = "bench-pagespeed-check"
[vars]
APP_URL = "${APP.appUrl}"
SHOPIFY_API_KEY = "${APP.apiKey}"
SHOPIFY_API_SECRET = "${APP.apiSecret}"
SHOPIFY_SCOPES = "${DEFAULT_SCOPES}"
TOKEN_ENCRYPTION_KEY = "YmVuY2gtZW5jcnlwdGlvbi1rZXktMzItYnl0ZXMhISE="
PAGESPEED_API_KEY = "bench"
SHOPIFY_ORIGIN = "${emulator.origin}"
PAGESPEED_ORIGIN = "${emulator.origin}"
BILLING_TEST_CHARGES = "true"
`,
    );
    const worker = await unstable_startWorker({
      config: toml,
      dev: { server: { port: 0 }, inspector: false, watch: false, logLevel: 'error', persist: join(dir, 'state') },
    } as never);
    dispose = () => worker.dispose();
    await worker.ready;
    const post = async (path: string, body: unknown) => {
      const res = await worker.fetch(`http://bench${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };

    const statements = readdirSync('migrations')
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .flatMap((f) => readFileSync(join('migrations', f), 'utf8').split('--> statement-breakpoint'))
      .map((s) => s.trim())
      .filter(Boolean);
    await post('/__bench/migrate', { statements });
    const { shopId } = await post('/__bench/shop', {
      domain: created.domain,
      accessToken: created.tokens.access_token,
      refreshToken: created.tokens.refresh_token,
      expiresIn: created.tokens.expires_in,
      adminToken: ADMIN_TOKEN,
    });
    // What worker/bench/api-entry.ts answers for /__bench/sync.
    const sync = (await post('/__bench/sync', { shopId, domain: created.domain })) as {
      images: number;
      mode: string;
      phases: Record<string, number>;
      ms: number;
    };
    const stats = (await (await fetch(`${emulator.origin}/__emulator/shops/${created.domain}`)).json()) as {
      stats: { graphqlRequests: number; throttled: number };
    };
    const phases = sync.phases;
    console.log(
      `first sync: ${sync.images} images, ${sync.mode}, ${(sync.ms / 1000).toFixed(1)} s (products ${phases.products} ms, collections ${phases.collections} ms, articles ${phases.articles} ms; D1 writes ${phases.d1Writes} ms), ` +
        `${stats.stats.graphqlRequests} GraphQL requests, ${stats.stats.throttled} THROTTLED`,
    );
    await post('/__bench/mark', { shopId });

    const get = async (path: string) => {
      const t = performance.now();
      const res = await worker.fetch(`http://bench${path}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
      const body = (await res.json()) as { ack?: number; data?: { data?: { prod_id?: string }[]; total?: number } };
      const ms = performance.now() - t;
      const d1 = Number(res.headers.get('X-D1-Ms') ?? Number.NaN);
      if (res.status !== 200 || body.ack !== 1) throw new Error(`${path}: ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      return { ms, d1, body };
    };
    // Product ids to open in the detail view, spread over the catalogue.
    const ids =
      (await get('/api/v2/image-opt/getImageOptDataPage?page=1&pageSize=100&data_type=1&page_type=0')).body.data?.data?.map(
        (r) => r.prod_id ?? '',
      ) ?? [];
    const lastPage = Math.max(1, Math.floor(PRODUCTS / 10));
    const scenarios: { name: string; path: (i: number) => string }[] = [
      // The floor on this machine right now: authentication plus one small row, no catalogue query.
      { name: 'baseline: getSettings', path: () => '/api/v2/image-opt/getSettings' },
      {
        name: 'history, page 1 of products',
        path: () => '/api/v2/image-opt/getImageOptDataPage?page=1&pageSize=10&data_type=1&page_type=0',
      },
      {
        name: `history, pages 1..${lastPage} (deep offsets)`,
        path: (i) =>
          `/api/v2/image-opt/getImageOptDataPage?page=${1 + ((i * 37) % lastPage)}&pageSize=10&data_type=1&page_type=0`,
      },
      {
        name: 'history, 100 per page',
        path: () => '/api/v2/image-opt/getImageOptDataPage?page=3&pageSize=100&data_type=1&page_type=0',
      },
      {
        name: 'manual list (candidates)',
        path: () => '/api/v2/image-opt/getImageOptDataPage?page=1&pageSize=10&data_type=1&page_type=1',
      },
      {
        name: 'search title (many hits)',
        path: (i) =>
          `/api/v2/image-opt/getImageOptDataPage?page=1&pageSize=10&data_type=1&page_type=0&title=${encodeURIComponent(`Product ${1 + (i % 9)}`)}`,
      },
      {
        name: 'search title (no hit)',
        path: () => '/api/v2/image-opt/getImageOptDataPage?page=1&pageSize=10&data_type=1&page_type=0&title=zzz-nothing',
      },
      {
        name: 'detail of one product',
        path: (i) => `/api/v2/image-opt/getProductImagesData?prod_id=${ids[i % Math.max(1, ids.length)]}&page=1&pageSize=10`,
      },
      { name: 'statistics (getImgOptTotal)', path: () => '/api/v2/image-opt/getImgOptTotal' },
    ];
    // Round robin over the calls, so load from other processes on the machine spreads evenly over them.
    for (const s of scenarios) for (let i = 0; i < 5; i++) await get(s.path(i)); // warm-up
    const times = scenarios.map(() => [] as number[]);
    const d1Times = scenarios.map(() => [] as number[]);
    for (let i = 0; i < N; i++) {
      for (const [k, s] of scenarios.entries()) {
        const r = await get(s.path(i));
        times[k]!.push(r.ms);
        d1Times[k]!.push(r.d1);
      }
    }
    const results = scenarios.map((s, k) => ({
      call: s.name,
      n: N,
      p50: quantile(times[k]!, 0.5),
      p95: quantile(times[k]!, 0.95),
      max: Math.max(...times[k]!),
      d1p50: quantile(d1Times[k]!, 0.5),
      d1p95: quantile(d1Times[k]!, 0.95),
    }));
    console.log(
      `\nlatency over HTTP (wrangler dev -> workerd -> local D1), ${PRODUCTS} products / ${sync.images} images, ${N} sequential requests each, load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs:`,
    );
    const w = Math.max(...results.map((r) => r.call.length));
    console.log('(D1 columns: wall time of the D1 calls inside the request, summed by the bench entry)');
    const cols = ['p50 ms', 'p95 ms', 'max ms', 'D1 p50', 'D1 p95'];
    console.log(`${'call'.padEnd(w)}  ${cols.map((c) => c.padStart(8)).join('  ')}`);
    for (const r of results)
      console.log(
        `${r.call.padEnd(w)}  ${[r.p50, r.p95, r.max, r.d1p50, r.d1p95].map((x) => x.toFixed(1).padStart(8)).join('  ')}`,
      );
    if (args.json)
      writeFileSync(
        args.json,
        JSON.stringify({ products: PRODUCTS, images: sync.images, sync, throttled: stats.stats.throttled, results }, null, 2),
      );
  } finally {
    await dispose?.();
    await emulator.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
