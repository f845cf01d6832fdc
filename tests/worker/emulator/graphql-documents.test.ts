// Every Admin GraphQL document the Worker can send is valid against Shopify's published schema for the
// pinned API version (the introspection @shopify/dev-mcp ships, committed in emulator/graphql/schema/; the emulator checks it without running
// anything). Fails on drift: a field, argument or type that Shopify does not have, a deprecated one, a
// pinned version the schema package does not ship, or a document in worker/ missing from the list.
import { parse, Kind } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ADMIN_GRAPHQL_DOCUMENTS, BULK_QUERY_DOCUMENTS, SHOPIFY_API_VERSION } from '../../../worker/shopify';
import { emulatorOrigin } from '../emulator-client';

type Check = {
  requested: string;
  version: string | null;
  package: string;
  source: string | null;
  errors: { message: string; extensions?: { code?: string } }[];
  deprecations: string[];
};

async function check(query: string, version = SHOPIFY_API_VERSION): Promise<Check> {
  const res = await fetch(`${emulatorOrigin()}/__emulator/graphql/validate`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, version }),
  });
  expect(res.status).toBe(200);
  return await res.json<Check>();
}

// The Worker's sources as text, to find documents that were not added to the list.
const sources = import.meta.glob<string>('../../../worker/**/*.ts', { query: '?raw', import: 'default', eager: true });

describe('the Worker’s Admin GraphQL documents against the published schema', () => {
  it('checks against the pinned version itself, from the pinned schema package', async () => {
    const r = await check('{ shop { id } }');
    expect(r.version).toBe(SHOPIFY_API_VERSION);
    expect(r.package).toMatch(/^@shopify\/dev-mcp@\d+\.\d+\.\d+$/);
    expect(r.source).toBe(`emulator/graphql/schema/admin_${SHOPIFY_API_VERSION}.json.gz`);
  });

  it('rejects what the published schema does not have (the old hand-written copy accepted these)', async () => {
    const sortKey = await check('{ blogs(first: 1) { nodes { articles(first: 1, sortKey: ID) { nodes { id } } } } }');
    expect(sortKey.errors).toEqual([
      expect.objectContaining({
        message: "Field 'articles' doesn't accept argument 'sortKey'",
        extensions: expect.objectContaining({ code: 'argumentNotAccepted' }),
      }),
    ]);
    const relevance = await check('{ products(first: 1) { nodes { media(first: 1, sortKey: RELEVANCE) { nodes { id } } } } }');
    expect(relevance.errors).toEqual([
      expect.objectContaining({
        message: "Argument 'sortKey' on Field 'media' has an invalid value (RELEVANCE). Expected type 'ProductMediaSortKeys'.",
      }),
    ]);
    expect((await check('{ shop { id } }', '2099-01')).version).toBeNull();
  });

  const documents = Object.entries(ADMIN_GRAPHQL_DOCUMENTS);
  it.each(documents)('%s is valid and uses nothing deprecated', async (name, query) => {
    const ops = parse(query).definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    expect(ops.map((o) => o.name?.value)).toEqual([name]);
    const r = await check(query);
    expect(r.errors).toEqual([]);
    expect(r.deprecations).toEqual([]);
  });

  it.each(Object.entries(BULK_QUERY_DOCUMENTS))('bulk query %s is valid and uses nothing deprecated', async (_name, query) => {
    const r = await check(query);
    expect(r.errors).toEqual([]);
    expect(r.deprecations).toEqual([]);
  });

  it('lists every named operation written in worker/', () => {
    const found = new Map<string, string>();
    for (const [file, text] of Object.entries(sources)) {
      for (const m of text.matchAll(/\b(?:query|mutation|subscription)\s+([A-Z]\w*)\s*[({]/g)) found.set(m[1]!, file);
    }
    expect(found.size).toBeGreaterThanOrEqual(documents.length);
    const missing = [...found].filter(([name]) => !(name in ADMIN_GRAPHQL_DOCUMENTS)).map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
  });
});
