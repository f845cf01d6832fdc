// Typed failures of Shopify calls, so callers can tell "retry later" from "the merchant must act".

/** A non-2xx HTTP answer that is not retried further (or ran out of retries). */
export class ShopifyHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ShopifyHttpError';
  }
}

/** 401 from the Admin API: the access token is invalid (revoked, or the app was uninstalled). */
export class ShopifyUnauthorizedError extends ShopifyHttpError {
  constructor(message = 'Shopify rejected the access token') {
    super(401, message, false);
    this.name = 'ShopifyUnauthorizedError';
  }
}

/** Still THROTTLED (or 429) after every retry: the caller (a queue job) should retry later. */
export class ShopifyThrottledError extends Error {
  constructor(message = 'Shopify kept throttling the request') {
    super(message);
    this.name = 'ShopifyThrottledError';
  }
}

export type GraphqlErrorEntry = { message: string; extensions?: { code?: string; [k: string]: unknown }; path?: unknown[] };

/** Top-level GraphQL `errors` other than THROTTLED: a bad query, a missing scope, an unknown id. */
export class ShopifyGraphqlError extends Error {
  constructor(readonly errors: GraphqlErrorEntry[]) {
    super(errors.map((e) => e.message).join('; ') || 'GraphQL error');
    this.name = 'ShopifyGraphqlError';
  }
  get codes(): string[] {
    return this.errors.map((e) => String(e.extensions?.code ?? '')).filter(Boolean);
  }
}

export type UserError = { field?: string[] | null; message: string; code?: string | null };

/** Shopify's single-query limit: a query whose requested cost is above it fails with MAX_COST_EXCEEDED. */
export const MAX_QUERY_COST = 1000;

/**
 * A query whose estimated requested cost is above MAX_QUERY_COST, refused before it is sent (Shopify
 * would answer MAX_COST_EXCEEDED). A ShopifyGraphqlError, so callers treat it as "do not retry".
 */
export class ShopifyQueryCostError extends ShopifyGraphqlError {
  constructor(readonly cost: number) {
    super([
      {
        message: `Query cost is ${cost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`,
        extensions: { code: 'MAX_COST_EXCEEDED', cost, maxCost: MAX_QUERY_COST },
      },
    ]);
    this.name = 'ShopifyQueryCostError';
  }
}

/** A mutation answered with userErrors: nothing was changed on Shopify. */
export class ShopifyUserError extends Error {
  constructor(
    readonly operation: string,
    readonly userErrors: UserError[],
  ) {
    super(`${operation}: ${userErrors.map((e) => (e.field?.length ? `${e.field.join('.')}: ` : '') + e.message).join('; ')}`);
    this.name = 'ShopifyUserError';
  }
  get codes(): string[] {
    return this.userErrors.map((e) => e.code ?? '').filter(Boolean);
  }
}

/** A mutation payload's userErrors turned into a thrown ShopifyUserError. */
export function throwOnUserErrors(operation: string, payload: { userErrors?: UserError[] | null } | null | undefined): void {
  const errors = payload?.userErrors ?? [];
  if (errors.length > 0) throw new ShopifyUserError(operation, errors);
}

/** The shop's access token is missing or could not be refreshed: the merchant must open the app again. */
export class ShopifyReauthRequiredError extends Error {
  /**
   * `sessionToken`: for a shop the app holds no row of, the verified session token of this request. The
   * re-authorisation route creates OAuth state for an unknown shop only with one, and the admin opens the
   * reauthorize URL in the top frame, which sends no Authorization header: the URL carries it as
   * `id_token`, as Shopify's own launch URL does (it lives a minute).
   */
  constructor(
    readonly shopDomain: string,
    reason: string,
    readonly sessionToken?: string,
  ) {
    super(`Shop ${shopDomain} must re-authorise the app: ${reason}`);
    this.name = 'ShopifyReauthRequiredError';
  }
}

/**
 * Shopify itself refused the grant the app holds: the token endpoint refused the refresh token, or a 401
 * came with no refresh token to try. After an uninstall this is what Shopify answers (app/uninstalled is
 * acted on only then: worker/webhooks/grant.ts). Its name stays ShopifyReauthRequiredError, so code that
 * sorts failures by name treats it the same.
 */
export class ShopifyGrantRefusedError extends ShopifyReauthRequiredError {}
