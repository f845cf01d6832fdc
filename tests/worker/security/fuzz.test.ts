// Property-based fuzzing of every /api route (read from the router, like the route sweep): malformed
// JSON, wrong types, huge strings, hostile page numbers and queries. Every answer is a documented
// envelope, never a 500, and the shop's D1 rows and R2 objects are exactly what they were before.
// Quick in `npm test` (FUZZ_RUNS=3 per route and kind); `npm run test:fuzz` runs 100, `FUZZ_RUNS=1000` is the thorough run.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createShop } from '../helpers';
import {
  CREDENTIAL_ROUTES,
  FUZZ_RUNS,
  NO_INPUT,
  answerOf,
  apiRoutes,
  expectDocumented,
  expectRefused,
  fuzzTimeout,
  hostileQuery,
  malformedJson,
  shopState,
  wrongBody,
  wrongValue,
} from './fuzz-support';

let headers: Record<string, string>;
let shopId: number;
let baseline: string;

beforeAll(async () => {
  const made = await createShop();
  headers = made.headers;
  shopId = made.shop.id;
  // Reads that start something on first use (a first catalogue sync, a first score check) do it now,
  // so the baseline holds the state every later call finds.
  for (const r of apiRoutes)
    if (r.method === 'GET' && r.path !== '/api/v2/image-opt/stopImageOptTask') await call(r.path, { headers });
  await call('/api/v2/home/refreshPageSpeedOnline', { method: 'POST', headers });
  baseline = await shopState(shopId);
}, 60_000);

const bodyRoutes = apiRoutes.filter(
  (r) => r.method !== 'GET' && !NO_INPUT.has(`${r.method} ${r.path}`) && !CREDENTIAL_ROUTES.has(`${r.method} ${r.path}`),
);
const getRoutes = apiRoutes.filter((r) => r.method === 'GET');
const noInputRoutes = apiRoutes.filter((r) => NO_INPUT.has(`${r.method} ${r.path}`));

