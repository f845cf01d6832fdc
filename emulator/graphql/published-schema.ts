// Shopify's published Admin GraphQL schema for the pinned API version: the introspection result that
// @shopify/dev-mcp 1.16.0 ships as dist/data/admin_2026-10.json.gz, committed byte for byte (gzip) in
// ./schema/ with its sha256 (schema/README.md), so the emulator needs no package that pulls in the
// Shopify CLI. The emulator validates and executes every document against it (graphql-js
// buildClientSchema); only the resolvers in this folder are ours.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery, isScalarType, Kind, type ValueNode } from 'graphql';

const SCHEMA_DIR = fileURLToPath(new URL('./schema/', import.meta.url));

/** Where the committed schemas come from (schema/README.md). */
export const SCHEMA_ORIGIN = '@shopify/dev-mcp@1.16.0';

/** The package and version the schemas come from, e.g. "@shopify/dev-mcp@1.16.0". */
export function schemaPackage(): string {
  return SCHEMA_ORIGIN;
}

/** Where the introspection of `version` lives, relative to the repository root. */
export function schemaSource(version: string): string {
  return `emulator/graphql/schema/admin_${version}.json.gz`;
}

/** sha256 of a committed schema file, as schema/README.md records it. */
export function schemaSha256(version: string): string {
  return createHash('sha256')
    .update(readFileSync(`${SCHEMA_DIR}admin_${version}.json.gz`))
    .digest('hex');
}

/** The API versions committed (stable ones sorted, then "unstable" when present). */
export function publishedVersions(): string[] {
  if (!existsSync(SCHEMA_DIR)) throw new Error(`${SCHEMA_DIR} is missing`);
  const found = readdirSync(SCHEMA_DIR).flatMap((f) => /^admin_(\d{4}-\d{2}|unstable)\.json\.gz$/.exec(f)?.[1] ?? []);
  return [...found.filter((v) => v !== 'unstable').sort(), ...found.filter((v) => v === 'unstable')];
}

/**
 * The version whose schema answers a request for `requested`, as Shopify does it: a version that is
 * published answers as itself, an older one than the oldest published falls forward to the oldest,
 * anything else (a future or malformed version) has no schema: null.
 */
export function servedVersion(requested: string): string | null {
  const versions = publishedVersions();
  if (versions.includes(requested)) return requested;
  const stable = versions.filter((v) => v !== 'unstable');
  if (/^\d{4}-(01|04|07|10)$/.test(requested) && stable.length && requested < stable[0]!) return stable[0]!;
  return null;
}

// An introspection result carries no scalar parsers, so Shopify's custom scalars would accept anything.
// These are the formats their descriptions in the schema state, checked on input (variables and literals).
const SCALAR_FORMATS: Record<string, (v: unknown) => boolean> = {
  URL: (v) => typeof v === 'string' && URL.canParse(v),
  DateTime: (v) =>
    typeof v === 'string' && /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)),
  Date: (v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v),
  UnsignedInt64: (v) =>
    (typeof v === 'string' && /^\d{1,20}$/.test(v)) || (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0),
  Decimal: (v) => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) || (typeof v === 'number' && Number.isFinite(v)),
  Money: (v) => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) || (typeof v === 'number' && Number.isFinite(v)),
};

function literalValue(node: ValueNode): unknown {
  if (node.kind === Kind.STRING) return node.value;
  if (node.kind === Kind.INT || node.kind === Kind.FLOAT) return Number(node.value);
  return undefined; // lists, objects, booleans, enums: not a value of these scalars
}

function checkScalarFormats(schema: GraphQLSchema): GraphQLSchema {
  for (const [name, ok] of Object.entries(SCALAR_FORMATS)) {
    const type = schema.getType(name);
    if (!type || !isScalarType(type)) continue;
    type.parseValue = (v: unknown) => {
      if (!ok(v)) throw new TypeError(`Invalid ${name}`); // graphql-js words it "Expected type ..."
      return v;
    };
    type.parseLiteral = (node: ValueNode) => {
      const v = literalValue(node);
      if (!ok(v)) throw new TypeError(`Invalid ${name}`); // graphql-js words it "Expected type ..."
      return v;
    };
  }
  return schema;
}

const cache = new Map<string, GraphQLSchema>();

/** The executable schema of one published version (about 0.5 s to build the first time, then cached). */
export function publishedSchema(version: string): GraphQLSchema {
  let schema = cache.get(version);
  if (!schema) {
    const file = `${SCHEMA_DIR}admin_${version}.json.gz`;
    if (!existsSync(file))
      throw new Error(`No published Admin schema for ${version} in ${schemaPackage()} (has ${publishedVersions().join(', ')})`);
    const json = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as { data: IntrospectionQuery };
    schema = checkScalarFormats(buildClientSchema(json.data));
    cache.set(version, schema);
  }
  return schema;
}
