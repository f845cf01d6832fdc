// The one Admin GraphQL client. It paces calls with the cost bucket, retries 429, 5xx, network
// failures and THROTTLED with backoff, refreshes a rejected expiring token once, and turns top-level
// errors into typed errors. Operation functions (operations/*.ts) build on `request`.
import { graphqlUrl } from './api-version';
import {
  MAX_QUERY_COST,
  ShopifyGraphqlError,
  ShopifyHttpError,
  ShopifyQueryCostError,
  ShopifyThrottledError,
  ShopifyUnauthorizedError,
  type GraphqlErrorEntry,
} from './errors';
import { bucketFor, realClock, type Clock, type CostBucket, type ThrottleStatus } from './throttle';

/** Where the client gets its access token; `renew` is called once when Shopify answers 401. */
export type AccessTokenSource = {
  get(): Promise<string>;
  renew?(rejected: string): Promise<string>;
};

export type AdminClientOptions = {
  env: Pick<Env, 'SHOPIFY_ORIGIN'>;
  shopDomain: string;
  token: AccessTokenSource | string;
  /** First backoff delay; doubles per attempt up to maxBackoffMs. */
  retryBaseMs?: number;
  maxBackoffMs?: number;
  /** Attempts for 429 / 5xx / network failures. */
  maxAttempts?: number;
  /** Attempts for THROTTLED answers (each waits for the shortfall, so they are cheap). */
  maxThrottledAttempts?: number;
  bucket?: CostBucket;
  clock?: Clock;
};

/** `expectedCost`: the requested cost estimated from the query; above MAX_QUERY_COST it is refused unsent. */
export type RequestOptions = { expectedCost?: number };

export type AdminClient = {
  readonly shopDomain: string;
  request<T>(query: string, variables?: Record<string, unknown>, options?: RequestOptions): Promise<T>;
};

type GraphqlBody<T> = {
  data?: T | null;
  errors?: GraphqlErrorEntry[] | { message?: string } | string;
  extensions?: { cost?: { requestedQueryCost?: number; actualQueryCost?: number | null; throttleStatus?: ThrottleStatus } };
};

/** Default reservation for a query never seen before: Shopify's single-query limit is 1,000 points. */
const DEFAULT_COST = 50;
const learnedCosts = new Map<string, number>();

export function createAdminClient(options: AdminClientOptions): AdminClient {
  const { env, shopDomain } = options;
  const tokenSource: AccessTokenSource =
    typeof options.token === 'string' ? { get: async () => options.token as string } : options.token;
  const retryBaseMs = options.retryBaseMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 8_000;
  const maxAttempts = options.maxAttempts ?? 5;
  const maxThrottled = options.maxThrottledAttempts ?? 12;
  const bucket = options.bucket ?? bucketFor(shopDomain);
  const clock = options.clock ?? realClock;
  const url = graphqlUrl(env, shopDomain);

  const backoff = (attempt: number) => {
    const base = Math.min(maxBackoffMs, retryBaseMs * 2 ** attempt);
    return base / 2 + Math.random() * (base / 2); // jitter: racing isolates do not retry in step
  };

  async function request<T>(query: string, variables: Record<string, unknown> = {}, opts: RequestOptions = {}): Promise<T> {
    if (opts.expectedCost !== undefined && opts.expectedCost > MAX_QUERY_COST) throw new ShopifyQueryCostError(opts.expectedCost);
    let failures = 0;
    let throttled = 0;
    let renewed = false;
    let token = await tokenSource.get();
    for (;;) {
      const cost = await bucket.acquire(() => opts.expectedCost ?? learnedCosts.get(query) ?? DEFAULT_COST);
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Shopify-Access-Token': token },
          body: JSON.stringify({ query, variables }),
        });
      } catch (err) {
        bucket.settle(cost);
        if (++failures >= maxAttempts) throw new ShopifyHttpError(0, `Shopify unreachable: ${(err as Error).message}`, true);
        await clock.sleep(backoff(failures));
        continue;
      }

      if (res.status === 401) {
        bucket.settle(cost);
        await res.body?.cancel();
        if (renewed || !tokenSource.renew) throw new ShopifyUnauthorizedError();
        renewed = true;
        token = await tokenSource.renew(token);
        continue;
      }
      if (res.status === 429 || res.status >= 500) {
        bucket.settle(cost);
        await res.body?.cancel();
        if (++failures >= maxAttempts) {
          if (res.status === 429) throw new ShopifyThrottledError(`Shopify answered 429 ${maxAttempts} times`);
          throw new ShopifyHttpError(res.status, `Shopify answered ${res.status} ${maxAttempts} times`, true);
        }
        const retryAfter = Number(res.headers.get('Retry-After'));
        await clock.sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoff(failures));
        continue;
      }
      if (!res.ok) {
        bucket.settle(cost);
        throw new ShopifyHttpError(res.status, `Shopify answered ${res.status}: ${(await res.text()).slice(0, 300)}`, false);
      }

      let body: GraphqlBody<T>;
      try {
        body = await res.json<GraphqlBody<T>>();
      } catch {
        // A cut-off or non-JSON 200 (a proxy page): release the reservation and retry like a 5xx.
        bucket.settle(cost);
        if (++failures >= maxAttempts)
          throw new ShopifyHttpError(res.status, 'Shopify answered with a body that is not JSON', true);
        await clock.sleep(backoff(failures));
        continue;
      }
      const cst = body.extensions?.cost;
      bucket.settle(cost, cst?.throttleStatus ?? null);
      if (cst?.requestedQueryCost) learnedCosts.set(query, cst.requestedQueryCost);

      const errors = normaliseErrors(body.errors);
      if (errors.some((e) => e.extensions?.code === 'THROTTLED')) {
        if (++throttled >= maxThrottled) throw new ShopifyThrottledError();
        const status = cst?.throttleStatus;
        const need = (cst?.requestedQueryCost ?? cost) - (status?.currentlyAvailable ?? 0);
        const wait = status ? Math.ceil((Math.max(need, 1) / Math.max(status.restoreRate, 1)) * 1000) : backoff(throttled);
        await clock.sleep(wait);
        continue;
      }
      if (errors.length > 0) throw new ShopifyGraphqlError(errors);
      if (body.data == null) throw new ShopifyGraphqlError([{ message: 'Shopify answered without data' }]);
      return body.data;
    }
  }

  return { shopDomain, request };
}

function normaliseErrors(errors: GraphqlBody<unknown>['errors']): GraphqlErrorEntry[] {
  if (!errors) return [];
  if (Array.isArray(errors)) return errors;
  if (typeof errors === 'string') return [{ message: errors }];
  return [{ message: errors.message ?? 'GraphQL error' }];
}
