// An in-test stand-in for Shopify's HTTP surface (token endpoint and Admin GraphQL with a leaky
// bucket), installed by spying on fetch. Used for unit-level tests of the client, the token refresh
// race and the install flow; the store emulator covers the same surface end to end.
import { env } from 'cloudflare:test';
import { beforeEach, vi } from 'vitest';

export type GraphqlCall = { shop: string; query: string; variables: Record<string, unknown>; token: string | null };
export type GraphqlReply = {
  data?: unknown;
  errors?: unknown[];
  status?: number;
  headers?: Record<string, string>;
  raw?: string;
};

export type FakeShopifyOptions = {
  /** Leaky bucket: Shopify's standard plan is 2,000 points restoring at 100/s. */
  maximumAvailable?: number;
  restoreRate?: number;
  /** Requested cost of every query. */
  cost?: number;
  /** Milliseconds the token endpoint takes (widens race windows). */
  tokenDelayMs?: number;
  graphql?: (call: GraphqlCall) => GraphqlReply | undefined;
};

export function installFakeShopify(opts: FakeShopifyOptions = {}) {
  const max = opts.maximumAvailable ?? 2000;
  const rate = opts.restoreRate ?? 100;
  const cost = opts.cost ?? 10;
  let available = max;
  let at = Date.now();
  const stats = { graphql: 0, throttled: 0, refresh: 0, code: 0, exchange: 0, minAvailable: max };
  const tokenBodies: Record<string, unknown>[] = [];
  const failures: { status: number; headers?: Record<string, string> }[] = [];
  let tokenSeq = 0;
  const validTokens = new Set<string>();

  const issue = () => {
    tokenSeq += 1;
    const access = `shpat_fake_${tokenSeq}_${crypto.randomUUID()}`;
    validTokens.add(access);
    return {
      access_token: access,
      scope: env.SHOPIFY_SCOPES,
      expires_in: 3600,
      refresh_token: `shprt_${tokenSeq}_${crypto.randomUUID()}`,
      refresh_token_expires_in: 7776000,
    };
  };

  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

  const original = globalThis.fetch;
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    if (url.pathname.endsWith('/admin/oauth/access_token')) {
      const body = await req.json<Record<string, unknown>>();
      tokenBodies.push(body);
      if (opts.tokenDelayMs) await new Promise((r) => setTimeout(r, opts.tokenDelayMs));
      if (body.grant_type === 'refresh_token') stats.refresh += 1;
      else if (body.grant_type === 'urn:ietf:params:oauth:grant-type:token-exchange') stats.exchange += 1;
      else stats.code += 1;
      return json(issue());
    }
    const m =
      /\/([a-z0-9-]+\.myshopify\.com)\/admin\/api\/[\d-]+\/graphql\.json$/.exec(url.hostname + url.pathname) ??
      /^\/([^/]+)\/admin\/api\/[\d-]+\/graphql\.json$/.exec(url.pathname);
    if (m || url.pathname.endsWith('/graphql.json')) {
      const shop = url.hostname.endsWith('.myshopify.com') ? url.hostname : (m?.[1] ?? '');
      const failure = failures.shift();
      if (failure) return new Response('unavailable', { status: failure.status, headers: failure.headers });
      const body = await req.json<{ query: string; variables?: Record<string, unknown> }>();
      const now = Date.now();
      available = Math.min(max, available + ((now - at) / 1000) * rate);
      at = now;
      const throttleStatus = () => ({ maximumAvailable: max, currentlyAvailable: Math.floor(available), restoreRate: rate });
      if (available < cost) {
        stats.throttled += 1;
        return json({
          errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
          extensions: { cost: { requestedQueryCost: cost, actualQueryCost: null, throttleStatus: throttleStatus() } },
        });
      }
      available -= cost;
      stats.minAvailable = Math.min(stats.minAvailable, available);
      stats.graphql += 1;
      const call: GraphqlCall = {
        shop,
        query: body.query,
        variables: body.variables ?? {},
        token: req.headers.get('X-Shopify-Access-Token'),
      };
      const reply = opts.graphql?.(call) ?? { data: { shop: { name: 'Fake' } } };
      if (reply.raw !== undefined)
        return new Response(reply.raw, { status: reply.status ?? 200, headers: { 'Content-Type': 'text/html' } });
      if (reply.status) return json(reply.data ?? {}, reply.status, reply.headers);
      return json({
        ...reply,
        extensions: { cost: { requestedQueryCost: cost, actualQueryCost: cost, throttleStatus: throttleStatus() } },
      });
    }
    return original(input, init);
  });

  return {
    stats,
    tokenBodies,
    validTokens,
    /** The next N GraphQL calls answer with this status before any processing. */
    failNext(status: number, times = 1, headers?: Record<string, string>) {
      for (let i = 0; i < times; i++) failures.push({ status, headers });
    },
    /** Another consumer spent the bucket (e.g. another isolate). */
    drain(points = max) {
      available = Math.max(0, available - points);
      at = Date.now();
    },
    restore: () => spy.mockRestore(),
  };
}

/** The shop-info reply used by install tests. */
export function shopInfoReply(overrides: Record<string, unknown> = {}, locale = 'de') {
  return {
    data: {
      shop: {
        id: 'gid://shopify/Shop/1',
        name: 'Fake Store',
        email: 'owner@fake.example',
        contactEmail: 'contact@fake.example',
        shopOwnerName: 'Fay Owner',
        myshopifyDomain: 'fake.myshopify.com',
        currencyCode: 'EUR',
        primaryDomain: { url: 'https://fake.example', host: 'fake.example' },
        plan: { publicDisplayName: 'Development', partnerDevelopment: true, shopifyPlus: false },
        ...overrides,
      },
      shopLocales: [
        { locale: 'en', primary: false },
        { locale, primary: true },
      ],
    },
  };
}

/** Records what the Worker sends to the catalogue-sync queue, afresh for every test of the file. */
export function recordSyncQueueSends(): unknown[] {
  const sent: unknown[] = [];
  beforeEach(() => {
    sent.length = 0;
    vi.spyOn(env.SYNC_QUEUE, 'send').mockImplementation(async (m: unknown) => {
      sent.push(m);
      return undefined as never;
    });
  });
  return sent;
}
