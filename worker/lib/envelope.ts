import type { Context } from 'hono';
import { formatMessage, type KeyedMessage } from '../../shared/messages';

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

/** An error in the caller's family: the documented English text plus its catalogue key and params. */
export function errorBody(path: string, status: number, keyed: KeyedMessage) {
  const text = formatMessage(keyed);
  const key = { message_key: keyed.message_key, params: keyed.params };
  return isV1Path(path) ? { code: String(status), msg: text, ...key } : { ack: 0, message: text, ...key };
}
