import type { Context } from 'hono';
import type { z } from 'zod';
import { keyedIssue } from '../../shared/messages';
import { ApiError, invalidInput, ValidationError } from './errors';

/**
 * Parses input with a zod schema; the first issue becomes the error the merchant sees, so schemas carry
 * the catalogue keys of the documented messages (e.g. `{ error: 'server.settings.inputEmpty' }`). An
 * issue without one names its field (server.common.invalidValueFor); see keyedIssue.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidInput(keyedIssue(result.error.issues[0]));
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
      throw new ValidationError('server.common.invalidJson');
    }
  }
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody({ all: false });
    } catch (err) {
      // A malformed multipart body (no boundary, a truncated part) is the caller's error, not a 500.
      // The body limit refuses a body while it streams (hono's BodyLimitError, answered 413 by its middleware).
      if (err instanceof ApiError || (err instanceof Error && err.name === 'BodyLimitError')) throw err;
      throw new ValidationError('server.common.invalidInput');
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(form)) out[k] = v;
    return out;
  }
  const text = await c.req.text();
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError('server.common.invalidJson');
  }
}
