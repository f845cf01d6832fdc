// Shared pieces of the fuzz suites: the /api routes read from the router, a snapshot of everything a
// shop owns (D1 rows and R2 objects), envelope checks, and generators of input that no route may accept.
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { expect } from 'vitest';
import { app } from '../../../worker/app';
import * as s from '../../../worker/db/schema';
import { shopPrefixes } from '../../../worker/lib/r2-keys';
import { db } from '../helpers';

/** Quick in `npm test`; `npm run test:fuzz` (100) and `FUZZ_RUNS=1000 npm run test:fuzz` (the thorough run). */
export const FUZZ_RUNS = Number((env as unknown as Record<string, string | undefined>).FUZZ_RUNS ?? '') || 3;

/**
 * A fuzz test's time limit: `base` plus a second per generated case. The limit only catches a hang: a
 * thorough run on a busy machine takes well over a fixed two minutes per route (the first 1,000-run try
 * timed out there on 2 CPUs at load 12), and its verdict must not depend on that.
 */
export function fuzzTimeout(base: number, runs: number): number {
  return base + runs * 1000;
}

const PUBLIC_API = new Set(['/api/health']);
export const apiRoutes = [
  ...new Map(
    app.routes
      .filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL' && !PUBLIC_API.has(r.path))
      .map((r) => [`${r.method} ${r.path}`, { method: r.method, path: r.path }]),
  ).values(),
];

/** Routes that take no input at all: whatever is sent, they answer as for an empty request. */
export const NO_INPUT = new Set(['POST /api/v2/home/refreshPageSpeedOnline']);
/** Routes whose whole purpose is to change the credentials of the caller (no body either). */
export const CREDENTIAL_ROUTES = new Set(['DELETE /api/v1/adminToken', 'POST /api/v1/adminToken']);

async function r2Listing(shopId: number): Promise<string[]> {
  const out: string[] = [];
  for (const prefix of shopPrefixes(shopId)) {
    let cursor: string | undefined;
    do {
      const page = await env.BUCKET.list({ prefix, cursor });
      out.push(...page.objects.map((o) => `${o.key}:${o.size}:${o.etag}`));
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  }
  return out.sort();
}

/** Every row and object a shop owns, serialised: equal before and after means nothing changed. */
export async function shopState(shopId: number): Promise<string> {
  const d = db();
  return JSON.stringify({
    shop: await d.select().from(s.shops).where(eq(s.shops.id, shopId)).get(),
    settings: await d.select().from(s.imageSettings).where(eq(s.imageSettings.shopId, shopId)).all(),
    items: await d.select().from(s.items).where(eq(s.items.shopId, shopId)).all(),
    images: await d.select().from(s.images).where(eq(s.images.shopId, shopId)).all(),
    jobs: await d.select().from(s.jobs).where(eq(s.jobs.shopId, shopId)).all(),
    ledger: await d.select().from(s.usageLedger).where(eq(s.usageLedger.shopId, shopId)).all(),
    switches: await d.select().from(s.appSwitches).where(eq(s.appSwitches.shopId, shopId)).all(),
    contacts: await d.select().from(s.contactMessages).where(eq(s.contactMessages.shopId, shopId)).all(),
    selections: await d.select().from(s.userSelections).where(eq(s.userSelections.shopId, shopId)).all(),
    r2: await r2Listing(shopId),
  });
}

export type Answer = { status: number; text: string; json: Record<string, unknown> | null };

export async function answerOf(res: Response): Promise<Answer> {
  const text = await res.text();
  let json: Record<string, unknown> | null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = null;
  }
  return { status: res.status, text, json };
}

