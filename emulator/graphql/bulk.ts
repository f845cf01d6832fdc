// Bulk operations: the query runs without pagination limits, and the result is flattened into JSONL
// the way Shopify does it: one line per node of each connection, nested connection nodes on their own
// lines with `__parentId` naming the parent node.
import { type ArgumentNode, type ExecutionResult, type FieldNode, GraphQLError, Kind, parse, print, visit } from 'graphql';
import { isoNow } from '../store/registry';
import type { BulkOperationRec } from '../store/types';
import { enqueueWebhook } from '../webhooks';
import type { Ctx } from './context';
import { encodeCursor, gid, parseGid } from './ids';
import { validateDocument } from './validate';

export type Executor = (ctx: Ctx, query: string) => Promise<ExecutionResult>;

type Json = Record<string, unknown>;

function isConnection(v: unknown): v is { edges?: { node: Json }[]; nodes?: Json[] } {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Json;
  return (Array.isArray(o.edges) && o.edges.every((e) => e && typeof e === 'object' && 'node' in e)) || Array.isArray(o.nodes);
}

function nodesOf(conn: { edges?: { node: Json }[]; nodes?: Json[] }): Json[] {
  return conn.edges ? conn.edges.map((e) => e.node) : (conn.nodes ?? []);
}

export function flattenToJsonl(data: Json): { lines: string[]; roots: number } {
  const lines: string[] = [];
  let roots = 0;
  const emit = (node: Json, parentId: string | null) => {
    const own: Json = {};
    const children: Json[][] = [];
    for (const [k, v] of Object.entries(node)) {
      if (isConnection(v)) children.push(nodesOf(v));
      else own[k] = v;
    }
    if (parentId) own.__parentId = parentId;
    lines.push(JSON.stringify(own));
    const id = typeof node.id === 'string' ? node.id : null;
    for (const list of children) for (const child of list) emit(child, id);
  };
  for (const value of Object.values(data)) {
    if (isConnection(value)) {
      for (const node of nodesOf(value)) {
        roots += 1;
        emit(node, null);
      }
    } else if (value && typeof value === 'object') {
      roots += 1;
      emit(value as Json, null);
    }
  }
  return { lines, roots };
}

const BULK_PAGE = 250;

/**
 * Runs a bulk query page by page over its root connection, yielding to the event loop between pages,
 * so a 10,000-product export does not stall every other request for seconds. The pages are merged
 * back into one result, exactly what a single unpaginated run would give.
 */
async function executePaged(ctx: Ctx, query: string, execute: Executor): Promise<ExecutionResult> {
  const doc = parse(query);
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const root =
    op?.kind === Kind.OPERATION_DEFINITION
      ? op.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD)
      : undefined;
  if (!root || !root.selectionSet || !/\bid\b/.test(print(root.selectionSet))) return execute(ctx, query);
  const key = root.alias?.value ?? root.name.value;
  const nodes: Json[] = [];
  let shape: 'edges' | 'nodes';
  let after: string | null = null;
  for (;;) {
    const args: ArgumentNode[] = (root.arguments ?? []).filter((a) => a.name.value !== 'first' && a.name.value !== 'after');
    args.push({
      kind: Kind.ARGUMENT,
      name: { kind: Kind.NAME, value: 'first' },
      value: { kind: Kind.INT, value: String(BULK_PAGE) },
    });
    if (after)
      args.push({ kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: 'after' }, value: { kind: Kind.STRING, value: after } });
    const pageDoc = visit(doc, { Field: { enter: (node) => (node === root ? { ...node, arguments: args } : undefined) } });
    const result = await execute(ctx, print(pageDoc));
    const conn = result.data?.[key];
    if (result.errors?.length || !isConnection(conn)) return result;
    shape = conn.edges ? 'edges' : 'nodes';
    const page = nodesOf(conn);
    nodes.push(...page);
    const lastId = page[page.length - 1]?.id;
    const n = typeof lastId === 'string' ? parseGid(lastId) : null;
    if (page.length < BULK_PAGE || n === null) break;
    after = encodeCursor(n);
    await new Promise((r) => setImmediate(r));
  }
  return { data: { [key]: shape === 'edges' ? { edges: nodes.map((node) => ({ node })) } : { nodes } } };
}