describe('fuzz: request bodies', { timeout: fuzzTimeout(120_000, FUZZ_RUNS) }, () => {
  it('covers every route that takes a body', () => {
    expect(bodyRoutes.length).toBeGreaterThan(12);
    expect(bodyRoutes.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        '/api/v2/image-opt/saveSettings',
        '/api/v2/image-opt/uploadImagesOpt',
        '/api/v2/image-opt/restore',
        '/api/v1/changePlans',
      ]),
    );
  });

  it.each(bodyRoutes.map((r) => [r.method, r.path]))('%s %s refuses malformed JSON', async (method, path) => {
    const before = await shopState(shopId);
    await fc.assert(
      fc.asyncProperty(malformedJson, async (text) => {
        const a = await answerOf(
          await call(path, { method, headers: { ...headers, 'Content-Type': 'application/json' }, body: text }),
        );
        expectRefused(a, `${method} ${path} ${JSON.stringify(text).slice(0, 60)}`);
      }),
      { numRuns: FUZZ_RUNS },
    );
    expect(await shopState(shopId)).toBe(before);
  });

  it.each(bodyRoutes.map((r) => [r.method, r.path]))(
    '%s %s refuses wrong types, huge strings and out-of-range numbers (JSON and form)',
    async (method, path) => {
      const before = await shopState(shopId);
      await fc.assert(
        fc.asyncProperty(wrongBody, fc.boolean(), async (body, asForm) => {
          const init = asForm
            ? // A form carries text only, and short text is a valid value of many text fields: huge text is not.
              {
                form: Object.fromEntries(
                  Object.entries(body).map(([k, v]) => [
                    k,
                    typeof v === 'string' && v.length > 5000 ? v : 'Z'.repeat(6000) + JSON.stringify(v),
                  ]),
                ),
              }
            : { json: body };
          const a = await answerOf(await call(path, { method, headers, ...init }));
          expectRefused(a, `${method} ${path} ${asForm ? 'form' : 'json'} ${JSON.stringify(body).slice(0, 120)}`);
        }),
        { numRuns: FUZZ_RUNS },
      );
      expect(await shopState(shopId)).toBe(before);
    },
  );

  it.each(bodyRoutes.map((r) => [r.method, r.path]))('%s %s refuses a body that is not an object', async (method, path) => {
    const before = await shopState(shopId);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 20 }), fc.array(wrongValue, { maxLength: 3 })),
        async (body) => {
          const a = await answerOf(await call(path, { method, headers, json: body }));
          expectRefused(a, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}`);
        },
      ),
      { numRuns: FUZZ_RUNS },
    );
    expect(await shopState(shopId)).toBe(before);
  });
});

describe('fuzz: empty settings saves (found by the thorough fuzz, issues 17 and 25)', () => {
  const emptyBodies: Record<string, unknown[]> = {
    '/api/v2/image-opt/saveSettings': [{}, { unknown_key: 1 }],
    '/api/v1/saveNewGuideCfg': [{ settings: {} }, { page5: { day_backup: 1 }, settings: {} }],
    // The older settings object: nothing named, or only values it ignores.
    '/api/v1/updateAppSettingDataNew': [{}, { unknown_key: 1 }, { optimize_all_status: 'abc' }, { compression_level: 99 }],
  };
  it.each(Object.keys(emptyBodies))('%s refuses an empty object and marks nothing as configured', async (path) => {
    const before = await shopState(shopId);
    for (const body of emptyBodies[path]!) {
      expectRefused(await answerOf(await call(path, { method: 'POST', headers, json: body })), `${path} ${JSON.stringify(body)}`);
    }
    expect(await shopState(shopId)).toBe(before);
  });
});

describe('fuzz: queries', { timeout: fuzzTimeout(120_000, FUZZ_RUNS) }, () => {
  it.each(getRoutes.map((r) => [r.method, r.path]))(
    '%s %s answers hostile queries with a documented envelope',
    async (method, path) => {
      const before = await shopState(shopId);
      await fc.assert(
        fc.asyncProperty(hostileQuery, async (q) => {
          const a = await answerOf(await call(`${path}?${new URLSearchParams(q)}`, { method, headers }));
          expectDocumented(a, `${method} ${path}?${JSON.stringify(q).slice(0, 120)}`);
        }),
        { numRuns: FUZZ_RUNS },
      );
      // stopImageOptTask is a GET that changes jobs; the shop has none, so nothing may change either.
      expect(await shopState(shopId)).toBe(before);
    },
  );

  it('pages of the history and detail refuse negative, zero, huge and fractional numbers', async () => {
    for (const path of ['/api/v2/image-opt/getImageOptDataPage', '/api/v2/image-opt/getProductImagesData']) {
      for (const page of ['-1', '0', '-99999999999', '1e400', '99999999999999999999', 'NaN', '1.5']) {
        expectRefused(await answerOf(await call(`${path}?prod_id=1&page=${page}`, { headers })), `${path} page=${page}`);
      }
      for (const pageSize of ['-10', '0', '7', '1000000', 'abc']) {
        expectRefused(
          await answerOf(await call(`${path}?prod_id=1&pageSize=${pageSize}`, { headers })),
          `${path} pageSize=${pageSize}`,
        );
      }
    }
  });
});

describe('fuzz: routes without input', { timeout: fuzzTimeout(20_000, FUZZ_RUNS) }, () => {
  it.each(noInputRoutes.map((r) => [r.method, r.path]))('%s %s ignores any body and stays documented', async (method, path) => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          malformedJson,
          wrongBody.map((b) => JSON.stringify(b)),
        ),
        async (text) => {
          const a = await answerOf(
            await call(path, { method, headers: { ...headers, 'Content-Type': 'application/json' }, body: text }),
          );
          expect(a.status, `${method} ${path}: ${a.text.slice(0, 200)}`).toBeLessThan(500);
        },
      ),
      { numRuns: FUZZ_RUNS },
    );
  });
});

describe('fuzz: the shop after everything', { timeout: fuzzTimeout(20_000, FUZZ_RUNS) }, () => {
  it('holds exactly the rows and objects it had before the first fuzzed request', async () => {
    expect(await shopState(shopId)).toBe(baseline);
  });

  it.each(apiRoutes.filter((r) => CREDENTIAL_ROUTES.has(`${r.method} ${r.path}`)).map((r) => [r.method, r.path]))(
    "%s %s (changes the caller's credentials) never answers 500 to junk",
    async (method, path) => {
      const { headers: own } = await createShop();
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            malformedJson,
            wrongBody.map((b) => JSON.stringify(b)),
          ),
          async (text) => {
            const a = await answerOf(
              await call(path, { method, headers: { ...own, 'Content-Type': 'application/json' }, body: text }),
            );
            expectDocumented(a, `${method} ${path}`);
          },
        ),
        { numRuns: FUZZ_RUNS },
      );
    },
  );
});
