// Validation of a document and its variables against the published schema, answered as Shopify answers
// (its API runs graphql-ruby): top-level `errors` with graphql-ruby's messages, `locations`, a `path` of
// operation / field / argument names, and `extensions.code` (undefinedField, argumentNotAccepted,
// missingRequiredArguments, variableMismatch, ...). graphql-js finds the errors; this module only words
// them the way Shopify does. Rules without a Shopify wording keep graphql-js's message.
import {
  type ASTNode,
  coerceInputValue,
  type DocumentNode,
  type FieldNode,
  getNamedType,
  type GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  isEnumType,
  isInputType,
  isNonNullType,
  Kind,
  type OperationDefinitionNode,
  print,
  specifiedRules,
  TypeInfo,
  typeFromAST,
  validate,
  visit,
  visitWithTypeInfo,
} from 'graphql';

export type ShopifyGraphqlError = {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
};

/** Where a node sits: graphql-ruby's error path, its ancestors, and type information at that point. */
type Place = {
  path: (string | number)[];
  ancestors: ASTNode[];
  inputType: GraphQLInputType | null;
  parentInputType: string | null;
};

function placesOf(schema: GraphQLSchema, doc: DocumentNode): Map<ASTNode, Place> {
  const places = new Map<ASTNode, Place>();
  const typeInfo = new TypeInfo(schema);
  const path: (string | number)[] = [];
  const stack: ASTNode[] = [];
  const pushed: boolean[] = [];
  const segment = (node: ASTNode, key: string | number | undefined): string | number | null => {
    switch (node.kind) {
      case Kind.OPERATION_DEFINITION:
        return `${node.operation}${node.name ? ` ${node.name.value}` : ''}`;
      case Kind.FRAGMENT_DEFINITION:
        return `fragment ${node.name.value}`;
      case Kind.FIELD:
        return node.alias?.value ?? node.name.value;
      case Kind.INLINE_FRAGMENT:
        return node.typeCondition ? `... on ${node.typeCondition.name.value}` : '...';
      case Kind.FRAGMENT_SPREAD:
        return `... ${node.name.value}`;
      case Kind.ARGUMENT:
      case Kind.OBJECT_FIELD:
        return node.name.value;
      default:
        // A list item inside an argument value: graphql-ruby puts its index in the path.
        return typeof key === 'number' && stack.at(-1)?.kind === Kind.LIST ? key : null;
    }
  };
  visit(
    doc,
    visitWithTypeInfo(typeInfo, {
      enter(node, key) {
        const seg = segment(node, key);
        if (seg !== null) path.push(seg);
        pushed.push(seg !== null);
        const parentInput = typeInfo.getParentInputType();
        places.set(node, {
          path: [...path],
          ancestors: [...stack],
          inputType: typeInfo.getInputType() ?? null,
          parentInputType: parentInput ? getNamedType(parentInput).name : null,
        });
        stack.push(node);
      },
      leave() {
        stack.pop();
        if (pushed.pop()) path.pop();
      },
    }),
  );
  return places;
}

const stripNonNull = (s: string) => s.replace(/!/g, '');

/** The innermost argument or input field that holds `node` (graphql-ruby names it in variable errors). */
function owningArgumentName(node: ASTNode, place: Place): string {
  const chain = [...place.ancestors, node];
  for (let i = chain.length - 1; i >= 0; i--) {
    const n = chain[i]!;
    if (n.kind === Kind.ARGUMENT || n.kind === Kind.OBJECT_FIELD) return n.name.value;
  }
  return '';
}

type Formatter = (
  e: GraphQLError,
  node: ASTNode | undefined,
  place: Place | undefined,
  places: Map<ASTNode, Place>,
) => ShopifyGraphqlError | null;

