// Admin GraphQL: Shopify's shapes, pagination, search filters, cost extensions and the leaky bucket.
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulatorShop, type EmulatorShop } from '../emulator-client';

let shop: EmulatorShop;
beforeAll(async () => {
  shop = await createEmulatorShop({ install: true });
});

type Media = {
  id: string;
  alt: string;
  status: string;
  mediaContentType: string;
  mimeType: string;
  image: { url: string; width: number; height: number };
  originalSource: { fileSize: number; url: string };
};
type ProductsData = {
  products: {
    pageInfo: { hasNextPage: boolean; endCursor: string };
    nodes: { id: string; title: string; status: string; publishedAt: string | null; media: { nodes: Media[] } }[];
  };
};

const PRODUCTS = `query P($first: Int!, $after: String, $query: String) {
  products(first: $first, after: $after, query: $query, sortKey: ID) {
    pageInfo { hasNextPage endCursor }
    nodes { id title status publishedAt media(first: 3) { nodes { id alt status mediaContentType ... on MediaImage { mimeType image { url width height } originalSource { fileSize url } } } } }
  }
}`;

describe('emulator Admin GraphQL', () => {
  it('answers the shop query with Shopify field names and a cost extension', async () => {
    const { status, body } = await shop.graphql<{
      shop: { id: string; myshopifyDomain: string; plan: { partnerDevelopment: boolean }; primaryDomain: { url: string } };
    }>('{ shop { id myshopifyDomain plan { partnerDevelopment publicDisplayName } primaryDomain { url host } } }');
    expect(status).toBe(200);
    expect(body.data?.shop).toMatchObject({ myshopifyDomain: shop.domain, plan: { partnerDevelopment: true } });
    expect(body.data?.shop.id).toMatch(/^gid:\/\/shopify\/Shop\/\d+$/);
    expect(body.extensions?.cost).toMatchObject({
      requestedQueryCost: 3,
      throttleStatus: { maximumAvailable: 2000, restoreRate: 100 },
    });
  });

  it('pages through products with cursors and filters by status, with real image bytes behind the URLs', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: { body: { data?: ProductsData } } = await shop.graphql<ProductsData>(PRODUCTS, { first: 7, after });
      const data = page.body.data!.products;
      seen.push(...data.nodes.map((n) => n.id));
      if (!data.pageInfo.hasNextPage) break;
      after = data.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(20);
    expect(new Set(seen).size).toBe(20);

    const drafts = (await shop.graphql<ProductsData>(PRODUCTS, { first: 50, query: 'status:draft' })).body.data!.products.nodes;
    expect(drafts.length).toBe(2);
    expect(drafts.every((p) => p.status === 'DRAFT' && p.publishedAt === null)).toBe(true);
    const unpublished = (
      await shop.graphql<ProductsData>(PRODUCTS, { first: 50, query: 'status:active published_status:unpublished' })
    ).body.data!.products.nodes;
    expect(unpublished.length).toBe(2);

    const media = (await shop.graphql<ProductsData>(PRODUCTS, { first: 1 })).body.data!.products.nodes[0]!.media.nodes;
    expect(media.length).toBeGreaterThan(1);
    const m = media[0]!;
    expect(m).toMatchObject({ mediaContentType: 'IMAGE', status: 'READY', mimeType: 'image/jpeg' });
    const bytes = new Uint8Array(await (await fetch(m.image.url)).arrayBuffer());
    expect(bytes.length).toBe(m.originalSource.fileSize);
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
  });

  it('lists collections with images, blog articles, and the main theme settings_data.json with its comment header', async () => {
    const { body } = await shop.graphql<{
      collections: { nodes: { image: { url: string } | null; ruleSet: unknown }[] };
      articles: {
        nodes: { blog: { title: string }; image: { url: string; altText: string | null } | null; isPublished: boolean }[];
      };
      themes: { nodes: { role: string; files: { nodes: { filename: string; body: { content: string } }[] } }[] };
    }>(`{
      collections(first: 50) { nodes { title image { url altText width height } ruleSet { rules { column relation condition } } } }
      articles(first: 50) { nodes { title isPublished blog { title } image { url altText } } }
      themes(first: 1, roles: [MAIN]) { nodes { id role files(filenames: ["config/settings_data.json"], first: 1) { nodes { filename body { ... on OnlineStoreThemeFileBodyText { content } } } } } }
    }`);
    expect(body.data!.collections.nodes.filter((c) => c.image).length).toBeGreaterThanOrEqual(4);
    expect(body.data!.collections.nodes.some((c) => c.ruleSet)).toBe(true);
    expect(body.data!.articles.nodes.filter((a) => a.image).length).toBeGreaterThanOrEqual(5);
    expect(body.data!.articles.nodes.some((a) => !a.isPublished)).toBe(true);
    const content = body.data!.themes.nodes[0]!.files.nodes[0]!.body.content;
    expect(content.startsWith('/*')).toBe(true);
    expect(content).toContain('IMPORTANT: The contents of this file are auto-generated.');
  });

  it('rejects unknown fields, missing page sizes and over-expensive queries like Shopify', async () => {
    expect((await shop.graphql('{ shop { nope } }')).body.errors).toBeDefined();
    const noFirst = await shop.graphql('{ products { nodes { id } } }');
    expect(JSON.stringify(noFirst.body.errors)).toContain('you must provide one of first or last');
    const tooBig = await shop.graphql('{ products(first: 250) { nodes { id media(first: 250) { nodes { id } } } } }');
    expect(JSON.stringify(tooBig.body.errors)).toContain('MAX_COST_EXCEEDED');
  });

  it('answers THROTTLED when the bucket is overdrawn and refills at the restore rate', async () => {
    const small = await createEmulatorShop({ install: true, settings: { maximumAvailable: 30, restoreRate: 1 } });
    const q = '{ products(first: 10) { nodes { id } } }'; // requested cost 2 + 10 x 1 = 12
    const a = await small.graphql(q);
    const b = await small.graphql(q);
    const c = await small.graphql(q);
    expect(a.body.extensions?.cost.requestedQueryCost).toBe(12);
    expect(b.body.errors).toBeUndefined();
    expect(c.body.errors).toEqual([
      expect.objectContaining({ message: 'Throttled', extensions: expect.objectContaining({ code: 'THROTTLED' }) }),
    ]);
    expect(c.body.extensions?.cost.throttleStatus.currentlyAvailable).toBeLessThan(12);
    await small.setSettings({ restoreRate: 1000 }); // refills 12 points in ~12 ms
    await new Promise((r) => setTimeout(r, 50));
    expect((await small.graphql(q)).body.errors).toBeUndefined();
    expect((await small.info()).stats.throttled).toBe(1);
  });

  it("validates against Shopify's published schema and answers errors as Shopify words them", async () => {
    const bad = await shop.graphql(
      'query B { blogs(first: 1) { nodes { articles(first: 2, sortKey: ID) { nodes { id } } } } shop { nope } }',
    );
    expect(bad.status).toBe(200);
    expect(bad.body.data).toBeUndefined();
    expect(bad.body.extensions).toBeUndefined();
    expect(bad.body.errors).toEqual([
      {
        message: "Field 'articles' doesn't accept argument 'sortKey'",
        locations: [{ line: 1, column: 56 }],
        path: ['query B', 'blogs', 'nodes', 'articles', 'sortKey'],
        extensions: { code: 'argumentNotAccepted', name: 'articles', typeName: 'Field', argumentName: 'sortKey' },
      },
      {
        message: "Field 'nope' doesn't exist on type 'Shop'",
        locations: [{ line: 1, column: 97 }],
        path: ['query B', 'shop', 'nope'],
        extensions: { code: 'undefinedField', typeName: 'Shop', fieldName: 'nope' },
      },
    ]);
    const missing = await shop.graphql('{ product { id } }');
    expect(missing.body.errors).toEqual([
      expect.objectContaining({
        message: "Field 'product' is missing required arguments: id",
        extensions: { code: 'missingRequiredArguments', className: 'Field', name: 'product', arguments: 'id' },
      }),
    ]);
    const mismatch = await shop.graphql('query P($id: ID) { product(id: $id) { id } }', { id: 'gid://shopify/Product/1' });
    expect(mismatch.body.errors).toEqual([
      expect.objectContaining({
        message: 'Nullability mismatch on variable $id and argument id (ID / ID!)',
        extensions: expect.objectContaining({ code: 'variableMismatch' }),
      }),
    ]);
  });

  it('checks variables against their declared input types (graphql-ruby problems with paths)', async () => {
    const r = await shop.graphql(
      'mutation C($collection: CollectionUpdateInput!) { collectionUpdate(collection: $collection) { userErrors { message } } }',
      { collection: { id: 'gid://shopify/Collection/1', colour: 'red', image: { src: 5 } } },
    );
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors).toEqual([
      {
        message:
          'Variable $collection of type CollectionUpdateInput! was provided invalid value for colour (Field is not defined on CollectionUpdateInput), image.src (Could not coerce value 5 to String)',
        locations: [{ line: 1, column: 12 }],
        extensions: {
          value: { id: 'gid://shopify/Collection/1', colour: 'red', image: { src: 5 } },
          problems: [
            { path: ['colour'], explanation: 'Field is not defined on CollectionUpdateInput' },
            { path: ['image', 'src'], explanation: 'Could not coerce value 5 to String' },
          ],
        },
      },
    ]);
    // Shopify's custom scalars keep their formats (an introspection result alone would accept anything).
    const relative = await shop.graphql('query W($u: URL) { webhookSubscriptions(first: 1, callbackUrl: $u) { nodes { id } } }', {
      u: '/webhooks',
    });
    expect(relative.body.errors).toEqual([
      expect.objectContaining({
        message: 'Variable $u of type URL was provided invalid value',
        extensions: { value: '/webhooks', problems: [{ path: [], explanation: 'Could not coerce value "/webhooks" to URL' }] },
      }),
    ]);
    const absent = await shop.graphql('query P($first: Int!) { products(first: $first) { nodes { id } } }');
    expect(absent.body.errors).toEqual([
      {
        message: 'Variable $first of type Int! was provided invalid value',
        locations: [{ line: 1, column: 9 }],
        extensions: { value: null, problems: [{ path: [], explanation: 'Expected value to not be null' }] },
      },
    ]);
  });

  it('serves the pinned API version with its published schema; older ones fall forward to it, unknown ones are 404', async () => {
    const post = (version: string, query: string) =>
      fetch(`${shop.base}/admin/api/${version}/graphql.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': shop.tokens!.access_token },
        body: JSON.stringify({ query }),
      });
    // collectionUpdate(collection:) arrived in 2026-07; the committed 2026-10 schema has it, and no `colour`.
    const mutation = 'mutation { collectionUpdate(collection: { id: "gid://shopify/Collection/0" }) { userErrors { message } } }';
    const current = await post('2026-10', mutation);
    expect(current.headers.get('X-Shopify-API-Version')).toBe('2026-10');
    expect(
      (await current.json<{ data?: { collectionUpdate: { userErrors: { message: string }[] } } }>()).data?.collectionUpdate
        .userErrors,
    ).toEqual([{ message: 'Collection does not exist' }]);
    const unknownArg = await post('2026-10', 'mutation { collectionUpdate(colour: "red") { userErrors { message } } }');
    expect(JSON.stringify(await unknownArg.json())).toContain("Field 'collectionUpdate' doesn't accept argument 'colour'");
    // Only 2026-10 is committed (emulator/graphql/schema/): an older version falls forward to it.
    const ancient = await post('2019-04', '{ shop { id } }');
    expect(ancient.status).toBe(200);
    expect(ancient.headers.get('X-Shopify-API-Version')).toBe('2026-10');
    expect((await post('2099-01', '{ shop { id } }')).status).toBe(404);
  });

  it('refuses a bulk query the schema does not accept when it is created', async () => {
    const { body } = await shop.graphql<{
      bulkOperationRunQuery: { bulkOperation: unknown; userErrors: { code: string; field: string[]; message: string }[] };
    }>(
      'mutation R($q: String!) { bulkOperationRunQuery(query: $q) { bulkOperation { id } userErrors { code field message } } }',
      { q: '{ products { edges { node { id colour } } } }' },
    );
    expect(body.data!.bulkOperationRunQuery.bulkOperation).toBeNull();
    expect(body.data!.bulkOperationRunQuery.userErrors).toEqual([
      { code: 'INVALID', field: ['query'], message: "Invalid bulk query: Field 'colour' doesn't exist on type 'Product'" },
    ]);
  });

  it('injects HTTP 429 with Retry-After, 5xx, and slow answers on the next requests only', async () => {
    await shop.injectFault({ target: 'graphql', status: 429, times: 1, retryAfter: 1 });
    await shop.injectFault({ target: 'graphql', status: 503, times: 1 });
    const limited = await shop.graphql('{ shop { id } }');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('1.0');
    const raw = await fetch(`${shop.base}/admin/api/2026-10/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': shop.tokens!.access_token },
      body: '{"query":"{ shop { id } }"}',
    });
    expect(raw.status).toBe(503);
    await shop.injectFault({ target: 'graphql', delayMs: 150 });
    const t = Date.now();
    expect((await shop.graphql('{ shop { id } }')).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
  });
});
