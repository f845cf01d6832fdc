// Shopify's calculated query cost: scalars and enums 0, objects 1, connections 2 + (first|last) x the
// cost of one node, every mutation field 10. Requested cost is computed before execution from the
// query; actual cost after, from what came back.
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  getNamedType,
  type GraphQLCompositeType,
  type GraphQLSchema,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  OperationTypeNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

export const MUTATION_COST = 10;

function argNumber(v: ValueNode | undefined, vars: Record<string, unknown>): number | null {
  if (!v) return null;
  if (v.kind === Kind.INT) return Number(v.value);
  if (v.kind === Kind.VARIABLE) {
    const x = vars[v.name.value];
    return typeof x === 'number' ? x : null;
  }
  return null;
}

export function requestedCost(
  schema: GraphQLSchema,
  doc: DocumentNode,
  op: OperationDefinitionNode,
  vars: Record<string, unknown>,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);

  const selectionCost = (type: GraphQLCompositeType, set: SelectionSetNode | undefined): number => {
    if (!set) return 0;
    let total = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value.startsWith('__')) continue;
        const fields = isObjectType(type) || isInterfaceType(type) ? type.getFields() : {};
        const def = fields[sel.name.value];
        if (!def) continue;
        const named = getNamedType(def.type);
        if (!isCompositeType(named)) continue;
        if (named.name.endsWith('Connection')) {
          const args = Object.fromEntries((sel.arguments ?? []).map((a) => [a.name.value, a.value]));
          const n = argNumber(args.first, vars) ?? argNumber(args.last, vars) ?? 1;
          total += 2 + n * connectionNodeCost(named, sel.selectionSet);
        } else total += 1 + selectionCost(named, sel.selectionSet);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const t = sel.typeCondition ? (schema.getType(sel.typeCondition.name.value) as GraphQLCompositeType) : type;
        total += selectionCost(t, sel.selectionSet);
      } else {
        const frag = fragments.get(sel.name.value);
        if (frag)
          total += selectionCost(schema.getType(frag.typeCondition.name.value) as GraphQLCompositeType, frag.selectionSet);
      }
    }
    return total;
  };

  // One node of a connection: the larger of what `edges { node }` and `nodes` select.
  const connectionNodeCost = (conn: GraphQLCompositeType, set: SelectionSetNode | undefined): number => {
    if (!set || !isObjectType(conn)) return 1;
    let best = 0;
    for (const sel of set.selections) {
      if (sel.kind !== Kind.FIELD) continue;
      const def = conn.getFields()[sel.name.value];
      if (!def) continue;
      const named = getNamedType(def.type);
      if (sel.name.value === 'nodes' && isCompositeType(named)) best = Math.max(best, 1 + selectionCost(named, sel.selectionSet));
      if (sel.name.value === 'edges' && isObjectType(named)) {
        const nodeSel = sel.selectionSet?.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'node');
        const nodeType = getNamedType(named.getFields().node!.type) as GraphQLCompositeType;
        best = Math.max(best, nodeSel && nodeSel.kind === Kind.FIELD ? 1 + selectionCost(nodeType, nodeSel.selectionSet) : 1);
      }
    }
    return Math.max(best, 1);
  };

  if (op.operation === OperationTypeNode.MUTATION) return MUTATION_COST * op.selectionSet.selections.length;
  return Math.max(1, selectionCost(schema.getQueryType()!, op.selectionSet));
}

/** Objects and connections that actually came back (cheaper than requested when pages are short). */
export function actualCost(data: unknown, isMutation: boolean, requested: number): number {
  if (isMutation) return requested;
  const walk = (v: unknown): number => {
    if (Array.isArray(v)) return v.reduce((s: number, x) => s + walk(x), 0);
    if (!v || typeof v !== 'object') return 0;
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.edges) || Array.isArray(o.nodes)) {
      const nodes = Array.isArray(o.nodes) ? o.nodes : (o.edges as { node?: unknown }[]).map((e) => e?.node);
      return 2 + nodes.reduce((s: number, n) => s + 1 + walkChildren(n), 0);
    }
    return 1 + walkChildren(o);
  };
  const walkChildren = (v: unknown): number =>
    v && typeof v === 'object' ? Object.entries(v).reduce((s, [k, x]) => (k === 'pageInfo' ? s : s + walk(x)), 0) : 0;
  const total = walkChildren(data);
  return Math.max(1, Math.min(requested, total));
}
