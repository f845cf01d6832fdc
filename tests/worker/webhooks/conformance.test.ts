// shopify.app.toml held against the Worker as Shopify would use it: every webhook and compliance uri is
// resolved the way Shopify CLI resolves it (emulator/app-toml.ts cites the CLI's source), and a
// delivery signed as Shopify signs it is posted to each resolved path: 200. Unsigned or wrongly signed: 401.
import { env } from 'cloudflare:test';
import { parse } from 'smol-toml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hmacSha256, toBase64 } from '../../../worker/lib/crypto';
import { WEBHOOK_TOPICS } from '../../../worker/webhooks/receive';
import { RESOURCE_INCLUDE_FIELDS } from '../../../worker/webhooks/handlers';
import {
  applyIncludeFields,
  parseAppToml,
  resolveUri,
  resolveWebhookTargets,
  type WebhookTarget,
} from '../../../emulator/app-toml';
import appTomlText from '../../../shopify.app.toml?raw';
import wranglerTomlText from '../../../wrangler.toml?raw';
import { call, createShop } from '../helpers';
import { recordSyncQueueSends } from '../shopify/fake-shopify';
import { recordWebhookQueue } from './webhook-queue';
import { WEBHOOK_QUEUE_MAX_RETRIES, WEBHOOK_QUEUE_NAME } from '../../../worker/webhooks/consumer';

const appToml = parseAppToml(appTomlText);
const targets = resolveWebhookTargets(appToml);
recordSyncQueueSends();
recordWebhookQueue();
afterEach(() => vi.restoreAllMocks());

/** A payload of the shape Shopify sends for the topic (then cut to the subscription's include_fields). */
function samplePayload(topic: string, shop: string): Record<string, unknown> {
  const shopResource = {
    id: 548380009,
    name: 'Conformance',
    email: 'owner@example.com',
    domain: shop,
    myshopify_domain: shop,
    plan_name: 'partner_test',
    plan_display_name: 'Developer Preview',
  };
  const product = {
    id: 632910392,
    admin_graphql_api_id: 'gid://shopify/Product/632910392',
    title: 'IPod Nano',
    updated_at: '2026-11-21T08:00:00Z',
    body_html: '<p>x</p>',
  };
  const collection = {
    id: 482865238,
    admin_graphql_api_id: 'gid://shopify/Collection/482865238',
    title: 'Smart iPods',
    updated_at: '2026-11-21T08:00:00Z',
  };
  const samples: Record<string, Record<string, unknown>> = {
    'app/uninstalled': shopResource,
    'shop/update': shopResource,
    'app/scopes_update': {
      id: 1,
      previous: ['read_products'],
      current: (appToml.access_scopes?.scopes ?? '').split(','),
      updated_at: '2026-11-21T08:00:00Z',
    },
    'app_subscriptions/update': {
      app_subscription: { admin_graphql_api_id: 'gid://shopify/AppSubscription/1', name: 'Premium', status: 'ACTIVE' },
    },
    'products/create': product,
    'products/update': product,
    'products/delete': { id: 632910392 },
    'collections/create': collection,
    'collections/update': collection,
    'collections/delete': { id: 482865238 },
    'customers/data_request': {
      shop_id: 1,
      shop_domain: shop,
      orders_requested: [1],
      customer: { id: 1 },
      data_request: { id: 9 },
    },
    'customers/redact': { shop_id: 1, shop_domain: shop, customer: { id: 1 }, orders_to_redact: [1] },
    'shop/redact': { shop_id: 1, shop_domain: shop },
  };
  const p = samples[topic];
  if (!p) throw new Error(`no sample payload for ${topic}: add one`);
  return p;
}

async function post(target: WebhookTarget, shop: string, sign: 'valid' | 'none' | 'wrong') {
  const body = JSON.stringify(applyIncludeFields(samplePayload(target.topic, shop), target.includeFields));
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Shopify-Topic': target.topic,
    'X-Shopify-Shop-Domain': shop,
    'X-Shopify-Webhook-Id': crypto.randomUUID(),
    'X-Shopify-API-Version': appToml.webhooks?.api_version ?? '',
    'X-Shopify-Triggered-At': new Date().toISOString(),
  };
  if (sign !== 'none')
    headers['X-Shopify-Hmac-Sha256'] = toBase64(
      await hmacSha256(sign === 'valid' ? env.SHOPIFY_API_SECRET : 'another-apps-secret', body),
    );
  const url = new URL(target.url);
  return call(url.pathname + url.search, { method: 'POST', headers, body });
}

