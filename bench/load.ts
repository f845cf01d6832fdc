// npm run bench:load -- [--connections 50] [--seconds 30] [--json FILE]
// Starts the whole product as `npm start` does (scripts/start.mjs on free ports: store emulator,
// wrangler dev with local D1/R2/Queues, the dev store installed through OAuth), then runs autocannon
// against the history, statistics and score endpoints with 50 concurrent clients for 30 s each, as the
// admin calls them (admin token). Prints requests/s, p50/p99 latency and errors; stops by itself.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort } from '../scripts/lib/free-port';
import { startProduct, stopProduct } from './lib/product';

const { values: args } = parseArgs({
  options: {
    connections: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '30' },
    json: { type: 'string' },
  },
});
const CONNECTIONS = Number(args.connections);
const SECONDS = Number(args.seconds);

export const LOAD_ENDPOINTS = [
  { name: 'history', path: '/api/v2/image-opt/getImageOptDataPage?page=1&pageSize=10&data_type=1&page_type=0' },
  { name: 'statistics', path: '/api/v2/image-opt/getImgOptTotal' },
  { name: 'score', path: '/api/v2/home/getPageSpeedScore' },
] as const;

export type LoadFigure = {
  name: string;
  requestsPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
};

async function main() {
  const port = await freePort();
  const emulatorPort = await freePort();
  console.log(`bench:load: starting the product (Worker :${port}, emulator :${emulatorPort})...`);
  const started = await startProduct({ port, emulatorPort, timeoutMs: 240_000 });
  const figures: LoadFigure[] = [];
  try {
    const headers = { Authorization: `Bearer ${started.token}` };
    // One warm-up call each: the first score call starts a check, the first history call compiles queries.
    for (const e of LOAD_ENDPOINTS) await (await fetch(`${started.base}${e.path}`, { headers })).arrayBuffer();
    for (const e of LOAD_ENDPOINTS) {
      const r = await autocannon({
        url: `${started.base}${e.path}`,
        connections: CONNECTIONS,
        duration: SECONDS,
        headers,
        timeout: 10,
      });
      const f: LoadFigure = {
        name: e.name,
        requestsPerSec: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.errors + r.timeouts,
        non2xx: r.non2xx,
        total: r.requests.total,
      };
      figures.push(f);
      console.log(
        `${e.name.padEnd(11)} ${f.requestsPerSec.toFixed(0).padStart(6)} req/s  p50 ${String(f.p50).padStart(5)} ms  p99 ${String(f.p99).padStart(5)} ms  errors ${f.errors}  non-2xx ${f.non2xx}  (${f.total} requests)`,
      );
    }
  } finally {
    stopProduct(started.child);
  }
  console.log(
    `bench:load: ${CONNECTIONS} connections x ${SECONDS} s per endpoint, HTTP through wrangler dev (local workerd, local D1).`,
  );
  if (args.json) writeFileSync(args.json, JSON.stringify({ connections: CONNECTIONS, seconds: SECONDS, figures }, null, 2));
  // Bounded: the children are gone; leave no handle open.
  setTimeout(() => process.exit(0), 500).unref();
}

main().catch((e) => {
  console.error(`bench:load failed: ${(e as Error).message}`);
  process.exit(1);
});
