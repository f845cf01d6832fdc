// Runs one Admin GraphQL request: parse, validate the document and its variables against Shopify's
// published schema for the requested API version (published-schema.ts), charge the shop's leaky bucket,
// execute with our resolvers, and report `extensions.cost` with throttleStatus where Shopify puts it.
import {
  execute,
  type ExecutionResult,
  getOperationAST,
  GraphQLError,
  type GraphQLSchema,
  OperationTypeNode,
  parse,
} from 'graphql';
import type { Emulator } from '../store/registry';
import type { ShopState } from '../store/shop-state';
import type { Ctx } from './context';
import { actualCost, requestedCost } from './cost';
import { publishedSchema } from './published-schema';
import { buildRoot } from './root';
import { validateDocument, validateVariables } from './validate';

/** Shopify refuses any single query whose requested cost is above 1,000 points. */
export const SINGLE_QUERY_MAX_COST = 1000;

export function refillBucket(shop: ShopState, now = Date.now()): void {
  const { bucket, settings } = shop;
  bucket.available = Math.min(
    settings.maximumAvailable,
    bucket.available + ((now - bucket.updatedAt) / 1000) * settings.restoreRate,
  );
  bucket.updatedAt = now;
}

function throttleStatus(shop: ShopState) {
  return {
    maximumAvailable: shop.settings.maximumAvailable,
    currentlyAvailable: Math.floor(shop.bucket.available),
    restoreRate: shop.settings.restoreRate,
  };
}

/** Executes without cost accounting (bulk operations run outside the bucket, as on Shopify). */
export async function executeUnmetered(
  ctx: Ctx,
  query: string,
  variables: Record<string, unknown> = {},
  operationName?: string,
): Promise<ExecutionResult> {
  const schema = ctx.schema;
  if (!schema) throw new Error('executeUnmetered runs inside a GraphQL request (ctx.schema)');
  const doc = parse(query);
  const errors = validateDocument(schema, doc);
  if (errors.length) return { errors: errors.map((e) => new GraphQLError(e.message, { extensions: e.extensions })) };
  return execute({
    schema,
    document: doc,
    rootValue: buildRoot(ctx, executeUnmetered),
    contextValue: ctx,
    variableValues: variables,
    operationName,
  });
}

// The Worker sends the same few documents over and over: each is validated once per schema.
const validQueries = new WeakMap<GraphQLSchema, Set<string>>();
const knownValid = (schema: GraphQLSchema) => validQueries.get(schema) ?? new Set<string>();
function rememberValid(schema: GraphQLSchema, query: string): void {
  const set = validQueries.get(schema) ?? new Set<string>();
  if (set.size >= 1000) set.clear();
  set.add(query);
  validQueries.set(schema, set);
}

export type GraphqlBody = { query?: unknown; variables?: unknown; operationName?: unknown };

/** `version` is a published API version (the admin route maps the request path onto one). */
export async function runAdminGraphql(
  emu: Emulator,
  shop: ShopState,
  body: GraphqlBody,
  version: string,
): Promise<{ status: number; json: unknown }> {
  shop.stats.graphqlRequests += 1;
  if (typeof body.query !== 'string' || !body.query.trim())
    return { status: 400, json: { errors: { query: 'Required parameter missing or invalid' } } };
  const variables = body.variables && typeof body.variables === 'object' ? (body.variables as Record<string, unknown>) : {};
  const operationName = typeof body.operationName === 'string' ? body.operationName : undefined;
  let doc;
  try {
    doc = parse(body.query);
  } catch (e) {
    const err = e as GraphQLError;
    return { status: 200, json: { errors: [{ message: err.message, locations: err.locations }] } };
  }
  const schema: GraphQLSchema = publishedSchema(version);
  if (!knownValid(schema).has(body.query)) {
    const validation = validateDocument(schema, doc);
    if (validation.length) return { status: 200, json: { errors: validation } };
    rememberValid(schema, body.query);
  }
  const op = getOperationAST(doc, operationName);
  if (!op)
    return {
      status: 200,
      json: { errors: [{ message: operationName ? `No operation named "${operationName}"` : 'An operation name is required' }] },
    };
  const badVariables = validateVariables(schema, op, variables);
  if (badVariables.length) return { status: 200, json: { errors: badVariables } };

  const requested = requestedCost(schema, doc, op, variables);
  refillBucket(shop);
  if (requested > SINGLE_QUERY_MAX_COST) {
    return {
      status: 200,
      json: {
        errors: [
          {
            message: `Query cost is ${requested}, which exceeds the single query max cost limit (${SINGLE_QUERY_MAX_COST}).\n\nSee https://shopify.dev/concepts/about-apis/rate-limits for more information on how the\ncost of a query is calculated.\n\nTo query larger amounts of data with fewer limits, bulk operations should be used instead.\nSee https://shopify.dev/tutorials/perform-bulk-operations-with-admin-api for usage details.\n`,
            extensions: { code: 'MAX_COST_EXCEEDED', cost: requested, maxCost: SINGLE_QUERY_MAX_COST },
          },
        ],
      },
    };
  }
  if (requested > shop.bucket.available) {
    shop.stats.throttled += 1;
    return {
      status: 200,
      json: {
        errors: [
          { message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } },
        ],
        extensions: { cost: { requestedQueryCost: requested, actualQueryCost: null, throttleStatus: throttleStatus(shop) } },
      },
    };
  }
  shop.bucket.available -= requested;
  const ctx: Ctx = { emu, shop, bulk: false, schema };
  const result = await execute({
    schema,
    document: doc,
    rootValue: buildRoot(ctx, executeUnmetered),
    contextValue: ctx,
    variableValues: variables,
    operationName,
  });
  const actual = actualCost(result.data, op.operation === OperationTypeNode.MUTATION, requested);
  shop.bucket.available = Math.min(shop.settings.maximumAvailable, shop.bucket.available + (requested - actual)); // refund the unused part
  const json: Record<string, unknown> = {};
  if (result.errors?.length) json.errors = result.errors.map((e) => e.toJSON());
  if (result.data !== undefined) json.data = result.data;
  json.extensions = { cost: { requestedQueryCost: requested, actualQueryCost: actual, throttleStatus: throttleStatus(shop) } };
  return { status: 200, json };
}
