// Admin GraphQL endpoint (`POST /<shop>/admin/api/<version>/graphql.json`) and bulk result files.
import type { Hono } from 'hono';
import { runAdminGraphql } from '../graphql/execute';
import { checkDocument } from '../graphql/check';
import { servedVersion } from '../graphql/published-schema';
import type { Emulator } from '../store/registry';
import { applyFault } from './faults';
import { CONTROL } from './control-shops';
import { SHOP_PARAM } from './oauth';

const INVALID_TOKEN = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };

export function mountAdminApi(app: Hono, emu: Emulator): void {
  app.post(`/${SHOP_PARAM}/admin/api/:version/graphql.json`, async (c) => {
    const shop = emu.shops.get(c.req.param('shop'));
    if (!shop) return c.json({ errors: 'Not Found' }, 404);
    // A published version answers as itself, an older one falls forward to the oldest published (as on Shopify).
    const version = servedVersion(c.req.param('version'));
    if (!version) return c.json({ errors: 'Not Found' }, 404);
    const fault = await applyFault(shop, 'graphql');
    if (fault) return fault;
    const token = emu.accessTokens.get(c.req.header('X-Shopify-Access-Token') ?? '');
    if (!token || token.shop !== shop.domain || (token.expiresAt !== null && token.expiresAt < Date.now()) || !shop.installed) {
      shop.stats.unauthorized += 1;
      return c.json(INVALID_TOKEN, 401);
    }
    let body: Record<string, unknown>;
    try {
      const type = c.req.header('Content-Type') ?? '';
      body = type.includes('application/graphql') ? { query: await c.req.text() } : await c.req.json<Record<string, unknown>>();
    } catch {
      return c.json({ errors: { query: 'Required parameter missing or invalid' } }, 400);
    }
    const { status, json } = await runAdminGraphql(emu, shop, body, version);
    c.header('X-Shopify-API-Version', version);
    c.header('X-Request-Id', crypto.randomUUID());
    return c.json(json as Record<string, unknown>, status as 200);
  });

  // Control API: checks a document against the published schema of `version` without running it.
  app.post(`${CONTROL}/graphql/validate`, async (c) => {
    const { query, version } = await c.req.json<{ query?: string; version?: string }>();
    if (typeof query !== 'string' || typeof version !== 'string') return c.json({ error: 'query and version are required' }, 400);
    return c.json(checkDocument(query, version));
  });

  // Bulk operation results: Shopify serves them from a signed storage URL; here from the emulator.
  app.get('/bulk-results/:shop/:file', (c) => {
    const shop = emu.shops.get(c.req.param('shop'));
    const id = Number(c.req.param('file').replace(/\.jsonl$/, ''));
    const op = shop?.bulkOperations.find((o) => o.id === id);
    if (!op || op.jsonl === null) return c.text('NoSuchKey', 404);
    return c.body(op.jsonl, 200, { 'Content-Type': 'application/jsonl', 'Content-Length': String(Buffer.byteLength(op.jsonl)) });
  });
}
