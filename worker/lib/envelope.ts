import type { Context } from 'hono';

// Two response families, as documented: the v2 and image calls answer {ack, data, message} (ack 1 is
// success); the older v1 calls answer {code, msg, data} (code '200' is success). The payload types live in
// shared/api/ (the admin reads the same types): routes name theirs, e.g. `ack<ScoreAnswer>(c, answer)`.

export function ack<T = undefined>(c: Context, data?: T, message = 'success') {
  return c.json({ ack: 1, message, ...(data === undefined ? {} : { data }) });
}

export function v1<T = undefined>(c: Context, data?: T, msg = 'success') {
  return c.json({ code: '200', msg, ...(data === undefined ? {} : { data }) });
}

/** Which family a path belongs to, so errors use the envelope the caller reads. */
export function isV1Path(path: string): boolean {
  return path.startsWith('/api/v1/') || path.startsWith('/shopify/');
}

export function errorBody(path: string, status: number, message: string) {
  return isV1Path(path) ? { code: String(status), msg: message } : { ack: 0, message };
}