/** Cloudflare's run_worker_first: the path reaches the Worker, not the static assets. */
function reachesWorker(path: string): boolean {
  const patterns = (parse(wranglerTomlText) as { assets?: { run_worker_first?: string[] | boolean } }).assets?.run_worker_first;
  if (patterns === true) return true;
  if (!Array.isArray(patterns)) return false;
  const matches = (p: string) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(path);
  return (
    patterns.some((p) => !p.startsWith('!') && matches(p)) && !patterns.some((p) => p.startsWith('!') && matches(p.slice(1)))
  );
}

describe('shopify.app.toml as Shopify CLI deploys it', () => {
  it('joins a relative uri to the whole application_url, as the CLI does', () => {
    // The rule that made every delivery of the old configuration land on /auth/install/webhooks/shopify.
    expect(resolveUri('/webhooks/shopify', 'https://x.example/auth/install')).toBe(
      'https://x.example/auth/install/webhooks/shopify',
    );
    expect(resolveUri('/webhooks/shopify/', 'https://x.example/')).toBe('https://x.example/webhooks/shopify');
    expect(resolveUri('https://hooks.example/in', 'https://x.example')).toBe('https://hooks.example/in');
  });

  it('application_url is the app root and every topic the Worker handles is subscribed, compliance topics included', () => {
    expect(new URL(appToml.application_url).pathname).toBe('/');
    expect(targets.map((t) => t.topic).sort()).toEqual([...WEBHOOK_TOPICS].sort());
    expect(
      targets
        .filter((t) => t.compliance)
        .map((t) => t.topic)
        .sort(),
    ).toEqual(['customers/data_request', 'customers/redact', 'shop/redact']);
    for (const t of targets) {
      expect(new URL(t.url).origin, t.topic).toBe(new URL(appToml.application_url).origin);
      expect(reachesWorker(new URL(t.url).pathname), `${t.topic} ${t.url} is served by the Worker (run_worker_first)`).toBe(true);
    }
  });

  it('subscribes app/scopes_update; product and collection topics send only the fields their handlers read', () => {
    expect(targets.map((t) => t.topic)).toContain('app/scopes_update');
    const resources = targets.filter((t) => /^(products|collections)\//.test(t.topic));
    expect(resources).toHaveLength(6);
    for (const t of resources) expect(t.includeFields, t.topic).toEqual([...RESOURCE_INCLUDE_FIELDS]);
  });

  it("the heavy topics' queue is produced, consumed and retried as worker/webhooks/consumer.ts counts on (wrangler.toml)", () => {
    const { queues } = parse(wranglerTomlText) as {
      queues: { producers: { binding: string; queue: string }[]; consumers: { queue: string; max_retries?: number }[] };
    };
    expect(queues.producers).toContainEqual({ binding: 'WEBHOOK_QUEUE', queue: WEBHOOK_QUEUE_NAME });
    // Its final attempt logs webhook_work_gave_up: the number must be the consumer's max_retries.
    expect(queues.consumers.find((c) => c.queue === WEBHOOK_QUEUE_NAME)?.max_retries).toBe(WEBHOOK_QUEUE_MAX_RETRIES);
  });

  it.each(targets.map((t) => [t.topic, t] as const))(
    '%s: a signed delivery to the resolved uri is accepted (200); unsigned or wrongly signed 401',
    async (_topic, target) => {
      // shop/redact acts only for an uninstalled shop; the others for an installed one.
      const { shop } = await createShop(target.topic === 'shop/redact' ? { uninstalledAt: Date.now() } : {});
      expect((await post(target, shop.domain, 'none')).status).toBe(401);
      expect((await post(target, shop.domain, 'wrong')).status).toBe(401);
      const res = await post(target, shop.domain, 'valid');
      expect(res.status, await res.clone().text()).toBe(200);
      expect((await res.json<{ outcome: string }>()).outcome).toMatch(/^(processed|queued)$/);
    },
  );
});