export function bulkOperationView(ctx: Ctx, op: BulkOperationRec): Json {
  const url =
    op.status === 'COMPLETED' && op.jsonl !== null && op.objectCount > 0
      ? `${ctx.emu.origin}/bulk-results/${ctx.shop.domain}/${op.id}.jsonl`
      : null;
  return {
    __typename: 'BulkOperation',
    id: gid('BulkOperation', op.id),
    status: op.status,
    type: op.type,
    errorCode: op.errorCode,
    createdAt: op.createdAt,
    completedAt: op.completedAt,
    objectCount: String(op.objectCount),
    rootObjectCount: String(op.rootObjectCount),
    fileSize: op.jsonl !== null && url ? String(Buffer.byteLength(op.jsonl)) : null,
    url,
    partialDataUrl: null,
    query: op.query,
  };
}

export function bulkOperationRunQuery(args: { query: string }, ctx: Ctx, execute: Executor) {
  const running = ctx.shop.bulkOperations.find((o) => o.type === 'QUERY' && (o.status === 'CREATED' || o.status === 'RUNNING'));
  if (running) {
    return {
      bulkOperation: null,
      userErrors: [
        {
          code: 'OPERATION_IN_PROGRESS',
          field: ['query'],
          message: `A bulk query operation for this app and shop is already in progress: ${gid('BulkOperation', running.id)}.`,
        },
      ],
    };
  }
  try {
    const doc = parse(args.query);
    if (doc.definitions.length !== 1) throw new GraphQLError('Bulk queries must contain exactly one operation');
    // Shopify checks the query against the schema when the operation is created, not when it runs.
    const invalid = ctx.schema ? validateDocument(ctx.schema, doc)[0] : undefined;
    if (invalid) throw new GraphQLError(invalid.message);
  } catch (e) {
    return {
      bulkOperation: null,
      userErrors: [{ code: 'INVALID', field: ['query'], message: `Invalid bulk query: ${(e as Error).message}` }],
    };
  }
  const op: BulkOperationRec = {
    id: ctx.emu.nextId(),
    type: 'QUERY',
    status: 'CREATED',
    query: args.query,
    createdAt: isoNow(),
    completedAt: null,
    objectCount: 0,
    rootObjectCount: 0,
    jsonl: null,
    errorCode: null,
  };
  ctx.shop.bulkOperations.push(op);
  setTimeout(() => {
    op.status = 'RUNNING';
    void (async () => {
      const result = await executePaged({ ...ctx, bulk: true }, args.query, execute);
      await new Promise((r) => setTimeout(r, ctx.shop.settings.bulkOperationMs).unref?.());
      if ((op.status as string) === 'CANCELING') {
        op.status = 'CANCELED';
      } else if (result.errors?.length || !result.data) {
        op.status = 'FAILED';
        op.errorCode = 'INTERNAL_SERVER_ERROR';
      } else {
        const { lines, roots } = flattenToJsonl(result.data);
        op.jsonl = lines.length ? `${lines.join('\n')}\n` : '';
        op.objectCount = lines.length;
        op.rootObjectCount = roots;
        op.status = 'COMPLETED';
      }
      op.completedAt = isoNow();
      enqueueWebhook(ctx.emu, ctx.shop, 'bulk_operations/finish', {
        admin_graphql_api_id: gid('BulkOperation', op.id),
        completed_at: op.completedAt,
        created_at: op.createdAt,
        error_code: op.errorCode?.toLowerCase() ?? null,
        status: op.status.toLowerCase(),
        type: 'query',
      });
    })();
  }, 0).unref?.();
  return { bulkOperation: bulkOperationView(ctx, op), userErrors: [] };
}

export function bulkOperationCancel(args: { id: string }, ctx: Ctx) {
  const op = ctx.shop.bulkOperations.find((o) => o.id === parseGid(args.id, 'BulkOperation'));
  if (!op) return { bulkOperation: null, userErrors: [{ field: ['id'], message: 'Bulk operation does not exist' }] };
  if (op.status === 'CREATED' || op.status === 'RUNNING') op.status = 'CANCELING';
  else
    return {
      bulkOperation: bulkOperationView(ctx, op),
      userErrors: [{ field: ['id'], message: `A bulk operation cannot be canceled when it is ${op.status.toLowerCase()}` }],
    };
  return { bulkOperation: bulkOperationView(ctx, op), userErrors: [] };
}
