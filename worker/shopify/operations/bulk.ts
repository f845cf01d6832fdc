// Bulk queries for large catalogues: bulkOperationRunQuery, poll the operation until it ends, then
// stream the JSONL result. Children arrive as separate lines that point at their parent via __parentId.
import { throwOnUserErrors, type UserError } from '../errors';
import type { AdminClient } from '../graphql-client';
import { realClock, type Clock } from '../throttle';
import { MEDIA_IMAGE_FIELDS, toProduct, type ProductWithMedia, type RawMedia, type RawProduct } from './products';

export type BulkOperation = {
  id: string;
  /** BulkOperationStatus: CREATED, RUNNING, COMPLETED, FAILED, CANCELING, CANCELED, EXPIRED; a string, as Shopify may add values. */
  status: string;
  errorCode: string | null;
  objectCount: string;
  url: string | null;
  partialDataUrl: string | null;
};

export const RUN_QUERY = /* GraphQL */ `
  mutation BulkRunQuery($query: String!) {
    bulkOperationRunQuery(query: $query) {
      bulkOperation { id status }
      userErrors { field message code }
    }
  }
`;

export const BULK_STATUS = /* GraphQL */ `
  query BulkStatus($id: ID!) {
    node(id: $id) { ... on BulkOperation { id status errorCode objectCount url partialDataUrl } }
  }
`;

/** Starts a bulk query; returns the operation id. A running one for this app gives a ShopifyUserError. */
export async function startBulkQuery(client: AdminClient, query: string): Promise<string> {
  const d = await client.request<{ bulkOperationRunQuery: { bulkOperation: { id: string } | null; userErrors: UserError[] } }>(
    RUN_QUERY,
    { query },
  );
  throwOnUserErrors('bulkOperationRunQuery', d.bulkOperationRunQuery);
  if (!d.bulkOperationRunQuery.bulkOperation) throw new Error('bulkOperationRunQuery returned no operation');
  return d.bulkOperationRunQuery.bulkOperation.id;
}

export async function getBulkOperation(client: AdminClient, id: string): Promise<BulkOperation | null> {
  return (await client.request<{ node: BulkOperation | null }>(BULK_STATUS, { id })).node;
}

/** Polls until the operation leaves CREATED/RUNNING; throws on FAILED/CANCELED/EXPIRED. */
export async function waitForBulkOperation(
  client: AdminClient,
  id: string,
  opts: { timeoutMs?: number; intervalMs?: number; clock?: Clock } = {},
): Promise<BulkOperation> {
  const clock = opts.clock ?? realClock;
  const deadline = clock.now() + (opts.timeoutMs ?? 10 * 60_000);
  let interval = opts.intervalMs ?? 1_000;
  for (;;) {
    const op = await getBulkOperation(client, id);
    if (!op) throw new Error(`bulk operation ${id} not found`);
    if (op.status === 'COMPLETED') return op;
    if (op.status !== 'CREATED' && op.status !== 'RUNNING')
      throw new Error(`bulk operation ${id} ended ${op.status}${op.errorCode ? ` (${op.errorCode})` : ''}`);
    if (clock.now() + interval > deadline) throw new Error(`bulk operation ${id} still ${op.status}`);
    await clock.sleep(interval);
    interval = Math.min(interval * 1.5, 10_000);
  }
}

/** Streams the JSONL result line by line (a completed operation with no objects has url null). */
export async function* readJsonl(url: string | null): AsyncGenerator<Record<string, unknown>> {
  if (!url) return;
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`bulk result download failed: ${res.status}`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffered += value;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl).trim();
      buffered = buffered.slice(nl + 1);
      if (line) yield JSON.parse(line) as Record<string, unknown>;
    }
    if (done) break;
  }
  if (buffered.trim()) yield JSON.parse(buffered) as Record<string, unknown>;
}

export const PRODUCTS_WITH_MEDIA_BULK_QUERY = /* GraphQL */ `
  {
    products {
      edges {
        node {
          id title handle vendor productType status publishedAt updatedAt
          featuredMedia { preview { image { url } } }
          variants(first: 1) { edges { node { id title price } } }
          media { edges { node { ${MEDIA_IMAGE_FIELDS} } } }
        }
      }
    }
  }
`;

/** A JSONL field as text: Shopify writes ids, titles and prices (Money) as strings. */
const text = (v: unknown): string => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');

/** Groups the JSONL lines of PRODUCTS_WITH_MEDIA_BULK_QUERY back into products (pure, for the tests). */
export function assembleBulkProducts(lines: Iterable<Record<string, unknown>>): ProductWithMedia[] {
  const products = new Map<string, { raw: RawProduct; media: RawMedia[]; variant?: { title: string; price: string } }>();
  for (const line of lines) {
    const id = text(line.id);
    const parent = line.__parentId as string | undefined;
    if (!parent) {
      products.set(id, { raw: line as unknown as RawProduct, media: [] });
      continue;
    }
    const owner = products.get(parent);
    if (!owner) continue; // Shopify writes parents before children; an orphan is ignored
    if (id.includes('/ProductVariant/')) owner.variant ??= { title: text(line.title), price: text(line.price) };
    else owner.media.push(line as unknown as RawMedia);
  }
  return [...products.values()].map((p) => toProduct(p.raw, p.media, p.variant));
}

/** The whole catalogue of products with media through one bulk operation. Returns the operation id too. */
export async function bulkFetchProductsWithMedia(
  client: AdminClient,
  opts: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<{ operationId: string; products: ProductWithMedia[] }> {
  const operationId = await startBulkQuery(client, PRODUCTS_WITH_MEDIA_BULK_QUERY);
  const op = await waitForBulkOperation(client, operationId, opts);
  const lines: Record<string, unknown>[] = [];
  for await (const line of readJsonl(op.url)) lines.push(line);
  return { operationId, products: assembleBulkProducts(lines) };
}
