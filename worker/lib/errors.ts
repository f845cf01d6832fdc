import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  formatMessage,
  msg,
  type KeyedMessage,
  type MessageKey,
  type MessageParams,
  type ParamsArg,
  type PlainMessageKey,
} from '../../shared/messages';

/**
 * An expected failure with a message meant for the merchant: a key of shared/messages.ts with its
 * params (`message` is its documented English). Thrown anywhere; the one onError handler turns it into
 * the documented envelope, which carries the English text, `message_key` and `params`.
 */
export class ApiError extends Error {
  readonly key: MessageKey;
  readonly params: MessageParams;

  constructor(
    readonly status: ContentfulStatusCode,
    keyed: KeyedMessage,
    readonly headers: Record<string, string> = {},
  ) {
    super(formatMessage(keyed));
    this.name = 'ApiError';
    this.key = keyed.message_key;
    this.params = keyed.params;
  }

  get keyed(): KeyedMessage {
    return { message_key: this.key, params: this.params };
  }
}

/** `apiError(429, 'server.limits.queueBusy')`, `apiError(402, 'server.optimise.planLimit', { count })`. */
export function apiError<K extends MessageKey>(status: ContentfulStatusCode, key: K, ...params: ParamsArg<K>): ApiError {
  return new ApiError(status, msg(key, ...params));
}

/** Bad input: documented validation message, nothing changed. */
export class ValidationError<K extends MessageKey = MessageKey> extends ApiError {
  constructor(key: K, ...params: ParamsArg<K>) {
    super(400, msg(key, ...params));
    this.name = 'ValidationError';
  }
}

/** Bad input whose keyed message was found at run time (a zod issue, a settings rule). */
export function invalidInput(keyed: KeyedMessage): ApiError {
  const err = new ApiError(400, keyed);
  err.name = 'ValidationError';
  return err;
}

/** Missing or invalid credentials. Shopify's App Bridge retries once with a fresh session token on this header. */
export class AuthError extends ApiError {
  constructor(key: PlainMessageKey = 'server.auth.unauthorized') {
    super(401, { message_key: key, params: {} }, { 'X-Shopify-Retry-Invalid-Session-Request': '1' });
    this.name = 'AuthError';
  }
}

export class NotFoundError extends ApiError {
  constructor(key: PlainMessageKey = 'server.common.notFound') {
    super(404, { message_key: key, params: {} });
    this.name = 'NotFoundError';
  }
}

/** The request conflicts with the current state (e.g. an expired image cannot be restored). */
export class ConflictError<K extends MessageKey = MessageKey> extends ApiError {
  constructor(key: K, ...params: ParamsArg<K>) {
    super(409, msg(key, ...params));
    this.name = 'ConflictError';
  }
}