const FORMATTERS: Record<string, Formatter> = {
  FieldsOnCorrectTypeRule: (e) => {
    const m = /^Cannot query field "(.+?)" on type "(.+?)"/.exec(e.message);
    return m
      ? {
          message: `Field '${m[1]}' doesn't exist on type '${m[2]}'`,
          extensions: { code: 'undefinedField', typeName: m[2], fieldName: m[1] },
        }
      : null;
  },
  KnownArgumentNamesRule: (e) => {
    const m = /^Unknown argument "(.+?)" on (field|directive) "@?(?:.+\.)?(.+?)"/.exec(e.message);
    if (!m) return null;
    const typeName = m[2] === 'field' ? 'Field' : 'Directive';
    return {
      message: `${typeName} '${m[3]}' doesn't accept argument '${m[1]}'`,
      extensions: { code: 'argumentNotAccepted', name: m[3], typeName, argumentName: m[1] },
    };
  },
  ProvidedRequiredArgumentsRule: (e, node) => {
    const m = /^(Field|Directive) "@?(.+?)" argument "(.+?)" of type ".+?" is required/.exec(e.message);
    if (!m) return null;
    const name = node && (node.kind === Kind.FIELD || node.kind === Kind.DIRECTIVE) ? node.name.value : m[2]!;
    return {
      message: `${m[1]} '${name}' is missing required arguments: ${m[3]}`,
      extensions: { code: 'missingRequiredArguments', className: m[1], name, arguments: m[3] },
    };
  },
  KnownTypeNamesRule: (e, node, place) => {
    const m = /^Unknown type "(.+?)"/.exec(e.message);
    if (!m) return null;
    const varDef = place?.ancestors.find((a) => a.kind === Kind.VARIABLE_DEFINITION);
    if (varDef && varDef.kind === Kind.VARIABLE_DEFINITION) {
      return {
        message: `${m[1]} isn't a defined input type (on $${varDef.variable.name.value})`,
        extensions: { code: 'variableRequiresValidType', typeName: m[1], variableName: varDef.variable.name.value },
      };
    }
    return {
      message: `No such type ${m[1]}, so it can't be a fragment condition`,
      extensions: { code: 'undefinedType', typeName: m[1] },
    };
  },
  VariablesAreInputTypesRule: (e) => {
    const m = /^Variable "\$(.+?)" cannot be non-input type "(.+?)"/.exec(e.message);
    if (!m) return null;
    const typeName = stripNonNull(m[2]!).replace(/[[\]]/g, '');
    return {
      message: `${typeName} isn't a valid input type (on $${m[1]})`,
      extensions: { code: 'variableRequiresValidType', typeName, variableName: m[1] },
    };
  },
  NoUnusedVariablesRule: (e, _node, place) => {
    const m = /^Variable "\$(.+?)" is never used(?: in operation "(.+?)")?/.exec(e.message);
    if (!m) return null;
    const op = place?.ancestors.find((a): a is OperationDefinitionNode => a.kind === Kind.OPERATION_DEFINITION);
    const by = m[2] ?? `anonymous ${op?.operation ?? 'query'}`;
    return {
      message: `Variable $${m[1]} is declared by ${by} but not used`,
      extensions: { code: 'variableNotUsed', variableName: m[1] },
    };
  },
  NoUndefinedVariablesRule: (e) => {
    const m = /^Variable "\$(.+?)" is not defined(?: by operation "(.+?)")?/.exec(e.message);
    if (!m) return null;
    const opNode = e.nodes?.find((n) => n.kind === Kind.OPERATION_DEFINITION);
    const by = m[2] ?? `anonymous ${opNode?.operation ?? 'query'}`;
    const usage = e.locations?.[0];
    return {
      message: `Variable $${m[1]} is used by ${by} but not declared`,
      locations: usage ? [{ line: usage.line, column: usage.column }] : undefined,
      extensions: { code: 'variableNotDefined', variableName: m[1] },
    };
  },
  VariablesInAllowedPositionRule: (e, _node, _place, places) => {
    const m = /^Variable "\$(.+?)" of type "(.+?)" used in position expecting type "(.+?)"/.exec(e.message);
    if (!m) return null;
    const [, name, varType, argType] = m as unknown as [string, string, string, string];
    const usage = e.nodes?.find((n) => n.kind === Kind.VARIABLE);
    const usagePlace = usage ? places.get(usage) : undefined;
    const depthOf = (t: string) => (t.match(/\[/g) ?? []).length;
    const kind =
      stripNonNull(varType) === stripNonNull(argType)
        ? 'Nullability mismatch'
        : depthOf(varType) !== depthOf(argType)
          ? 'List dimension mismatch'
          : 'Type mismatch';
    const argumentName = usage && usagePlace ? owningArgumentName(usage, usagePlace) : '';
    return {
      message: `${kind} on variable $${name} and argument ${argumentName} (${varType} / ${argType})`,
      path: usagePlace?.path,
      locations: usage?.loc ? [{ line: usage.loc.startToken.line, column: usage.loc.startToken.column }] : undefined,
      extensions: { code: 'variableMismatch', variableName: name, typeName: varType, argumentName, errorMessage: kind },
    };
  },
  ScalarLeafsRule: (e, node, place, places) => {
    // graphql-js points at the field, or at the selection set a leaf field must not have.
    const field = node?.kind === Kind.FIELD ? node : (place?.ancestors.at(-1) as FieldNode | undefined);
    if (!field || field.kind !== Kind.FIELD) return null;
    const at = places.get(field);
    const where = {
      path: at?.path,
      locations: field.loc ? [{ line: field.loc.startToken.line, column: field.loc.startToken.column }] : undefined,
    };
    let m = /^Field "(.+?)" must not have a selection since type "(.+?)" has no subfields/.exec(e.message);
    if (m) {
      const typeName = stripNonNull(m[2]!).replace(/[[\]]/g, '');
      const selections = (field.selectionSet?.selections ?? []).map((s) =>
        s.kind === Kind.FIELD
          ? `"${s.name.value}"`
          : s.kind === Kind.FRAGMENT_SPREAD
            ? `"${s.name.value}"`
            : `"... on ${s.typeCondition?.name.value ?? ''} { ... }"`,
      );
      return {
        ...where,
        message: `Selections can't be made on scalars (field '${field.name.value}' returns ${typeName} but has selections [${selections.join(', ')}])`,
        extensions: { code: 'selectionMismatch', nodeName: `field '${field.name.value}'`, typeName },
      };
    }
    m = /^Field "(.+?)" of type "(.+?)" must have a selection of subfields/.exec(e.message);
    if (!m) return null;
    const typeName = stripNonNull(m[2]!).replace(/[[\]]/g, '');
    return {
      ...where,
      message: `Field must have selections (field '${field.name.value}' returns ${typeName} but has no selections. Did you mean '${field.name.value} { ... }'?)`,
      extensions: { code: 'selectionMismatch', nodeName: `field '${field.name.value}'`, typeName },
    };
  },
  KnownFragmentNamesRule: (e) => {
    const m = /^Unknown fragment "(.+?)"/.exec(e.message);
    return m
      ? {
          message: `Fragment ${m[1]} was used, but not defined`,
          extensions: { code: 'useAndDefineFragment', fragmentName: m[1] },
        }
      : null;
  },
  NoUnusedFragmentsRule: (e) => {
    const m = /^Fragment "(.+?)" is never used/.exec(e.message);
    return m
      ? {
          message: `Fragment ${m[1]} was defined, but not used`,
          extensions: { code: 'useAndDefineFragment', fragmentName: m[1] },
        }
      : null;
  },
  PossibleFragmentSpreadsRule: (e) => {
    const m = /^Fragment (?:"(.+?)" )?cannot be spread here as objects of type "(.+?)" can never be of type "(.+?)"/.exec(
      e.message,
    );
    if (!m) return null;
    const name = m[1] ? ` ${m[1]}` : '';
    return {
      message: `Fragment${name} on ${m[3]} can't be spread inside ${m[2]}`,
      extensions: { code: 'cannotSpreadFragment', typeName: m[3], fragmentName: name || 'unknown', parentName: m[2] },
    };
  },
  KnownDirectivesRule: (e) => {
    const m = /^Unknown directive "@(.+?)"/.exec(e.message);
    return m
      ? { message: `Directive @${m[1]} is not defined`, extensions: { code: 'undefinedDirective', directiveName: m[1] } }
      : null;
  },
};

const fallbackCode = (name: string) => name.replace(/Rule$/, '').replace(/^./, (c) => c.toLowerCase());

/** graphql-ruby's "has an invalid value" error for the argument or input field that holds `node`. */
function invalidLiteral(e: GraphQLError, node: ASTNode, place: Place, places: Map<ASTNode, Place>): ShopifyGraphqlError | null {
  // An input field the type does not have is, for graphql-ruby, an argument the input object does not accept.
  const unknown = /^Field "(.+?)" is not defined by type "(.+?)"/.exec(e.message);
  if (unknown) {
    return {
      message: `InputObject '${unknown[2]}' doesn't accept argument '${unknown[1]}'`,
      extensions: { code: 'argumentNotAccepted', name: unknown[2], typeName: 'InputObject', argumentName: unknown[1] },
    };
  }
  const chain = [...place.ancestors, node];
  for (let i = chain.length - 1; i >= 0; i--) {
    const n = chain[i]!;
    if (n.kind !== Kind.ARGUMENT && n.kind !== Kind.OBJECT_FIELD) continue;
    const at = places.get(n);
    const owner = chain[i - 1];
    let typeName: 'Field' | 'Directive' | 'InputObject' = 'InputObject';
    let ownerName = at?.parentInputType ?? '';
    if (n.kind === Kind.ARGUMENT) {
      typeName = owner?.kind === Kind.DIRECTIVE ? 'Directive' : 'Field';
      ownerName = owner && (owner.kind === Kind.DIRECTIVE || owner.kind === Kind.FIELD) ? owner.name.value : '';
    } else {
      // The input object type that declares this field: the value it sits in (list items unwrapped).
      const objectPlace = places.get(chain[i - 1]!);
      ownerName = objectPlace?.inputType ? getNamedType(objectPlace.inputType).name : ownerName;
    }
    const expected = at?.inputType ? String(at.inputType) : '?';
    return {
      message: `Argument '${n.name.value}' on ${typeName} '${ownerName}' has an invalid value (${print(n.value)}). Expected type '${expected}'.`,
      locations: n.loc ? [{ line: n.loc.startToken.line, column: n.loc.startToken.column }] : undefined,
      path: at?.path,
      extensions: { code: 'argumentLiteralsIncompatible', typeName, argumentName: n.name.value },
    };
  }
  return null;
}

/** Every validation error of `doc` against `schema`, in document order, worded as Shopify words them. */
export function validateDocument(schema: GraphQLSchema, doc: DocumentNode): ShopifyGraphqlError[] {
  if (!validate(schema, doc).length) return []; // the usual case: one pass, nothing to word
  // Rule by rule, so each error is known by the rule that found it.
  const places = placesOf(schema, doc);
  const out: (ShopifyGraphqlError & { at: number })[] = [];
  const seen = new Set<string>();
  for (const rule of specifiedRules) {
    for (const e of validate(schema, doc, [rule])) {
      const node = e.nodes?.[0];
      const place = node ? places.get(node) : undefined;
      const name = rule.name;
      let shaped: ShopifyGraphqlError | null;
      if (name === 'ValuesOfCorrectTypeRule') shaped = node && place ? invalidLiteral(e, node, place, places) : null;
      else shaped = FORMATTERS[name]?.(e, node, place, places) ?? null;
      const error: ShopifyGraphqlError = {
        message: shaped?.message ?? e.message,
        locations: shaped?.locations ?? e.locations?.map((l) => ({ line: l.line, column: l.column })),
        path: shaped?.path ?? place?.path,
        extensions: shaped?.extensions ?? { code: fallbackCode(name) },
      };
      // graphql-ruby names every missing argument of a field in one error; graphql-js reports each.
      const sameField =
        error.extensions?.code === 'missingRequiredArguments'
          ? out.find((o) => o.extensions?.code === 'missingRequiredArguments' && o.at === (node?.loc?.start ?? 0))
          : undefined;
      if (sameField) {
        const args = `${String(sameField.extensions!.arguments)}, ${String(error.extensions!.arguments)}`;
        sameField.extensions = { ...sameField.extensions, arguments: args };
        sameField.message = sameField.message.replace(/: .*$/, `: ${args}`);
        continue;
      }
      // graphql-ruby reports one literal error per argument; graphql-js may report several inside it.
      const key = `${error.message}|${JSON.stringify(error.path)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...error, at: node?.loc?.start ?? 0 });
    }
  }
  return out.sort((a, b) => a.at - b.at).map(({ at: _at, ...e }) => e);
}

/** graphql-ruby's wording of one input coercion problem. */
function explanation(schema: GraphQLSchema, message: string, value: unknown): string {
  let m = /^Field ".+?" is not defined by type "(.+?)"/.exec(message);
  if (m) return `Field is not defined on ${m[1]}`;
  if (/^Expected non-nullable type ".+?" not to be null/.test(message) || /of required type ".+?" was not provided/.test(message))
    return 'Expected value to not be null';
  m = /^Value ".+?" does not exist in "(.+?)" enum/.exec(message);
  const enumType = m ? schema.getType(m[1]!) : null;
  if (enumType && isEnumType(enumType))
    return `Expected ${JSON.stringify(value)} to be one of: ${enumType
      .getValues()
      .map((v) => v.name)
      .join(', ')}`;
  m = /^(?:Int|Float|String|Boolean|ID) cannot represent/.exec(message);
  if (m) return `Could not coerce value ${JSON.stringify(value)} to ${message.split(' ')[0]}`;
  m = /^Expected type "(.+?)"/.exec(message);
  if (m) return `Could not coerce value ${JSON.stringify(value)} to ${m[1]}`;
  return message;
}

// graphql-ruby walks an input object in the order its keys were sent (fields it does not know included),
// then adds missing required fields; graphql-js goes by the type's field order. Problems are sorted the Ruby way.
function rankIn(value: unknown, path: readonly (string | number)[]): number[] {
  const ranks: number[] = [];
  let at = value;
  for (const key of path) {
    const keys = at && typeof at === 'object' ? Object.keys(at) : [];
    const i = keys.indexOf(String(key));
    ranks.push(i === -1 ? Number.MAX_SAFE_INTEGER : i);
    at = i === -1 ? undefined : (at as Record<string, unknown>)[String(key)];
  }
  return ranks;
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Checks the variables against the operation's variable definitions the way graphql-ruby does before
 * anything runs: one error per bad variable, "Variable $x of type T was provided invalid value[ for
 * a.b (explanation)]", with `extensions: { value, problems: [{ path, explanation }] }`.
 */
export function validateVariables(
  schema: GraphQLSchema,
  op: OperationDefinitionNode,
  variables: Record<string, unknown>,
): ShopifyGraphqlError[] {
  const errors: ShopifyGraphqlError[] = [];
  for (const def of op.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    const type = typeFromAST(schema, def.type);
    if (!type || !isInputType(type)) continue; // already a validation error
    const problems: { path: (string | number)[]; explanation: string }[] = [];
    const given = Object.prototype.hasOwnProperty.call(variables, name);
    const value = given ? variables[name] : undefined;
    if (!given || value === null || value === undefined) {
      if (isNonNullType(type) && !(def.defaultValue && !given))
        problems.push({ path: [], explanation: 'Expected value to not be null' });
    } else {
      coerceInputValue(value, type, (path, invalid, err) => {
        // graphql-js names an unknown or missing input field in its message; graphql-ruby puts it in the path.
        const field = /^Field "(.+?)" (?:is not defined by type|of required type)/.exec(err.message)?.[1];
        problems.push({ path: field ? [...path, field] : [...path], explanation: explanation(schema, err.message, invalid) });
      });
    }
    if (!problems.length) continue;
    problems.sort((a, b) => compareRanks(rankIn(value, a.path), rankIn(value, b.path)));
    const fields = problems.filter((p) => p.path.length).map((p) => `${p.path.join('.')} (${p.explanation})`);
    errors.push({
      message: `Variable $${name} of type ${String(type)} was provided invalid value${fields.length ? ` for ${fields.join(', ')}` : ''}`,
      locations: def.loc ? [{ line: def.loc.startToken.line, column: def.loc.startToken.column }] : undefined,
      extensions: { value: value ?? null, problems },
    });
  }
  return errors;
}
