// The two documented response families (README "API responses"): the v2 and image calls answer
// {ack, data, message} (ack 1 is success), the older v1 calls {code, msg, data} (code '200').
// Errors use the same shapes with an HTTP status, plus the catalogue key of their message.
import type { KeyedMessage } from '../messages';

/** What an error envelope adds: the admin translates `message_key` with `params`; `message`/`msg` stay English. */
export type ErrorKey = Partial<KeyedMessage>;

export type AckEnvelope<T = unknown> = { ack: number; message?: string; data?: T } & ErrorKey;
export type V1Envelope<T = unknown> = { code: string | number; msg?: string; data?: T } & ErrorKey;
export type Envelope<T = unknown> = AckEnvelope<T> | V1Envelope<T>;

/** The payload type of an envelope type. */
export type DataOf<E> = E extends { data?: infer T } ? T : never;

/** ack 1 (v2) or code '200' (v1) means success. */
export function isOk(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const b = body as { ack?: unknown; code?: unknown };
  return b.ack === 1 || String(b.code) === '200';
}