/** Never a 500; always one of the documented envelopes; an error carries its message. */
export function expectDocumented(a: Answer, label: string): void {
  expect(a.status, `${label}: ${a.text.slice(0, 300)}`).toBeLessThan(500);
  expect(a.json, `${label}: not JSON: ${a.text.slice(0, 200)}`).not.toBeNull();
  const j = a.json!;
  expect('ack' in j || 'code' in j, `${label}: no envelope: ${a.text.slice(0, 200)}`).toBe(true);
  if (a.status >= 400) {
    if ('ack' in j) {
      expect(j.ack, label).toBe(0);
      expect(typeof j.message, label).toBe('string');
    } else {
      expect(typeof j.msg, label).toBe('string');
    }
    expect(a.text, `${label}: stack trace leaked`).not.toMatch(/\bat [\w$.]+ \(|node_modules|\.ts:\d+/);
  }
}

export function expectRefused(a: Answer, label: string): void {
  expectDocumented(a, label);
  expect(a.status, `${label}: accepted: ${a.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
}

// --- generators -------------------------------------------------------------------------------------

/** Every documented input field of every route (and the legacy settings form), so each route finds its own. */
export const FIELDS = [
  'opt_id',
  'data_type',
  'page_type',
  're_opt_type',
  'data_list',
  'file_list',
  'opt_cfg',
  'newLevel',
  'images',
  'score',
  'name',
  'st',
  'exp',
  'type',
  'Language',
  'key',
  'value',
  'title',
  'description',
  'email',
  'path',
  'content',
  'kind',
  'page5',
  'settings',
  'is_default',
  'auto_switch',
  'image_opt',
  'alt_text',
  'file_name',
  'prod_id',
  'page',
  'pageSize',
  'automatic_switch',
  'CustomCompressionQuality',
  'image_converting',
  'compression_type',
  'optimize_all_status',
] as const;

// At least 6,000 characters, counted as the schemas count them (code points: an emoji is one character but
// two UTF-16 units), so a huge string is over every 5,000-character limit. Counted in UTF-16 units, 3,000
// emoji made a valid 5,000-character text: the thorough run sent it and the route rightly saved it.
const hugeString = fc
  .tuple(fc.integer({ min: 6_000, max: 70_000 }), fc.constantFrom('A', 'é', '\u0000', '%', '../', '😀'))
  .map(([n, ch]) => ch.repeat(Math.ceil(n / [...ch].length)));

/** Values that no documented field accepts: structures where scalars go, numbers out of every range, huge text. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc
    .dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 })
    .map((o) => ({ ...o, __proto_trick__: { constructor: 1 } })),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 2, maxLength: 4 }),
  hugeString,
  fc.integer({ min: -1_000_000_000, max: -1 }),
  fc.constantFrom(1e21, -1e21, Number.MAX_VALUE, 2 ** 53 + 2, 1.5e300),
);

/** A JSON object naming every field, each with a wrong value. */
export const wrongBody = fc.record(
  Object.fromEntries(FIELDS.map((f) => [f, wrongValue])) as Record<(typeof FIELDS)[number], fc.Arbitrary<unknown>>,
);

/** Text that is not JSON (a truncated object, a trailing comma, junk). */
export const malformedJson = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify({ data_type: v, x: 1 }).slice(0, -1)),
  fc.constantFrom('{', '{"data_type":1,}', "{'a':1}", '[1,2', 'undefined', '{"a":NaN}', '\u0000{}', '{"__proto__":'),
  fc.string({ minLength: 1, maxLength: 40 }).map((s) => `{${s}`),
);

/** Query strings with out-of-range pages and sizes, wrong types and path tricks. */
export const hostileQuery = fc.record({
  page: fc.constantFrom('-1', '0', '-99999999999', '1e400', '99999999999999999999', 'NaN', 'Infinity', '1.5', '0x10', ' ', '../'),
  pageSize: fc.constantFrom('-10', '0', '7', '1000000', '1e9', 'abc', '10.5', ''),
  data_type: fc.constantFrom('-1', '0', '5', '9999999999', 'abc', '1;DROP TABLE shops', ''),
  page_type: fc.constantFrom('-1', '2', '0.5', 'x'),
  title: fc.oneof(
    hugeString.map((s) => s.slice(0, 5000)),
    fc.constantFrom("' OR 1=1 --", '%', '_', '\u0000', '../../etc/passwd'),
  ),
  prod_id: fc.oneof(
    hugeString.map((s) => s.slice(0, 200)),
    fc.constantFrom('../1', '%2e%2e%2f', '-1', '\u0000'),
  ),
});
