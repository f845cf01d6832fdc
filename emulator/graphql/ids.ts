// Shopify global ids and opaque cursors.
import { GraphQLError } from 'graphql';

export function gid(type: string, id: number | string): string {
  return `gid://shopify/${type}/${id}`;
}

/** The numeric id of a GID of one of `types`; null when it is not such a GID. */
export function parseGid(value: string, ...types: string[]): number | null {
  const m = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)(\?.*)?$/.exec(value);
  if (!m || (types.length > 0 && !types.includes(m[1]!))) return null;
  return Number(m[2]);
}

export function gidType(value: string): string | null {
  return /^gid:\/\/shopify\/([A-Za-z]+)\/\d+/.exec(value)?.[1] ?? null;
}

/** Shopify's cursors are base64 JSON like {"last_id":123,"last_value":"123"}. */
export function encodeCursor(id: number): string {
  return Buffer.from(JSON.stringify({ last_id: id, last_value: String(id) })).toString('base64');
}

export function decodeCursor(cursor: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')) as { last_id?: unknown };
    if (typeof parsed.last_id === 'number') return parsed.last_id;
  } catch {
    // fall through to the error Shopify gives for a cursor it did not issue
  }
  throw new GraphQLError(`Invalid cursor for current pagination sort.`, { extensions: { code: 'BAD_REQUEST' } });
}

export function invalidId(value: string): GraphQLError {
  return new GraphQLError(`Invalid global id '${value}'`, {
    extensions: { code: 'argumentLiteralsIncompatible', typeName: 'CoercionError' },
  });
}
