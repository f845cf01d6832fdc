import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * An expected failure with a message meant for the merchant (a documented message where one exists).
 * Thrown anywhere; the one onError handler turns it into the documented envelope.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Bad input: documented validation message, nothing changed. */
export class ValidationError extends ApiError {
  constructor(message: string) {
    super(400, message);
    this.name = 'ValidationError';
  }
}

/** Missing or invalid credentials. Shopify's App Bridge retries once with a fresh session token on this header. */
export class AuthError extends ApiError {
  constructor(message = 'Unauthorized') {
    super(401, message, { 'X-Shopify-Retry-Invalid-Session-Request': '1' });
    this.name = 'AuthError';
  }
}

export class NotFoundError extends ApiError {
  constructor(message = 'Not found') {
    super(404, message);
    this.name = 'NotFoundError';
  }
}

/** The request conflicts with the current state (e.g. an expired image cannot be restored). */
export class ConflictError extends ApiError {
  constructor(message: string) {
    super(409, message);
    this.name = 'ConflictError';
  }
}
