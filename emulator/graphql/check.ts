// A document checked against the published schema without running it: what the control API's
// `POST /__emulator/graphql/validate` answers, for tests that hold the Worker's documents to Shopify's
// schema (tests/worker/emulator/graphql-documents.test.ts).
import { NoDeprecatedCustomRule, parse, validate, type GraphQLError } from 'graphql';
import { publishedSchema, schemaPackage, schemaSource, servedVersion } from './published-schema';
import { type ShopifyGraphqlError, validateDocument } from './validate';

export type CheckResult = {
  /** The version asked for and the one whose schema answered (null: Shopify would answer 404). */
  requested: string;
  version: string | null;
  package: string;
  source: string | null;
  errors: ShopifyGraphqlError[];
  /** Deprecated fields, arguments and enum values the document uses (Shopify removes them in a later version). */
  deprecations: string[];
};

export function checkDocument(query: string, requested: string): CheckResult {
  const version = servedVersion(requested);
  const base = { requested, version, package: schemaPackage(), source: version ? schemaSource(version) : null };
  if (!version) return { ...base, errors: [{ message: `No published Admin schema for ${requested}` }], deprecations: [] };
  let doc;
  try {
    doc = parse(query);
  } catch (e) {
    const err = e as GraphQLError;
    return { ...base, errors: [{ message: err.message, locations: err.locations?.map((l) => ({ ...l })) }], deprecations: [] };
  }
  const schema = publishedSchema(version);
  return {
    ...base,
    errors: validateDocument(schema, doc),
    deprecations: validate(schema, doc, [NoDeprecatedCustomRule]).map((e) => e.message),
  };
}
