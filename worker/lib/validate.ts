import type { Context } from 'hono';
import type { z } from 'zod';
import { ValidationError } from './errors';

/**
 * Parses input with a zod schema; the first issue's message becomes the error the merchant sees, so
 * schemas carry the documented messages (e.g. 'The input cannot be empty!').
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  // Schema-level messages (the documented ones) win over this per-parse fallback, which names the field.
  const result = schema.safeParse(input, {
    error: (issue) => (issue.path && issue.path.length > 0 ? `Invalid value for ${issue.path.join('.')}` : undefined),
  });
  if (!result.success) throw new ValidationError(result.error.issues[0]?.message ?? 'Invalid input');
  return result.data;
}

/** The query string as a plain object (last value wins). */
export function readQuery(c: Context): Record<string, string> {
  return c.req.query();
}

/**
 * The request body, JSON or form-encoded (most documented calls are form POSTs, the settings calls
 * JSON). Malformed JSON is a validation error, never a 500.
 */
export async function readBody(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/json')) {
    try {
      return await c.req.json();
    } catch {
      throw new ValidationError('Request body is not valid JSON');
    }
  }
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
    const form = await c.req.parseBody({ all: false });
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(form)) out[k] = v;
    return out;
  }
  const text = await c.req.text();
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError('Request body is not valid JSON');
  }
}
